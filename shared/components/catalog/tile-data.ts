/**
 * The product tile's view model: everything a tile shows, computed once from a Product (server or
 * island) so islands can carry tiles as small JSON props. Prices stay in the base currency (INR)
 * and are formatted at render time with the ONE formatPrice for the page's currency.
 */

import { colorSwatch } from '../../config/content'
import { NO_SELECTION_MARKER } from '../../config/images'
import { productPath } from '../../config/links'
import { isFlagSet, isProductInStock, isTileVisible } from '../../domain/availability'
import type { Product } from '../../schemas/catalog'
import { documentRating, type RatingSummary } from '../product/rating'
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
  /** The price is where the product starts (a grouped set's cheapest piece): shown as "from". */
  from?: boolean
  /** Regular price in INR (struck through when above finalPrice). */
  regularPrice: number
  /** Whole-number discount percent (0 when none). */
  discountPercent: number
  sale: boolean
  isNew: boolean
  readyToShip: boolean
  inStock: boolean
  international: boolean
  /** The colours a configurable product comes in (its purchasable variants), for the tile's swatches. */
  colors?: TileColor[]
  /** The colour whose variant the tile shows and links to (a colour filter is applied), else absent. */
  shownColor?: number
  /** The average star rating of its reviews, when it has any. */
  rating?: RatingSummary
}

interface TileColor {
  id: number
  label: string
  /** CSS colour of the swatch (null when the label has no known colour). */
  swatch: string | null
}

/** What a listing knows beyond the product: the chosen colour filter and the colour option labels. */
export interface TileContext {
  /** Chosen colour option ids (a colour filter); the tile then shows a variant of one of them. */
  colors?: readonly string[]
  /** Colour option id → label. */
  colorLabels?: Readonly<Record<string, string>>
}

/** A usable image path, or null for empty values and the 'no_selection' marker (both show the placeholder). */
export function usableImage(path: string | null | undefined): string | null {
  if (!path || path.includes(NO_SELECTION_MARKER)) return null
  return path
}

type TileSource = Pick<Product, 'id' | 'sku' | 'name' | 'slug' | 'price' | 'type_id'> & Partial<Product>

type TileChild = { sku: string; color?: number | null; image?: string | null; status?: number | null } & {
  stock?: { is_in_stock?: boolean | null; qty?: number | null } | null
}

/** A child variant that can be shown: enabled (status 2 is disabled). */
function enabledChildren(product: TileSource): TileChild[] {
  return ((product.configurable_children ?? []) as TileChild[]).filter((ch) => ch.status !== 2)
}

/**
 * The variant a colour filter asks for: the first enabled child in one of the chosen colours,
 * preferring one in stock, so the tile's picture and link match the colour the shopper filtered by.
 */
function chosenColorChild(product: TileSource, chosen: readonly string[] | undefined): TileChild | null {
  if (!chosen?.length) return null
  const wanted = new Set(chosen.map(Number))
  const matching = enabledChildren(product).filter((ch) => ch.color != null && wanted.has(ch.color))
  return matching.find((ch) => ch.stock?.is_in_stock !== false) ?? matching[0] ?? null
}

/** The distinct colours of a product's enabled variants, in the variants' order. */
function tileColors(product: TileSource, labels: Readonly<Record<string, string>> | undefined): TileColor[] {
  if (!labels) return []
  const seen = new Set<number>()
  const out: TileColor[] = []
  for (const ch of enabledChildren(product)) {
    if (ch.color == null || seen.has(ch.color)) continue
    seen.add(ch.color)
    const label = labels[String(ch.color)]
    if (label) out.push({ id: ch.color, label, swatch: colorSwatch(label) })
  }
  return out
}

/** Builds a tile's view model from a product document at time `now`. */
export function toTileData(
  product: TileSource,
  now: number,
  pricing?: TilePricing,
  context: TileContext = {},
): TileData {
  const gallery = product.media_gallery ?? []
  const variant = chosenColorChild(product, context.colors)
  const variantImage = usableImage(variant?.image)
  const image =
    variantImage ??
    usableImage(product.image) ??
    usableImage(product.small_image) ??
    usableImage(gallery[0]?.image)
  // With a variant's picture the hover view is the gallery picture right after it (its back view).
  const variantAt = variantImage ? gallery.findIndex((g) => g.image === variantImage) : -1
  const hover = variantImage
    ? variantAt >= 0
      ? usableImage(gallery[variantAt + 1]?.image)
      : null
    : (usableImage(product.hover_image) ??
      usableImage(gallery.map((g) => g.image).find((img) => img && img !== image && usableImage(img))))
  const price = tilePrice(product, now, pricing)
  const colors = tileColors(product, context.colorLabels)
  // Under a colour filter the tile names the colour it shows: its variant's, or its own for a simple product.
  const ownColor =
    product.color != null && context.colors?.includes(String(product.color)) ? product.color : null
  const shownColor = variant?.color ?? ownColor
  const rating = documentRating(product as { rating_summary?: unknown; review_count?: unknown })
  const parentSku = product.parent_sku || product.sku
  const slug = product.slug || product.url_key || String(product.id)
  return {
    id: product.id,
    sku: product.sku,
    name: product.name,
    url: productPath(parentSku, slug, variant?.sku),
    image,
    hoverImage: hover ?? null,
    designer: product.designer_name ?? null,
    finalPrice: price.finalPrice,
    ...(price.from ? { from: true } : {}),
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
    ...(colors.length > 1 ? { colors } : {}),
    ...(shownColor != null ? { shownColor } : {}),
    ...(rating ? { rating } : {}),
  }
}

/** What a listing's tiles need from its state and labels: the chosen colours and the colour names. */
export function listingTileContext(
  state: { chosen: Record<string, ReadonlyArray<{ id: string }>> },
  labels: { options: Record<string, Record<string, string>> },
): TileContext {
  return { colors: (state.chosen.color ?? []).map((v) => v.id), colorLabels: labels.options.color }
}

/** Tiles visible in `currency` (international products only in INR), server and client alike. */
export function visibleTiles<T extends { international: boolean }>(
  tiles: readonly T[],
  currency: string,
): T[] {
  return tiles.filter((t) => isTileVisible({ international_flag: t.international }, currency))
}
