/**
 * Resolving requested lines (a cart add, the products of an order) against the live catalogue:
 * the product, its configured options (line-options.ts) and the live stock of every stocked sku the
 * lines consume. Quantities of the same stocked sku are summed over all lines — two lines of one
 * sku, or a sku ordered alone and inside a bundle, draw on the same stock.
 */
import { isSellable, sellableUnits } from '@shared/domain/availability'
import type { ConfigurableChild, Product } from '@shared/schemas/catalog'
import { getProductsBySku, type ProductBySku } from '../../catalog/products'
import { giftOptionsProblem } from '../giftcard/details'
import { configureLine, type LineConfig, LineProblem } from './line-options'

interface LineRequest {
  sku: string
  qty: number
  product_option?: unknown
}

export interface ResolvedLine extends LineConfig {
  index: number
  qty: number
  product: Product
}

/** Live state of one stocked sku. */
interface StockState {
  sku: string
  productId: number
  inStock: boolean
  /** Units that may be taken now (Infinity when the stock is not counted or backorders are allowed). */
  qty: number
}

/** Why a requested line cannot be used (the caller words it for its endpoint). */
type LineFailure =
  | { index: number; kind: 'unknown-sku'; sku: string }
  | { index: number; kind: 'needs-variant'; message: string }
  | { index: number; kind: 'options'; message: string }
  | { index: number; kind: 'unavailable'; sku: string }

export class LineFailureError extends Error {
  constructor(readonly failure: LineFailure) {
    super(failure.kind)
  }
}

const SIMPLE_LIKE = new Set(['simple', 'virtual', 'downloadable'])

const enabled = (product: Product, child?: ConfigurableChild) =>
  product.status < 2 && (child?.status ?? 1) < 2

/** The sellable item a component sku names (a simple-like product or a configurable child), if any. */
function sellableOf(found: ProductBySku | undefined) {
  if (!found) return null
  if (found.child) return enabled(found.product, found.child) ? found.child : null
  if (!SIMPLE_LIKE.has(found.product.type_id)) return null
  return enabled(found.product) ? found.product : null
}

/**
 * Resolves every line, in order; the first line that cannot be used throws a LineFailureError.
 * `needed` is the total quantity per stocked sku over all lines.
 */
export async function resolveLines(
  db: D1Database,
  requests: readonly LineRequest[],
): Promise<{ lines: ResolvedLine[]; needed: Map<string, number>; stock: Map<string, StockState> }> {
  const bySku = await getProductsBySku(
    db,
    requests.map((r) => r.sku),
  )
  const lines: ResolvedLine[] = []
  for (const [index, request] of requests.entries()) {
    const found = bySku.get(request.sku)
    if (!found) throw new LineFailureError({ index, kind: 'unknown-sku', sku: request.sku })
    const { product } = found
    if (!enabled(product, found.child))
      throw new LineFailureError({ index, kind: 'unavailable', sku: found.child?.sku ?? product.sku })
    let config: LineConfig
    try {
      config = configureLine(product, found.child, request.product_option)
    } catch (err) {
      if (err instanceof LineProblem)
        throw new LineFailureError(
          err.kind === 'options'
            ? { index, kind: 'options', message: err.message }
            : { index, kind: 'needs-variant', message: err.message },
        )
      throw err
    }
    if (config.child && !enabled(product, config.child))
      throw new LineFailureError({ index, kind: 'unavailable', sku: config.child.sku })
    const giftProblem = giftOptionsProblem(product, config.customOptions, Date.now())
    if (giftProblem) throw new LineFailureError({ index, kind: 'options', message: giftProblem })
    lines.push({ ...config, index, qty: request.qty, product })
  }

  // Linked products of bundles and grouped products are loaded in one more round trip.
  const missing = [
    ...new Set(lines.flatMap((l) => l.components.map((c) => c.sku)).filter((sku) => !bySku.has(sku))),
  ]
  const components = missing.length ? await getProductsBySku(db, missing) : new Map<string, ProductBySku>()
  const stock = new Map<string, StockState>()
  const needed = new Map<string, number>()
  for (const line of lines) {
    for (const component of line.components) {
      if (!stock.has(component.sku)) {
        const own = component.sku === line.sku
        const item = own
          ? (line.child ?? line.product)
          : sellableOf(bySku.get(component.sku) ?? components.get(component.sku))
        if (!item) throw new LineFailureError({ index: line.index, kind: 'unavailable', sku: component.sku })
        stock.set(component.sku, {
          sku: component.sku,
          productId: item.id,
          inStock: isSellable(item.stock),
          qty: sellableUnits(item.stock),
        })
      }
      needed.set(component.sku, (needed.get(component.sku) ?? 0) + line.qty * component.units)
    }
  }
  return { lines, needed, stock }
}

/** The first stocked sku whose live stock cannot cover what the lines need, or null. */
export function shortOfStock(needed: ReadonlyMap<string, number>, stock: ReadonlyMap<string, StockState>) {
  for (const [sku, qty] of needed) {
    const s = stock.get(sku)
    if (!s?.inStock || s.qty < qty) return sku
  }
  return null
}
