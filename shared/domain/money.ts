/**
 * Money in integer minor units (paise, cents, pence) of one currency: the tax a tax-inclusive amount
 * contains, and splitting an amount over lines so the parts add up to it exactly.
 */

/** The tax inside a tax-inclusive amount: amount × rate / (100 + rate), rounded half up to a minor unit. */
export function includedTaxMinor(amountMinor: number, ratePercent: number): number {
  if (!(ratePercent > 0) || amountMinor === 0) return 0
  return Math.round((amountMinor * ratePercent) / (100 + ratePercent))
}

/**
 * Splits `totalMinor` over `weights` in proportion, in whole minor units, so the parts sum to the
 * total exactly: each part is floored and the units left over go to the largest remainders (ties to
 * the earlier line). All-zero weights give all-zero parts (and the total must then be 0).
 */
export function allocateMinor(totalMinor: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((s, w) => s + w, 0)
  if (!(sum > 0)) return weights.map(() => 0)
  const exact = weights.map((w) => (totalMinor * w) / sum)
  const parts = exact.map((x) => Math.floor(x))
  let left = totalMinor - parts.reduce((s, p) => s + p, 0)
  const order = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i)
  for (let k = 0; left > 0 && order.length > 0; k = (k + 1) % order.length, left--) {
    const idx = (order[k] as { i: number }).i
    parts[idx] = (parts[idx] as number) + 1
  }
  return parts
}

/** The store credit an order spends: the shopper's balance, never more than the order's total. */
export function creditToApplyMinor(balanceMinor: number, totalMinor: number): number {
  return Math.max(0, Math.min(Math.trunc(balanceMinor), totalMinor))
}
