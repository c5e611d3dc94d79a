/**
 * GET /api/cart/look?sku=A,B: "Complete the look" for the bag — the pieces the bag's products are
 * linked to in the catalogue (the product page's rule, lookSkus: cross-sells, then related, then
 * up-sells, each in its position order), over the bag's products in the order given, then, while
 * fewer than LOOK_PIECES, the product page's fallback for the bag's first product: pieces by its
 * designer, then from its first category (`linked` says whether any piece is a linked one: the
 * heading is then "Complete the look", else "You may also like"). Only listed, enabled, in-stock
 * pieces the shopper's currency may buy (the catalogue query's and the tiles' own rules); never a
 * piece already in the bag (its sku, or one of its variants, named in the request).
 *
 * The request names the bag's product skus itself: the cart may live only in the browser, and no
 * cart (this shopper's or another's) is ever read here. Its cost is bounded before it starts: at
 * most LOOK_BAG_SKUS skus of at most 64 characters, at most four catalogue queries.
 *
 * Each piece comes with what the bag needs to add it in one step: its price for this shopper's
 * currency, and its sizes (the wishlist's bag offer: sold-out sizes listed, not choosable).
 */
import { toTileData, visibleTiles } from '@shared/components/catalog/tile-data'
import { formatUnitPrice } from '@shared/domain/currency'
import type { Product } from '@shared/schemas/catalog'
import type { Context } from 'hono'
import type { LookPiece } from '../../../client/islands/cart/cart-look'
import { bagOffer } from '../../../client/islands/lists/bag-choices'
import { getCommerce } from '../../commerce'
import { pagePricing } from '../../pages/layout/pricing'
import { lookSkus } from '../../pages/product/recommendations'
import type { AppEnv } from '../../platform/env'
import { fail, ok } from '../../platform/http'
import { MAX_CART_LINES } from './repo'

/** How many pieces the cart offers. */
const LOOK_PIECES = 4
/** How many bag skus one request may name: one per line of the largest cart; more are refused. */
export const LOOK_BAG_SKUS = MAX_CART_LINES

/**
 * The bag's skus from the request's `sku` (comma-separated, repeats dropped); a list longer than
 * LOOK_BAG_SKUS or a sku over 64 characters is a 400 in words.
 */
export function bagSkus(raw: string | undefined): string[] {
  const text = (raw ?? '').slice(0, LOOK_BAG_SKUS * 65 + 1)
  const skus = [...new Set(text.split(',').map((x) => x.trim()))].filter(Boolean)
  if (text.length > LOOK_BAG_SKUS * 65 || skus.length > LOOK_BAG_SKUS)
    fail(400, `Suggestions can be asked for at most ${LOOK_BAG_SKUS} pieces of a bag at a time.`)
  if (skus.some((s) => s.length > 64)) fail(400, 'A product code is at most 64 characters long.')
  return skus
}

const NONE = { linked: false, items: [] as LookPiece[] }

export async function cartLook(c: Context<AppEnv>, bag: readonly string[]) {
  if (bag.length === 0) return ok(c, NONE)
  const commerce = getCommerce(c)
  const inBag = new Set(bag)
  const pricing = pagePricing(c)
  const owners = await commerce.searchProducts({ terms: { sku: [...bag] }, size: bag.length })
  const bySku = new Map(owners.items.map((p) => [p.sku, p]))
  // Never a piece in the bag, nor one whose variant is.
  const offerable = (p: Product) =>
    !inBag.has(p.sku) && !(p.configurable_children ?? []).some((ch) => inBag.has(ch.sku))
  const wanted = [
    ...new Set(bag.flatMap((sku) => (bySku.has(sku) ? lookSkus(bySku.get(sku) as Product) : []))),
  ].filter((sku) => !inBag.has(sku))
  const pieces: Product[] = []
  if (wanted.length > 0) {
    const found = await commerce.searchProducts({
      terms: { sku: wanted },
      size: wanted.length,
      inStockOnly: true,
    })
    const linked = new Map(found.items.map((p) => [p.sku, p]))
    pieces.push(...wanted.flatMap((sku) => linked.get(sku) ?? []).filter(offerable))
  }
  const linked = pieces.length > 0
  // The product page's fallback, for the bag's first product the catalogue knows: pieces by its
  // designer, then from its first category (one query each, only while pieces are missing).
  const first = bag.map((sku) => bySku.get(sku)).find((p) => p !== undefined)
  const size = LOOK_PIECES + bag.length + 1
  const add = (items: Product[]) => {
    for (const p of items) if (offerable(p) && !pieces.some((q) => q.sku === p.sku)) pieces.push(p)
  }
  if (pieces.length < LOOK_PIECES && first?.designer != null)
    add(
      (await commerce.searchProducts({ filters: { designer: [first.designer] }, size, inStockOnly: true }))
        .items,
    )
  const category = first?.category[0]?.category_id
  if (pieces.length < LOOK_PIECES && category != null)
    add((await commerce.searchProducts({ categoryIds: [category], size, inStockOnly: true })).items)
  if (pieces.length === 0) return ok(c, NONE)
  const now = Date.now()
  const prices = await pricing
  const currency = c.var.store.currency
  const shown = visibleTiles(
    pieces.map((product) => {
      const tile = toTileData(product, now, prices)
      return { product, tile, international: tile.international }
    }),
    currency,
  )
  const items: LookPiece[] = shown.slice(0, LOOK_PIECES).map(({ product, tile: t }) => ({
    sku: t.sku,
    name: t.name,
    url: t.url,
    image: t.image,
    designer: t.designer,
    price: t.finalPrice,
    formatted: formatUnitPrice(t.finalPrice, currency),
    offer: bagOffer(product),
  }))
  return ok(c, { linked, items })
}
