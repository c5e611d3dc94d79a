/**
 * The category listing island: filter panel, sort,
 * product grid, infinite scroll (only while online), back-to-top after 1000 px, mobile filter
 * actions on scroll-up over 50 px, and scroll restore to the clicked product. Filter and sort
 * state live in the URL (pushState; popstate refetches). Changing filters resets pagination to 0
 * and refetches with the same DSL the server used (shared listing-query).
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { buildFilterGroups, type FilterGroup } from '../../../shared/components/catalog/facets'
import {
  type ListingIslandProps,
  listingSearchRequest,
} from '../../../shared/components/catalog/listing-query'
import {
  clearFilters,
  type ListingState,
  listingQueryString,
  parseListingQuery,
  sameListingState,
  toggleListingFilter,
  withSort,
} from '../../../shared/components/catalog/listing-state'
import { ListingView } from '../../../shared/components/catalog/listing-view'
import { type TileData, visibleTiles } from '../../../shared/components/catalog/tile-data'
import { PAGE_SIZE } from '../../../shared/config/catalog'
import { BACK_TO_TOP_SCROLL_PX, MOBILE_FILTER_ACTIONS_SCROLL_PX } from '../../../shared/config/ui'
import { ApiError } from '../../api'
import { notify } from '../../state/notifications'
import { defineIsland } from '../define'
import { array, nullable, num, object, oneOf, optional, record, schemaOf, str } from '../props-check'
import { fetchListingPage } from './catalog-fetch'
import {
  filterActionsVisibility,
  restoreFetch,
  saveScrollRecord,
  scrollToProduct,
  takeScrollRecord,
} from './scroll-restore'
import { checkTile } from './tile-schema'

const ListingPropsSchema = schemaOf<ListingIslandProps>(
  object({
    categoryId: num,
    categoryIds: array(num),
    currency: str,
    state: object({
      chosen: record(array(object({ id: str, label: str }))),
      sort: oneOf(['latest', 'price-asc', 'price-desc'] as const),
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
  }),
)

/** Start pulling the next page this far before the grid's end. */
const SENTINEL_MARGIN_PX = 400
/** Retries of a failed pull (then the 'Load more' button remains). */
const PULL_RETRIES = 2
const PULL_RETRY_DELAY_MS = 1500
/** While no request gets through, the next page is tried this often (only near the grid's end). */
const NETWORK_RETRY_DELAY_MS = 3000

function useOnline(): boolean {
  const [online, setOnline] = useState(true)
  useEffect(() => {
    const update = () => setOnline(navigator.onLine)
    update()
    window.addEventListener('online', update)
    window.addEventListener('offline', update)
    return () => {
      window.removeEventListener('online', update)
      window.removeEventListener('offline', update)
    }
  }, [])
  return online
}

