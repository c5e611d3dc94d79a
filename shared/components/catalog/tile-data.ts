/**
 * The product tile's view model: everything a tile shows, computed once from a Product (server or
 * island) so islands can carry tiles as small JSON props. Prices stay in the base currency (INR)
 * and are formatted at render time with the ONE formatPrice for the page's currency.
 */

import { NO_SELECTION_MARKER } from '../../config/images'
import { productPath } from '../../config/routes'
import { isFlagSet, isProductInStock, isTileVisible } from '../../domain/availability'
import type { Product } from '../../schemas/catalog'
import { type TilePricing, tilePrice } from './tile-price'

export interface TileData {
  id: number
  sku: string
  name: string
  url: string
  /** Image path (imageUrl input); null = placeholder. */
  image: string | null
  hoverImage: string | null
  designer: string | null
  /** Displayed price in INR (special or configurable-cheapest applied). */
  finalPrice: number
  /** Regular price in INR (struck through when above finalPrice). */
  regularPrice: number
  /** Whole-number discount percent (0 when none). */
  discountPercent: number
  sale: boolean
  isNew: boolean
  readyToShip: boolean
  inStock: boolean
  international: boolean
}

/** A usable image path, or null for empty values and the 'no_selection' marker (both show the placeholder). */
export function usableImage(path: string | null | undefined): string | null {
  if (!path || path.includes(NO_SELECTION_MARKER)) return null
  return path
}

type TileSource = Pick<Product, 'id' | 'sku' | 'name' | 'slug' | 'price' | 'type_id'> & Partial<Product>

/** Builds a tile's view model from a product document at time `now`. */
export function toTileData(product: TileSource, now: number, pricing?: TilePricing): TileData {
  const gallery = product.media_gallery ?? []
  const image =
    usableImage(product.image) ?? usableImage(product.small_image) ?? usableImage(gallery[0]?.image)
  const hover =
    usableImage(product.hover_image) ??
    usableImage(gallery.map((g) => g.image).find((img) => img && img !== image && usableImage(img)))
  const price = tilePrice(product, now, pricing)
  return {
    id: product.id,
    sku: product.sku,
    name: product.name,
    url: productPath(
      product.parent_sku || product.sku,
      product.slug || product.url_key || String(product.id),
    ),
    image,
    hoverImage: hover ?? null,
    designer: product.designer_name ?? null,
    finalPrice: price.finalPrice,
    regularPrice: price.regularPrice,
    discountPercent: price.discountPercent,
    sale: isFlagSet(product.sale),
    isNew: isFlagSet(product.new),
    readyToShip: (product.rts_qty ?? 0) > 0 || isFlagSet(product.rts),
    inStock: isProductInStock({
      type_id: product.type_id,
      stock: product.stock,
      configurable_children: product.configurable_children,
    }),
    international: isFlagSet(product.international_flag),
  }
}

/** Tiles visible in `currency` (international products only in INR), server and client alike. */
export function visibleTiles<T extends { international: boolean }>(
  tiles: readonly T[],
  currency: string,
): T[] {
  return tiles.filter((t) => isTileVisible({ international_flag: t.international }, currency))
}
