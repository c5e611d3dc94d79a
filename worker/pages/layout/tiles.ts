/**
 * Tiles of catalogue products, worked out once and reused while nothing they show can differ.
 *
 * A product the search engine answers with is a frozen object that stays the same object for as
 * long as its document (catalogue version) and its live stock rows are the same
 * (worker/search/held/live-stock.ts): anything it or its stock changes gives another object. So a
 * tile kept by that object's identity, with the tax rules object it was priced with (a memoised
 * read: a new object for every version of the rules), the country and the colour context, is the
 * tile `toTileData` would build, as long as the instant is within the span over which its special
 * price windows answer the same (`steadyOver`): a special price that starts or ends is priced
 * again at once. The markup of a tile (and its bytes, once a page has spliced it:
 * worker/platform/render/kept-bytes.ts) is kept by the tile object, the configuration (currency
 * rates) and the currency. Products that are not frozen (built for one request) are not kept.
 * Nothing here depends on the shopper or the session.
 *
 * Everything is held weakly by the product object, so it goes with the stock page and documents
 * that hold it (their byte budgets count it, docs/caches.md).
 */
import { type TileContext, type TileData, toTileData } from '@shared/components/catalog/tile-data'
import type { TilePricing } from '@shared/components/catalog/tile-price'
import { steadyOver } from '@shared/domain/price-window'
import type { Product } from '@shared/schemas/catalog'
import type { KeptMarkup } from '../../platform/render/kept-bytes'

interface KeptTile {
  tile: TileData
  from: number
  until: number
}

/** product → tax rules (or NO_RULES) → colour labels (or NO_LABELS) → "country|colours" → tile. */
const tiles = new WeakMap<object, WeakMap<object, WeakMap<object, Map<string, KeptTile>>>>()
const NO_RULES = {}
const NO_LABELS = {}
/**
 * Most "country|colours" keys kept per product, rules and labels. The country comes from the
 * shopper's cookie (any two letters), so without a bound one visitor could keep ~670 tiles of every
 * home product; past the bound the product's tiles are dropped and kept afresh (a tile is still
 * worked out for every request).
 */
export const MAX_KEPT_TILE_KEYS = 8

/** `map`'s value for `key`, made and set by `make` the first time it is asked for. */
export function nested<K extends object, V>(map: WeakMap<K, V>, key: K, make: () => V): V {
  let v = map.get(key)
  if (v === undefined) {
    v = make()
    map.set(key, v)
  }
  return v
}

/** `toTileData(product, now, pricing, context)`, reused for a frozen product while it is exact. */
export function productTile(
  product: Product,
  now: number,
  pricing: TilePricing,
  context: TileContext = {},
): TileData {
  if (!Object.isFrozen(product)) return toTileData(product, now, pricing, context)
  const byRules = nested(tiles, product, () => new WeakMap())
  const byLabels = nested(byRules, pricing.taxRules ?? NO_RULES, () => new WeakMap())
  const byKey = nested(byLabels, context.colorLabels ?? NO_LABELS, () => new Map<string, KeptTile>())
  const key = `${pricing.country ?? ''}|${context.colors?.join(',') ?? ''}`
  const kept = byKey.get(key)
  if (kept && now >= kept.from && now < kept.until) return kept.tile
  const made = steadyOver(() => Object.freeze(toTileData(product, now, pricing, context)))
  if (!kept && byKey.size >= MAX_KEPT_TILE_KEYS) byKey.clear()
  byKey.set(key, { tile: made.value, from: made.from, until: made.until })
  return made.value
}

/** tile → configuration object → currency → markup. */
const markup = new WeakMap<TileData, WeakMap<object, Map<string, KeptMarkup>>>()

/**
 * A tile's markup in `currency` under configuration `config` (its currency rates and locale):
 * `render()` once per frozen tile (a kept one, whose bytes are then encoded once too), every time
 * for another.
 */
export function tileMarkup(
  tile: TileData,
  currency: string,
  config: object,
  render: () => string,
): KeptMarkup {
  if (!Object.isFrozen(tile)) return { html: render() }
  const byCurrency = nested(
    nested(markup, tile, () => new WeakMap()),
    config,
    () => new Map<string, KeptMarkup>(),
  )
  let kept = byCurrency.get(currency)
  if (kept === undefined) {
    kept = { html: render() }
    byCurrency.set(currency, kept)
  }
  return kept
}
