/**
 * The address step never changes a price already shown without saying so: when the server's
 * totals for the shipping country charge a line differently from the price the shopper saw (their
 * browsing country's), every line is listed with the price seen and the price charged now, under
 * the sentence saying why (the tax for that country).
 */
import { lineUnitPrice } from '@shared/domain/cart-line'
import { formatMinor } from '@shared/domain/currency'
import type { CartLine, CartTotals } from '../../state/cart'
import { inPageCurrency } from '../cart/cart-totals'
import { pageCurrency } from '../page-currency'
import { pageUnitMinor } from '../page-price'

interface Repriced {
  sku: string
  name: string
  seen: string
  now: string
}

/** Every line with the unit price seen and the one the server charges now, when any of them differ. */
export function repricedLines(items: readonly CartLine[], totals: CartTotals | null): Repriced[] {
  if (!totals || !inPageCurrency(totals)) return []
  const server = (totals.items ?? []) as { sku?: string; price_incl_tax?: number }[]
  const currency = pageCurrency()
  const rows = items.flatMap((l) => {
    const charged = server.find((i) => i.sku === l.sku)?.price_incl_tax
    if (typeof charged !== 'number') return []
    const seen = pageUnitMinor(lineUnitPrice(l))
    const now = Math.round(charged * 100)
    return [{ sku: l.sku, name: l.name, seenMinor: seen, nowMinor: now }]
  })
  if (!rows.some((r) => r.seenMinor !== r.nowMinor)) return []
  return rows.map((r) => ({
    sku: r.sku,
    name: r.name,
    seen: formatMinor(r.seenMinor, currency),
    now: formatMinor(r.nowMinor, currency),
  }))
}

export function RepriceNotice({ lines, sentence }: { lines: readonly Repriced[]; sentence: string | null }) {
  if (lines.length === 0) return null
  return (
    <div className="notice checkout__reprice" role="status" data-testid="reprice-notice">
      <p>
        {sentence ?? 'The delivery country changes the tax in the prices.'} Every item is re-priced for it:
      </p>
      <ul>
        {lines.map((l) => (
          <li key={l.sku} data-testid="repriced-line" data-sku={l.sku}>
            {l.name}: <s>{l.seen}</s> → {l.now}
          </li>
        ))}
      </ul>
    </div>
  )
}
