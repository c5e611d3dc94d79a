/**
 * Pieces made to order as the shop reads them: the products the catalogue team listed in
 * `made_to_order` (a configurable's sku covers all its sizes) and, with the product's lead time,
 * the day a piece ships by (the rule itself: shared/domain/made-to-order.ts).
 */
import { shopTimeZone } from '@shared/config/store'
import { madeToOrderLeadDays, shipsByDate } from '@shared/domain/made-to-order'
import type { ConfigurableChild, Product } from '@shared/schemas/catalog'
import { chunk, placeholders } from './db'

/** The skus among `skus` listed as made to order. */
export async function listedMadeToOrder(db: D1Database, skus: readonly string[]): Promise<Set<string>> {
  const listed = new Set<string>()
  for (const part of chunk([...new Set(skus)])) {
    const rows = await db
      .prepare(`SELECT sku FROM made_to_order WHERE sku IN (${placeholders(part.length)})`)
      .bind(...part)
      .all<{ sku: string }>()
    for (const r of rows.results ?? []) listed.add(r.sku)
  }
  return listed
}

/**
 * The skus listed as made to order among `skus`, the products they belong to and those products'
 * other skus (their sizes): every listing an order naming `skus` can meet, read before its lines
 * are resolved (a line ordered by its configurable's sku takes the size its options choose).
 */
export async function listedMadeToOrderAround(db: D1Database, skus: readonly string[]): Promise<Set<string>> {
  const parts = await Promise.all(
    chunk([...new Set(skus)]).map((part) => {
      const list = part.map((_, i) => `?${i + 1}`).join(', ')
      return db
        .prepare(
          `SELECT sku FROM made_to_order WHERE sku IN (${list})
             OR sku IN (SELECT parent_sku FROM inventory WHERE sku IN (${list}))
             OR sku IN (SELECT sku FROM inventory WHERE parent_sku IN (${list}))`,
        )
        .bind(...part)
        .all<{ sku: string }>()
    }),
  )
  return new Set(parts.flatMap((rows) => (rows.results ?? []).map((r) => r.sku)))
}

/**
 * The date ('YYYY-MM-DD', the shop's calendar) a piece ordered at `at` ships by, or null when it is
 * not made to order. The piece is the product, or its chosen size: listed when either sku is, ready
 * to ship by the size's units when a size is chosen.
 */
export function pieceShipsBy(
  product: Pick<Product, 'sku' | 'delivery_days' | 'rts_qty'>,
  child: Pick<ConfigurableChild, 'sku' | 'rts_qty'> | null | undefined,
  listed: ReadonlySet<string>,
  at: number,
): string | null {
  const days = madeToOrderLeadDays(
    { delivery_days: product.delivery_days, rts_qty: child ? child.rts_qty : product.rts_qty },
    listed.has(product.sku) || (!!child && listed.has(child.sku)),
  )
  return days == null ? null : shipsByDate(at, days, shopTimeZone())
}
