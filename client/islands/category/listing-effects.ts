/**
 * The listing's browser behaviour around its pages: the online flag, the URL as the source of the
 * filter state (back/forward, a server render without the query), the return to the clicked
 * product, infinite scroll, and the back-to-top and mobile filter-action controls.
 */

import {
  type ListingState,
  parseListingQuery,
  sameListingState,
} from '@shared/components/catalog/listing-state'
import { BACK_TO_TOP_SCROLL_PX, MOBILE_FILTER_ACTIONS_SCROLL_PX } from '@shared/config/ui'
import { type RefObject, useCallback, useEffect, useState } from 'react'
import {
  filterActionsVisibility,
  restoreFetch,
  saveScrollRecord,
  scrollToProduct,
  takeScrollRecord,
} from './scroll-restore'
import { PULL_RETRIES, PULL_RETRY_DELAY_MS, SENTINEL_MARGIN_PX } from './use-listing-pages'

type Pull = (size?: number) => Promise<void>

export function useOnline(): boolean {
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

/** Back/forward between filter states, and a server render that did not see the URL's query. */
export function useListingUrl(
  initial: ListingState,
  setState: (s: ListingState) => void,
  reload: (s: ListingState) => Promise<void>,
  parse: (params: URLSearchParams) => ListingState = parseListingQuery,
) {
  // Back/forward between filter states.
  useEffect(() => {
    const onPop = () => {
      const next = parse(new URLSearchParams(window.location.search))
      setState(next)
      void reload(next)
    }
    window.addEventListener('popstate', onPop)
    return () => window.removeEventListener('popstate', onPop)
  }, [reload, setState, parse])

  // The server may have rendered without the query (e.g. a dispatcher rewrite): follow the URL.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on hydration
  useEffect(() => {
    const fromUrl = parse(new URLSearchParams(window.location.search))
    if (!sameListingState(fromUrl, initial)) {
      setState(fromUrl)
      void reload(fromUrl)
    }
  }, [])
}

/** Returning from a product: the grid reloads as far as before and scrolls to it; a click on a tile remembers it. */
export function useReturnToProduct(
  live: RefObject<{ loaded: number }>,
  busy: RefObject<boolean>,
  pullMore: Pull,
) {
  // Returning from a product: reload up to the remembered count, then scroll to the product.
  // biome-ignore lint/correctness/useExhaustiveDependencies: live and busy are refs, read when the pulls run
  useEffect(() => {
    const url = `${window.location.pathname}${window.location.search}`
    const rec = takeScrollRecord(sessionStorage, url)
    if (!rec) return
    if ('scrollRestoration' in history) history.scrollRestoration = 'manual'
    let cancelled = false
    void (async () => {
      // Pulls of at most one listing page each until the count is back; a slow or failed pull (or
      // a pull already running) gets a few more tries, and a pull that brings nothing ends it.
      for (let attempt = 0; attempt < 1 + PULL_RETRIES && !cancelled; ) {
        const missing = restoreFetch(live.current.loaded, rec.loaded)
        if (!missing) break
        if (busy.current) await new Promise((r) => setTimeout(r, PULL_RETRY_DELAY_MS))
        else await pullMore(missing.size)
        if (live.current.loaded <= missing.from) attempt++
      }
      if (!cancelled) scrollToProduct(rec.sku)
    })()
    return () => {
      cancelled = true
    }
  }, [pullMore])

  // Remember the clicked product (and how many products were loaded) before leaving.
  // biome-ignore lint/correctness/useExhaustiveDependencies: live is a ref, read at click time
  const onGridClick = useCallback((e: React.MouseEvent) => {
    const link = (e.target as Element).closest<HTMLElement>('[data-tile-sku]')
    if (!link?.dataset.tileSku) return
    saveScrollRecord(sessionStorage, {
      url: `${window.location.pathname}${window.location.search}`,
      sku: link.dataset.tileSku,
      loaded: live.current.loaded,
    })
  }, [])
  return onGridClick
}

/** Infinite scroll below the grid (only while online). */
export function useInfiniteScroll(input: {
  sentinel: RefObject<HTMLDivElement | null>
  busy: RefObject<boolean>
  pullMore: Pull
  online: boolean
  loaded: number
  retryTick: number
}) {
  const { sentinel, busy, pullMore, online, loaded, retryTick } = input
  // Infinite scroll: the sentinel below the grid pulls the next page while online.
  // biome-ignore lint/correctness/useExhaustiveDependencies: sentinel is a ref to an element rendered once
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
}

/** Back-to-top (> 1000 px) and the mobile filter actions (show on scroll up > 50 px, hide on down). */
export function useScrollControls() {
  const [backToTop, setBackToTop] = useState(false)
  const [actionsVisible, setActionsVisible] = useState(true)
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
  return { backToTop, actionsVisible }
}