function Listing(props: ListingIslandProps) {
  const { categoryIds, currency, labels } = props
  // The ViewCategory analytics event; loaded lazily, outside the page's JS budget.
  useEffect(() => {
    void import('../../engines/analytics').then((m) =>
      m.track('ViewCategory', { contentIds: [String(props.categoryId)], contentType: 'product_group' }),
    )
  }, [props.categoryId])
  const [state, setState] = useState<ListingState>(props.state)
  const [tiles, setTiles] = useState<TileData[]>(props.tiles)
  const [total, setTotal] = useState(props.total)
  const [loaded, setLoaded] = useState(props.loaded)
  const [groups, setGroups] = useState<FilterGroup[]>(props.groups)
  const [loading, setLoading] = useState(false)
  const [filtersOpen, setFiltersOpen] = useState(false)
  const [backToTop, setBackToTop] = useState(false)
  const [actionsVisible, setActionsVisible] = useState(true)
  const online = useOnline()
  const [retryTick, setRetryTick] = useState(0)
  // navigator.onLine can say "online" with no network (a captive LAN, or a document the service
  // worker served while offline), so a pull that fails before any answer also counts as offline.
  const [networkDown, setNetworkDown] = useState(false)
  const retries = useRef(0)
  const sentinel = useRef<HTMLDivElement>(null)
  const busy = useRef(false)
  const generation = useRef(0)
  const live = useRef({ state, loaded, total, tiles })
  live.current = { state, loaded, total, tiles }

  /** Fetches page 0 for a state (filters/sort changed) and replaces the grid. */
  const reload = useCallback(
    async (next: ListingState, size = PAGE_SIZE) => {
      const gen = ++generation.current
      busy.current = true
      setLoading(true)
      try {
        const page = await fetchListingPage(listingSearchRequest(categoryIds, next, 0, size))
        if (gen !== generation.current) return
        setTiles(visibleTiles(page.tiles, currency))
        setTotal(page.total)
        setLoaded(page.fetched)
        setGroups(buildFilterGroups(page.aggregations, labels, currency))
      } catch (err) {
        if (gen === generation.current)
          notify({ type: 'error', message: String((err as Error).message ?? err) })
      } finally {
        if (gen === generation.current) {
          busy.current = false
          setLoading(false)
        }
      }
    },
    [categoryIds, currency, labels],
  )

  /** Pulls the next page (or `size` products) and appends it. */
  const pullMore = useCallback(
    async (size = PAGE_SIZE) => {
      const { state: s, loaded: from, total: t } = live.current
      if (busy.current || from >= t || !navigator.onLine) return
      const gen = generation.current
      busy.current = true
      setLoading(true)
      try {
        const page = await fetchListingPage(listingSearchRequest(categoryIds, s, from, size))
        if (gen !== generation.current) return
        setTiles((prev) => {
          const seen = new Set(prev.map((p) => p.sku))
          return [...prev, ...visibleTiles(page.tiles, currency).filter((p) => !seen.has(p.sku))]
        })
        setTotal(page.total)
        setLoaded(from + page.fetched)
        // Visible to callers awaiting this pull before React re-renders.
        live.current = { ...live.current, loaded: from + page.fetched, total: page.total }
        retries.current = 0
        setNetworkDown(false)
      } catch (err) {
        console.warn('pull more failed', err)
        if (!(err instanceof ApiError)) {
          // No answer at all: offline until a later pull gets through (tried while the sentinel
          // stays near the viewport, since the browser may never fire an 'online' event).
          setNetworkDown(true)
          if (gen === generation.current) setTimeout(() => setRetryTick((n) => n + 1), NETWORK_RETRY_DELAY_MS)
        } else if (gen === generation.current && retries.current < PULL_RETRIES) {
          // A transient server failure: try again shortly (the sentinel stays in view, so no new event comes).
          retries.current++
          setTimeout(() => setRetryTick((n) => n + 1), PULL_RETRY_DELAY_MS)
        }
      } finally {
        if (gen === generation.current) {
          busy.current = false
          setLoading(false)
        }
      }
    },
    [categoryIds, currency],
  )

  const apply = useCallback(
    (next: ListingState) => {
      setState(next)
      const url = `${window.location.pathname}${listingQueryString(next)}`
      window.history.pushState({ listing: true }, '', url)
      // Show the new first page from its top when the shopper had scrolled down the grid.
      const top = document.querySelector('.listing')?.getBoundingClientRect().top ?? 0
      if (top < 0) window.scrollTo({ top: window.scrollY + top - 16 })
      void reload(next)
    },
    [reload],
  )

  // Back/forward between filter states.
  useEffect(() => {
    const onPop = () => {
      const next = parseListingQuery(new URLSearchParams(window.location.search))
      setState(next)
      void reload(next)
    }
    window.addEventListener('popstate', onPop)
    return () => window.removeEventListener('popstate', onPop)
  }, [reload])

  // The server may have rendered without the query (e.g. a dispatcher rewrite): follow the URL.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on hydration
  useEffect(() => {
    const fromUrl = parseListingQuery(window.location.search)
    if (!sameListingState(fromUrl, props.state)) {
      setState(fromUrl)
      void reload(fromUrl)
    }
  }, [])

  // Returning from a product: reload up to the remembered count, then scroll to the product.
  useEffect(() => {
    const url = `${window.location.pathname}${window.location.search}`
    const rec = takeScrollRecord(sessionStorage, url)
    if (!rec) return
    if ('scrollRestoration' in history) history.scrollRestoration = 'manual'
    let cancelled = false
    void (async () => {
      // A slow or failed page (or a pull already running) gets a few more tries.
      for (let attempt = 0; attempt < 1 + PULL_RETRIES && !cancelled; attempt++) {
        const missing = restoreFetch(live.current.loaded, rec.loaded)
        if (!missing) break
        if (busy.current) await new Promise((r) => setTimeout(r, PULL_RETRY_DELAY_MS))
        else await pullMore(missing.size)
      }
      if (!cancelled) scrollToProduct(rec.sku)
    })()
    return () => {
      cancelled = true
    }
  }, [pullMore])

  // Remember the clicked product (and how many products were loaded) before leaving.
  const onGridClick = useCallback((e: React.MouseEvent) => {
    const link = (e.target as Element).closest<HTMLElement>('[data-tile-sku]')
    if (!link?.dataset.tileSku) return
    saveScrollRecord(sessionStorage, {
      url: `${window.location.pathname}${window.location.search}`,
      sku: link.dataset.tileSku,
      loaded: live.current.loaded,
    })
  }, [])

  // Infinite scroll: the sentinel below the grid pulls the next page while online.
  useEffect(() => {
    const el = sentinel.current
    if (!el || typeof IntersectionObserver === 'undefined') return
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((en) => en.isIntersecting)) void pullMore()
      },
      { rootMargin: `0px 0px ${SENTINEL_MARGIN_PX}px 0px` },
    )
    io.observe(el)
    return () => io.disconnect()
  }, [pullMore])

  // Coming back online, after a page arrived or a retry is due, while the sentinel is still near
  // the viewport: continue (IntersectionObserver only reports changes).
  // biome-ignore lint/correctness/useExhaustiveDependencies: loaded and retryTick are the triggers
  useEffect(() => {
    if (!online || !sentinel.current || busy.current) return
    const r = sentinel.current.getBoundingClientRect()
    if (r.top < window.innerHeight + SENTINEL_MARGIN_PX) void pullMore()
  }, [online, pullMore, loaded, retryTick])

  // Back-to-top (> 1000 px) and the mobile filter actions (show on scroll up > 50 px, hide on down).
  useEffect(() => {
    let track = { visible: true, anchor: window.scrollY, last: window.scrollY }
    let frame = 0
    const onScroll = () => {
      if (frame) return
      frame = requestAnimationFrame(() => {
        frame = 0
        const y = window.scrollY
        setBackToTop(y > BACK_TO_TOP_SCROLL_PX)
        track = filterActionsVisibility(track, y, MOBILE_FILTER_ACTIONS_SCROLL_PX)
        setActionsVisible(track.visible || y < MOBILE_FILTER_ACTIONS_SCROLL_PX)
      })
    }
    window.addEventListener('scroll', onScroll, { passive: true })
    return () => window.removeEventListener('scroll', onScroll)
  }, [])

  return (
    <ListingView
      currency={currency}
      state={state}
      tiles={tiles}
      total={total}
      loaded={loaded}
      groups={groups}
      loading={loading}
      online={online && !networkDown}
      filtersOpen={filtersOpen}
      actionsVisible={actionsVisible}
      backToTop={backToTop}
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
}

export const ListingIsland = defineIsland('category-listing', Listing, ListingPropsSchema)
