/**
 * The listing's pages: the grid state (filters and sort, tiles, totals, filter groups) and the two
 * ways it changes. A new state reloads page 0 and replaces the grid (a newer request wins); a pull
 * appends the next page (skipping duplicates) while online. A pull that gets no answer at all marks
 * the network as down and is tried again later; a server failure is retried a few times.
 */

import type { FilterGroup } from '@shared/components/catalog/facets'
import type { ListingIslandProps } from '@shared/components/catalog/listing-query'
import type { ListingState } from '@shared/components/catalog/listing-state'
import type { TileData } from '@shared/components/catalog/tile-data'
import { PAGE_SIZE } from '@shared/config/catalog'
import { MSG } from '@shared/i18n/messages'
import { useCallback, useRef, useState } from 'react'
import { notify } from '../../state/notifications'

/** Start pulling the next page this far before the grid's end. */
export const SENTINEL_MARGIN_PX = 400
/** Retries of a failed pull (then the 'Load more' button remains). */
export const PULL_RETRIES = 2
export const PULL_RETRY_DELAY_MS = 1500
/** While no request gets through, the next page is tried this often (only near the grid's end). */
const NETWORK_RETRY_DELAY_MS = 3000

/**
 * True when the server answered with an error (a retry may help), false when no answer came (the
 * shopper is offline). The fetch code decides; when even it could not be loaded, no answer came.
 */
function serverAnswered(err: unknown): Promise<boolean> {
  return import('./listing-fetch').then(
    (m) => m.isServerAnswer(err),
    () => false,
  )
}

export function useListingPages(props: ListingIslandProps) {
  const { categoryIds, currency, labels, text } = props
  const [state, setState] = useState<ListingState>(props.state)
  const [tiles, setTiles] = useState<TileData[]>(props.tiles)
  const [total, setTotal] = useState(props.total)
  const [loaded, setLoaded] = useState(props.loaded)
  const [groups, setGroups] = useState<FilterGroup[]>(props.groups)
  const [loading, setLoading] = useState(false)
  const [retryTick, setRetryTick] = useState(0)
  // navigator.onLine can say "online" with no network (a captive LAN, or a document the service
  // worker served while offline), so a pull that fails before any answer also counts as offline.
  const [networkDown, setNetworkDown] = useState(false)
  const retries = useRef(0)
  const busy = useRef(false)
  const generation = useRef(0)
  const live = useRef({ state, loaded, total, tiles })
  live.current = { state, loaded, total, tiles }

  /**
   * Fetches page 0 for a state (filters/sort changed) and only then shows it: the state, grid,
   * counts and filter groups change together once the answer is in (and `onShown` runs, e.g. to
   * put the state in the URL). A request that fails leaves the page exactly as it was and says
   * why in words a shopper understands (offline, or try again).
   */
  const reload = useCallback(
    async (next: ListingState, onShown?: () => void, size = PAGE_SIZE) => {
      const gen = ++generation.current
      busy.current = true
      setLoading(true)
      try {
        const { fetchListingState } = await import('./listing-fetch')
        const page = await fetchListingState({ categoryIds, text, labels, currency }, next, 0, size)
        if (gen !== generation.current) return
        setState(next)
        setTiles(page.tiles)
        setTotal(page.total)
        setLoaded(page.fetched)
        setGroups(page.groups)
        onShown?.()
      } catch (err) {
        if (gen !== generation.current) return
        console.warn('listing reload failed', err)
        const answered = await serverAnswered(err)
        notify({
          type: 'error',
          message: answered ? MSG.reviewFailed : MSG.listingOffline,
        })
      } finally {
        if (gen === generation.current) {
          busy.current = false
          setLoading(false)
        }
      }
    },
    [categoryIds, currency, labels, text],
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
        const { fetchListingState } = await import('./listing-fetch')
        const page = await fetchListingState({ categoryIds, text, labels, currency }, s, from, size)
        if (gen !== generation.current) return
        setTiles((prev) => {
          const seen = new Set(prev.map((p) => p.sku))
          return [...prev, ...page.tiles.filter((p) => !seen.has(p.sku))]
        })
        setTotal(page.total)
        setLoaded(from + page.fetched)
        // Visible to callers awaiting this pull before React re-renders.
        live.current = { ...live.current, loaded: from + page.fetched, total: page.total }
        retries.current = 0
        setNetworkDown(false)
      } catch (err) {
        console.warn('pull more failed', err)
        if (!(await serverAnswered(err))) {
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
    [categoryIds, currency, labels, text],
  )

  return {
    state,
    setState,
    tiles,
    total,
    loaded,
    groups,
    loading,
    networkDown,
    retryTick,
    busy,
    live,
    reload,
    pullMore,
  }
}
