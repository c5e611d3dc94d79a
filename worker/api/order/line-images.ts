/**
 * The picture of each line of an order: the image path kept on its order_items row when the order
 * was placed, else (an order placed before lines kept one) the product's current image, else none.
 * A marker meaning "no image" counts as none, so a page never shows a broken picture.
 */
import { isPlaceholderImage } from '@shared/domain/image-url'
import type { ResolvedLine } from '../cart/lines'

const usable = (path: unknown): string | null =>
  typeof path === 'string' && !isPlaceholderImage(path) ? path.trim() : null

/** The image a line is ordered with: its variant's own image, else its product's. */
export function orderedImage(line: Pick<ResolvedLine, 'product' | 'child'>): string | null {
  const child = line.child as { image?: unknown } | undefined
  const product = line.product as { image?: unknown; thumbnail?: unknown; small_image?: unknown }
  return (
    usable(child?.image) ?? usable(product.image) ?? usable(product.thumbnail) ?? usable(product.small_image)
  )
}

/**
 * The image path of each line (by order, then sku) of these orders, in one query; a line without
 * one is absent.
 */
async function lineImages(
  db: D1Database,
  clientOrderIds: readonly string[],
): Promise<Map<string, Map<string, string>>> {
  const { results } = await db
    .prepare(
      `SELECT oi.client_order_id AS order_id, oi.sku, oi.image AS kept, json_extract(p.doc, '$.image') AS current
       FROM order_items oi
       LEFT JOIN products p ON p.sku = COALESCE((SELECT parent_sku FROM inventory WHERE sku = oi.sku), oi.sku)
       WHERE oi.client_order_id IN (SELECT value FROM json_each(?1)) AND oi.parent_sku IS NULL`,
    )
    .bind(JSON.stringify(clientOrderIds))
    .all<{ order_id: string; sku: string; kept: string | null; current: unknown }>()
  const out = new Map<string, Map<string, string>>()
  for (const r of results) {
    const image = usable(r.kept) ?? usable(r.current)
    if (!image) continue
    const lines = out.get(r.order_id) ?? new Map<string, string>()
    lines.set(r.sku, image)
    out.set(r.order_id, lines)
  }
  return out
}

type WithImage<T> = T & { image: string | null }

const pictured = <T extends { sku?: unknown }>(items: readonly T[], images?: Map<string, string>) =>
  items.map((it): WithImage<T> => ({ ...it, image: images?.get(String(it.sku ?? '')) ?? null }))

/** The order's items, each with its `image` path (null when it has none). */
export async function withLineImages<T extends { sku?: unknown }>(
  db: D1Database,
  clientOrderId: string,
  items: readonly T[],
): Promise<WithImage<T>[]> {
  return pictured(items, (await lineImages(db, [clientOrderId])).get(clientOrderId))
}

/** Each order's items, each with its `image` path (null when it has none): one query for all. */
export async function ordersWithLineImages<T extends { sku?: unknown }>(
  db: D1Database,
  orders: readonly { clientOrderId: string; items: readonly T[] }[],
): Promise<WithImage<T>[][]> {
  if (orders.length === 0) return []
  const images = await lineImages(
    db,
    orders.map((o) => o.clientOrderId),
  )
  return orders.map((o) => pictured(o.items, images.get(o.clientOrderId)))
}
