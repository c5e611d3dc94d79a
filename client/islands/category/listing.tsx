/**
 * The category listing island: filter panel, sort, product grid, infinite scroll (only while
 * online), back-to-top after 1000 px, mobile filter actions on scroll-up over 50 px, and scroll
 * restore to the clicked product. Filter and sort
 * state live in the URL (pushState; popstate refetches). Changing filters resets pagination to 0
 * and refetches with the same DSL the server used (shared listing-query).
 */

import { type FilterGroup, knownChoices } from '@shared/components/catalog/facets'
import type { ListingIslandProps } from '@shared/components/catalog/listing-query'
import {
  clearFilters,
  type ListingState,
  listingHref,
  listingQueryString,
  parseListingQuery,
  parseSearchListingQuery,
  toggleListingFilter,
  withSort,
} from '@shared/components/catalog/listing-state'
import { KeptFilterMarkup, KeptTileMarkup, ListingView } from '@shared/components/catalog/listing-view'
import type { TileData } from '@shared/components/catalog/tile-data'
import { useCallback, useEffect, useRef, useState } from 'react'
import { defineIsland } from '../define'
import { Icon } from '../layout/icons'
import { array, nullable, num, object, oneOf, optional, record, schemaOf, str } from '../props-check'
import {
  useInfiniteScroll,
  useListingUrl,
  useOnline,
  useReturnToProduct,
  useScrollControls,
} from './listing-effects'
import { setPagePricing } from './page-pricing'
import { checkTile } from './tile-schema'
import { useListingPages } from './use-listing-pages'

const ListingPropsSchema = schemaOf<ListingIslandProps>(
  object({
    categoryId: num,
    categoryIds: array(num),
    text: optional(str),
    currency: str,
    state: object({
      chosen: record(array(object({ id: str, label: str }))),
      sort: oneOf(['latest', 'relevance', 'price-asc', 'price-desc'] as const),
    }),
    tiles: array(checkTile),
    total: num,
    loaded: num,
    groups: array(
      object({
        attr: str,
        label: str,
        kind: oneOf(['list', 'swatch', 'price'] as const),
        options: array(object({ id: str, label: str, count: num, swatch: optional(nullable(str)) })),
      }),
    ),
    labels: object({ titles: record(str), options: record(record(str)) }),
    pricing: object({ country: str, taxRules: (v, p) => (Array.isArray(v) ? v : array(num)(v, p)) }),
  }),
)

/**
 * The page's own markup of the grid's tiles, by the tile objects of the page's props: hydration
 * adopts each tile as it stands (`KeptTileMarkup`) instead of walking its twenty-odd elements (no
 * tile has handlers of its own: the grid answers its clicks), and a tile fetched later (scrolling,
 * filters) is a new object, rendered. A grid item that does not hold the tile at its place is
 * rendered too. On the server (no document) there is none: the server provides its own.
 */
function pageTileMarkup(tiles: TileData[]): { get(tile: TileData): string | undefined } | null {
  if (typeof document === 'undefined') return null
  const items = document.querySelectorAll<HTMLElement>(
    `[data-island="${ListingIsland.islandName}"] .product-grid > .product-grid__item`,
  )
  const byTile = new Map<TileData, string>()
  tiles.forEach((tile, i) => {
    const item = items[i]
    if (!item || item.querySelector('[data-sku]')?.getAttribute('data-sku') !== tile.sku) return
    byTile.set(tile, item.innerHTML)
  })
  return { get: (tile) => byTile.get(tile) }
}

/**
 * The page's own markup of the filter panel's content: hydration adopts it (`KeptFilterMarkup`) while
 * the panel shows the page's groups under the page's state, instead of walking its options; the
 * panel answers its options itself (`FilterPanel`). None on the server.
 */
function pagePanelMarkup(): string | null {
  if (typeof document === 'undefined') return null
  return (
    document.querySelector(`[data-island="${ListingIsland.islandName}"] #listing-filters`)?.innerHTML ?? null
  )
}

