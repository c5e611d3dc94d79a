/**
 * Stock of cart lines: the check asked when a product is added, and its answer applied to the
 * line after a short delay (in stock → 'In stock!'; out of stock → marked, or removed when the
 * shop neither allows out-of-stock lines nor syncs the cart with the server). A check that cannot
 * be answered (offline, server error) is 'volatile' and asked again when the shop is back online.
 */
import { MSG } from '@shared/i18n/messages'
import type { CartLine } from '@shared/schemas/cart'
import { sleep } from '../../storage/clock'
import { type ClientSettings, STOCK_AFTER_CHECK_DELAY_MS } from '../runtime/config'
import type { CartContext, StockCheck } from './context'
import { findLine, patchLine, removeLine } from './lines'

/** GET /api/stock/check through the task queue; volatile offline, without cart sync, or on failure. */
export async function checkStockOnServer(ctx: CartContext, sku: string): Promise<StockCheck> {
  if (!ctx.isOnline() || !ctx.settings().cartServerSync) return { status: 'volatile' }
  try {
    const res = await ctx.queue.execute({
      url: `/api/stock/check?sku=${encodeURIComponent(sku)}`,
      silent: true,
    })
    if (res.code !== 200 || !res.result || typeof res.result !== 'object') return { status: 'volatile' }
    const r = res.result as { is_in_stock?: boolean; qty?: number }
    return {
      status: r.is_in_stock === false ? 'out_of_stock' : 'ok',
      qty: r.qty,
      is_in_stock: r.is_in_stock,
    }
  } catch {
    return { status: 'volatile' }
  }
}

/** What a stock answer does to a line: nothing, a patch, or removing it. */
type StockOutcome = { type: 'none' } | { type: 'patch'; patch: Partial<CartLine> } | { type: 'remove' }

export function stockOutcome(
  line: CartLine,
  result: StockCheck,
  settings: Pick<ClientSettings, 'allowOutOfStockInCart' | 'cartServerSync'>,
): StockOutcome {
  if (result.status === 'volatile') return { type: 'none' }
  if (result.status === 'ok') {
    return {
      type: 'patch',
      patch: {
        info: { ...(line.info ?? {}), stock: MSG.inStock },
        stock: { ...(line.stock ?? {}), is_in_stock: true, qty: result.qty },
      },
    }
  }
  if (settings.allowOutOfStockInCart || settings.cartServerSync) {
    return {
      type: 'patch',
      patch: {
        errors: { ...(line.errors ?? {}), stock: MSG.outOfStockBadge },
        stock: { ...(line.stock ?? {}), is_in_stock: false, qty: result.qty ?? 0 },
      },
    }
  }
  return { type: 'remove' }
}

/** Applies a stock answer to the line of `sku` after the stock-after-check delay. */
export async function applyStockResult(ctx: CartContext, sku: string, result: StockCheck): Promise<void> {
  await sleep(ctx.clock, STOCK_AFTER_CHECK_DELAY_MS)
  const line = findLine(sku)
  if (!line) return
  const outcome = stockOutcome(line, result, ctx.settings())
  if (outcome.type === 'patch') patchLine(ctx, sku, outcome.patch)
  else if (outcome.type === 'remove') removeLine(ctx, sku)
}

/** Asks again for the lines whose stock is not known yet (after coming back online). */
export function recheckUnknownStock(ctx: CartContext, lines: readonly CartLine[]): void {
  for (const l of lines) {
    if (l.stock?.is_in_stock !== undefined) continue
    void ctx.checkStock(l.sku).then((r) => applyStockResult(ctx, l.sku, r))
  }
}
