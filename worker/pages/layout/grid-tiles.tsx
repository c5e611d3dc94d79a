/**
 * A listing's tiles, filter groups and their markup, kept by the objects they come from (tiles.ts):
 * the category page's products are the frozen objects the search engine answers with, and its
 * aggregations the frozen object of the result set (the same for every page of the set while the
 * index version stands), so its tiles, filter groups and their markup are worked out once, like the
 * home rails', and again only when a product, its stock, the result set, the tax rules, the
 * country, the filters, the currency or a special price's window says so.
 */
import { buildFilterGroups, type FacetLabels, type FilterGroup } from '@shared/components/catalog/facets'
import type { ListingState } from '@shared/components/catalog/listing-state'
import { FilterPanelContent, gridTileIsEager } from '@shared/components/catalog/listing-view'
import { ProductTile } from '@shared/components/catalog/product-tile'
import { type TileContext, type TileData, visibleTiles } from '@shared/components/catalog/tile-data'
import type { TilePricing } from '@shared/components/catalog/tile-price'
import { DEFAULT_FILTERS } from '@shared/config/catalog'
import type { Aggregations } from '@shared/domain/filters'
import type { Product } from '@shared/schemas/catalog'
import { renderToString } from 'react-dom/server.node'
import { productTile, tileMarkup } from './tiles'

/** The tiles of `products` shown in `currency` (international products only in INR), kept ones where exact. */
export function gridTiles(
  products: readonly Product[],
  now: number,
  pricing: TilePricing,
  context: TileContext,
  currency: string,
): TileData[] {
  return visibleTiles(
    products.map((p) => productTile(p, now, pricing, context)),
    currency,
  )
}

/**
 * The markup of the grid's tiles past its first row, by tile (what `KeptTileMarkup` hands the
 * grid): their images load lazily, as the home rails' do, so it is the same markup. Each is
 * rendered on its own before the page is (React's renderer is not entered twice at once) and kept
 * by its tile, configuration (currency rates) and currency. The first row is rendered in place.
 */
export function gridMarkup(
  tiles: readonly TileData[],
  currency: string,
  config: object,
): Map<TileData, string> {
  const out = new Map<TileData, string>()
  tiles.forEach((tile, i) => {
    if (gridTileIsEager(i)) return
    out.set(
      tile,
      tileMarkup(tile, currency, config, () =>
        renderToString(<ProductTile tile={tile} currency={currency} />),
      ),
    )
  })
  return out
}

/** aggregations → labels → "currency|filters in use" → groups. */
const keptGroups = new WeakMap<object, WeakMap<object, Map<string, readonly FilterGroup[]>>>()
/** groups → "state and search text" → the filter panel's content. */
const keptPanels = new WeakMap<readonly FilterGroup[], Map<string, string>>()
/**
 * Most filter panels kept per groups object: the state comes from the URL (the chosen labels are
 * any text), so past the bound the groups' panels are dropped and kept afresh.
 */
export const MAX_KEPT_PANELS = 8

function nestedMap<K extends object, V>(map: WeakMap<K, V>, key: K, make: () => V): V {
  let v = map.get(key)
  if (v === undefined) {
    v = make()
    map.set(key, v)
  }
  return v
}

/**
 * `buildFilterGroups(aggregations, labels, currency, chosen)`, the same frozen groups again for
 * frozen aggregations (the engine's, shared by a result set's pages) and the same labels object
 * (a memoised read), currency and filters in use (the only thing of `chosen` the groups read).
 */
export function gridFilterGroups(
  aggregations: Aggregations,
  labels: FacetLabels,
  currency: string,
  chosen: ListingState['chosen'],
): readonly FilterGroup[] {
  if (!Object.isFrozen(aggregations)) return buildFilterGroups(aggregations, labels, currency, chosen)
  const byKey = nestedMap(
    nestedMap(keptGroups, aggregations, () => new WeakMap()),
    labels,
    () => new Map<string, readonly FilterGroup[]>(),
  )
  const key = `${currency}|${DEFAULT_FILTERS.filter((f) => (chosen[f]?.length ?? 0) > 0).join(',')}`
  let groups = byKey.get(key)
  if (groups === undefined) {
    groups = freezeGroups(buildFilterGroups(aggregations, labels, currency, chosen))
    byKey.set(key, groups)
  }
  return groups
}

function freezeGroups(groups: FilterGroup[]): readonly FilterGroup[] {
  for (const g of groups) {
    for (const o of g.options) Object.freeze(o)
    Object.freeze(g.options)
    Object.freeze(g)
  }
  return Object.freeze(groups)
}

/**
 * The filter panel's content for `groups` under the listing's `state` and search `text`, as the
 * listing island renders it (its panel has the Done button): rendered once per frozen (kept) groups
 * object, state and text, every time for other groups.
 */
export function filterPanelMarkup(
  groups: readonly FilterGroup[],
  state: ListingState,
  text?: string,
): string {
  const render = () =>
    renderToString(
      <FilterPanelContent groups={groups as FilterGroup[]} state={state} text={text} onOpenFilters={noop} />,
    )
  if (!Object.isFrozen(groups)) return render()
  const byState = nestedMap(keptPanels, groups, () => new Map<string, string>())
  const key = JSON.stringify([state, text ?? null])
  let html = byState.get(key)
  if (html === undefined) {
    html = render()
    if (byState.size >= MAX_KEPT_PANELS) byState.clear()
    byState.set(key, html)
  }
  return html
}

function noop(): void {}
