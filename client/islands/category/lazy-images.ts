/**
 * Lazy tile images: tiles render a placeholder with the real source in data-src/data-srcset; the
 * image loads when 25 % of it is visible (pre-load factor 1.3: the viewport is extended by 30 %
 * below), immediately when IntersectionObserver is missing. A failed load retries up to 3 times,
 * then shows the placeholder. The hover image loads after the main one. Scroll checks in the
 * fallback are throttled to 200 ms. New tiles (infinite scroll) are picked up by a
 * MutationObserver.
 */
import { INTERSECTION_THRESHOLD, LAZY_IMAGE } from '@shared/config/ui'

const RETRY_ATTR = 'data-retries'

/** The IntersectionObserver rootMargin of the pre-load factor (1.3 → 30 % below the viewport). */
export function preloadRootMargin(factor: number = LAZY_IMAGE.preLoadFactor): string {
  return `0px 0px ${Math.round((factor - 1) * 100)}% 0px`
}

function swapIn(img: HTMLImageElement): void {
  const src = img.dataset.src
  if (!src) return
  const placeholder = img.getAttribute('src') ?? ''
  img.dataset.fallback = placeholder
  img.removeAttribute('data-lazy')
  if (img.dataset.srcset) img.srcset = img.dataset.srcset
  img.src = src
  delete img.dataset.src
  delete img.dataset.srcset
  // The hover image of the same tile follows once the main image is loaded.
  if (!img.classList.contains('tile__img--hover')) {
    const hover = img.parentElement?.querySelector<HTMLImageElement>('img.tile__img--hover[data-src]')
    if (hover) img.addEventListener('load', () => swapIn(hover), { once: true })
  }
}

/** error handler: retry up to LAZY_IMAGE.retries times, then the placeholder. */
function onImageError(e: Event): void {
  const img = e.target
  if (!(img instanceof HTMLImageElement) || !img.classList.contains('tile__img')) return
  const fallback = img.dataset.fallback
  if (!fallback || img.src === fallback) return
  const tries = Number(img.getAttribute(RETRY_ATTR) ?? '0')
  if (tries < LAZY_IMAGE.retries) {
    img.setAttribute(RETRY_ATTR, String(tries + 1))
    const url = img.currentSrc || img.src
    setTimeout(
      () => {
        img.src = url
      },
      LAZY_IMAGE.throttleMs * (tries + 1),
    )
    return
  }
  img.removeAttribute('srcset')
  img.src = fallback
}

function throttle(fn: () => void, ms: number): () => void {
  let last = 0
  let timer: ReturnType<typeof setTimeout> | null = null
  return () => {
    const now = Date.now()
    if (now - last >= ms) {
      last = now
      fn()
    } else if (!timer) {
      timer = setTimeout(
        () => {
          timer = null
          last = Date.now()
          fn()
        },
        ms - (now - last),
      )
    }
  }
}

let started = false

/** Starts lazy loading for every `img[data-lazy="main"]` on the page, now and later. */
export function startLazyImages(root: Document = document): void {
  if (started) return
  started = true
  root.addEventListener('error', onImageError, true)
  const pending = () => [...root.querySelectorAll<HTMLImageElement>('img[data-lazy="main"]')]
  if (typeof IntersectionObserver === 'undefined') {
    // No observer support: load immediately, including tiles appended later.
    for (const img of pending()) swapIn(img)
    new MutationObserver(() => pending().forEach(swapIn)).observe(root.body, {
      childList: true,
      subtree: true,
    })
    return
  }
  const io = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue
        io.unobserve(entry.target)
        swapIn(entry.target as HTMLImageElement)
      }
    },
    { threshold: INTERSECTION_THRESHOLD, rootMargin: preloadRootMargin() },
  )
  const observeAll = throttle(() => {
    for (const img of pending()) {
      if (img.dataset.observed) continue
      img.dataset.observed = '1'
      io.observe(img)
    }
  }, LAZY_IMAGE.throttleMs)
  observeAll()
  for (const img of pending()) {
    if (!img.dataset.observed) {
      img.dataset.observed = '1'
      io.observe(img)
    }
  }
  new MutationObserver(observeAll).observe(root.body, { childList: true, subtree: true })
  // Eager images (first row) also need the hover image once loaded.
  for (const img of root.querySelectorAll<HTMLImageElement>('img.tile__img[fetchpriority="high"]')) {
    const hover = img.parentElement?.querySelector<HTMLImageElement>('img.tile__img--hover[data-src]')
    if (!hover) continue
    if (img.complete) swapIn(hover)
    else img.addEventListener('load', () => swapIn(hover), { once: true })
  }
}
