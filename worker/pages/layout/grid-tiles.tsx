/**
 * A listing's tiles, filter groups and their markup, kept by the objects they come from (tiles.ts):
 * the category and search pages' products are the frozen objects the search engine answers with,
 * and their aggregations the frozen object of the result set (the same for every page of the set
 * while the index version stands), so their tiles, filter groups and their markup are worked out
 * once, like the home rails', and again only when a product, its stock, the result set, the tax
 * rules, the country, the filters, the search text, the currency or a special price's window says
 * so. Tiles and their markup are held weakly by the products; filter panels in a memo of their
 * own, counted. Both pages place the listing island through `keptListing`.
 */
import { buildFilterGroups, type FacetLabels, type FilterGroup } from '@shared/components/catalog/facets'
import type { ListingIslandProps } from '@shared/components/catalog/listing-query'
import type { ListingState } from '@shared/components/catalog/listing-state'
import {
  FilterPanelContent,
  gridTileIsEager,
  KeptFilterMarkup,
  KeptTileMarkup,
} from '@shared/components/catalog/listing-view'
import { ProductTile } from '@shared/components/catalog/product-tile'
import { type TileContext, type TileData, visibleTiles } from '@shared/components/catalog/tile-data'
import type { TilePricing } from '@shared/components/catalog/tile-price'
import type { Aggregations } from '@shared/domain/filters'
import type { Product } from '@shared/schemas/catalog'
import type { ReactElement } from 'react'
import { renderToString } from 'react-dom/server.node'
import { ListingIsland } from '../../../client/islands/category/listing'
import { approxBytes, createMemo } from '../../platform/memo'
import { type KeptMarkup, keptHtml } from '../../platform/render/kept-bytes'
import { nested, productTile, tileMarkup } from './tiles'

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
): Map<TileData, KeptMarkup> {
  const out = new Map<TileData, KeptMarkup>()
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

/**
 * Bytes of filter panels kept per isolate (their groups and markup, about 30 KB a category page):
 * what the isolate's cache budgets had left (docs/caches.md), so the few most visited listings.
 */
const FILTER_PANELS_MAX_BYTES = 144 * 1024
/** Longest listing state and search text, as JSON, whose panel is kept (both come from the URL). */
const MAX_KEPT_STATE_CHARS = 1024

interface KeptFilters {
  groups: readonly FilterGroup[]
  /** The panel's content (and its bytes, once a page has spliced it). */
  panel: KeptMarkup
}

const filterPanels = createMemo<KeptFilters>({
  name: 'listing filter panels',
  ttlMs: Number.POSITIVE_INFINITY,
  maxEntries: 64,
  maxBytes: FILTER_PANELS_MAX_BYTES,
  // The markup, its UTF-8 bytes (about as many), the groups.
  sizeOf: (e) => 2 * e.panel.html.length + approxBytes(e.groups) + 64,
})

/** A number for each object asked about, for as long as the object lives (a memo key names it). */
const objectIds = new WeakMap<object, number>()
let lastObjectId = 0
function objectId(o: object): number {
  return nested(objectIds, o, () => ++lastObjectId)
}

/**
 * A listing's filter groups (`buildFilterGroups`) and the filter panel's content for them under the
 * listing's state and search text, as the listing island renders it (its panel has the Done
 * button). Kept for frozen aggregations (the engine's, the same object for every page of a result
 * set while the index version stands) with the same labels object (a memoised read), currency,
 * state and text; built every time for other aggregations.
 */
export function gridFilters(
  aggregations: Aggregations,
  labels: FacetLabels,
  currency: string,
  state: ListingState,
  text?: string,
): KeptFilters {
  const build = (): KeptFilters => {
    const groups = freezeGroups(buildFilterGroups(aggregations, labels, currency, state.chosen))
    const html = renderToString(
      <FilterPanelContent groups={groups as FilterGroup[]} state={state} text={text} onOpenFilters={noop} />,
    )
    return { groups, panel: { html } }
  }
  const listing = JSON.stringify([state, text ?? null])
  if (!Object.isFrozen(aggregations) || listing.length > MAX_KEPT_STATE_CHARS) return build()
  const key = `${objectId(aggregations)}|${objectId(labels)}|${currency}|${listing}`
  let kept = filterPanels.peek(key)
  if (kept === undefined) {
    kept = build()
    filterPanels.set(key, kept)
  }
  return kept
}

/**
 * The listing island with the kept markup of its tiles past the first row (`gridMarkup`) and of its
 * filter panel (`panel`, from `gridFilters` for the listing's groups) in place. Called before the
 * page is rendered: the tiles' markup is rendered here, outside the page's render.
 */
export function keptListing(listing: ListingIslandProps, panel: KeptMarkup, config: object): ReactElement {
  const markup = gridMarkup(listing.tiles, listing.currency, config)
  const tiles = { get: (tile: TileData) => kept(markup.get(tile)) }
  const filters = {
    get: (groups: readonly FilterGroup[]) => (groups === listing.groups ? keptHtml(panel) : undefined),
  }
  return (
    <KeptTileMarkup.Provider value={tiles}>
      <KeptFilterMarkup.Provider value={filters}>
        <ListingIsland {...listing} />
      </KeptFilterMarkup.Provider>
    </KeptTileMarkup.Provider>
  )
}

/** A kept piece's markup as the page renders it (kept-bytes.ts); undefined for none. */
function kept(piece: KeptMarkup | undefined): string | undefined {
  return piece === undefined ? undefined : keptHtml(piece)
}

function freezeGroups(groups: FilterGroup[]): readonly FilterGroup[] {
  for (const g of groups) {
    for (const o of g.options) Object.freeze(o)
    Object.freeze(g.options)
    Object.freeze(g)
  }
  return Object.freeze(groups)
}

function noop(): void {}