function Listing(props: ListingIslandProps) {
  const { currency } = props
  const [keptTiles] = useState(() => pageTileMarkup(props.tiles))
  const [keptPanel] = useState(pagePanelMarkup)
  // Tiles fetched later (scrolling, filters, search) are priced for the same country and tax rules.
  setPagePricing(props.pricing)
  // The ViewCategory analytics event; loaded lazily, outside the page's JS budget.
  useEffect(() => {
    if (props.text !== undefined || !props.categoryId) return
    void import('../../engines/analytics').then((m) =>
      m.track('ViewCategory', { contentIds: [String(props.categoryId)], contentType: 'product_group' }),
    )
  }, [props.categoryId, props.text])
  const pages = useListingPages(props)
  const { state, setState, reload, pullMore, busy, live } = pages
  const [filtersOpen, setFiltersOpen] = useState(false)
  const online = useOnline()
  const sentinel = useRef<HTMLDivElement>(null)

  // The new state, its URL and the scroll to the grid's top happen only once its products are in.
  const apply = useCallback(
    (next: ListingState) => {
      void reload(next, () => {
        const query = props.text ? listingHref(next, props.text) : listingQueryString(next)
        const url = `${window.location.pathname}${query}`
        window.history.pushState({ listing: true }, '', url)
        // Show the new first page from its top when the shopper had scrolled down the grid.
        const top = document.querySelector('.listing')?.getBoundingClientRect().top ?? 0
        if (top < 0) window.scrollTo({ top: window.scrollY + top - 16 })
      })
    },
    [reload, props.text],
  )

  // The URL's choices as the server showed them: values none of the options has are not choices.
  const parseUrl = useCallback(
    (params: URLSearchParams) =>
      knownChoices((props.text ? parseSearchListingQuery : parseListingQuery)(params), props.labels),
    [props.text, props.labels],
  )
  useListingUrl(props.state, setState, reload, parseUrl)
  const onGridClick = useReturnToProduct(live, busy, pullMore)
  useInfiniteScroll({ sentinel, busy, pullMore, online, loaded: pages.loaded, retryTick: pages.retryTick })
  const { backToTop, actionsVisible } = useScrollControls()

  const view = (
    <ListingView
      currency={currency}
      text={props.text}
      state={state}
      tiles={pages.tiles}
      total={pages.total}
      loaded={pages.loaded}
      groups={pages.groups}
      loading={pages.loading}
      online={online && !pages.networkDown}
      filtersOpen={filtersOpen}
      actionsVisible={actionsVisible}
      backToTop={backToTop}
      icons={LISTING_ICONS}
      sentinelRef={sentinel}
      onToggle={(attr, id, label) => apply(toggleListingFilter(state, attr, id, label))}
      onClear={() => apply(clearFilters(state))}
      onSort={(sort) => apply(withSort(state, sort))}
      onOpenFilters={setFiltersOpen}
      onMore={() => void pullMore()}
      onTop={() => window.scrollTo({ top: 0, behavior: 'smooth' })}
      onGridClick={onGridClick}
    />
  )
  const keptFilters =
    keptPanel === null
      ? null
      : {
          get: (groups: readonly FilterGroup[]) =>
            groups === props.groups && state === props.state ? keptPanel : undefined,
        }
  return (
    <KeptTileMarkup.Provider value={keptTiles}>
      <KeptFilterMarkup.Provider value={keptFilters}>{view}</KeptFilterMarkup.Provider>
    </KeptTileMarkup.Provider>
  )
}

/** The listing's icons: a chip's remove mark and back-to-top's arrow, from the shop's sprite. */
const LISTING_ICONS = { remove: <Icon name="x" />, top: <Icon name="arrow-up" /> }

export const ListingIsland = defineIsland('category-listing', Listing, ListingPropsSchema)
