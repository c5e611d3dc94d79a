/**
 * Carousel behaviour for the server-rendered markup of the product rails
 * (shared/components/catalog/carousel.tsx) and the home hero (worker/pages/home/hero.tsx), without
 * an island (the home page loads as little JS as it can): previous/next move one page in `data-speed` ms (500),
 * autoplay every `data-autoplay` ms (2000) while not hovered or focused, never under
 * prefers-reduced-motion (page moves are then instant too). Wrap-around at either end. Dots
 * (`data-carousel-dot`, one per page) jump to their page, and the dot of the page in view is
 * marked current, however the shopper got there (buttons, swipe, keyboard).
 */

/** Ease-in-out position at progress t ∈ [0, 1]. */
export function easeInOut(t: number): number {
  return t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2
}

/** The page index after moving `delta` pages from `page` of `pages` (wraps around). */
export function nextPage(page: number, delta: number, pages: number): number {
  if (pages <= 0) return 0
  return (((page + delta) % pages) + pages) % pages
}

function reducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches
}

function enhance(root: HTMLElement): void {
  const track = root.querySelector<HTMLElement>('.carousel__track')
  if (!track) return
  const speed = Number(root.dataset.speed ?? 500)
  const autoplay = Number(root.dataset.autoplay ?? 2000)
  let paused = false

  /** Moves to page `to(current, pages)`. */
  const go = (to: (current: number, pages: number) => number) => {
    const width = track.clientWidth
    if (width <= 0) return
    const pages = Math.max(1, Math.ceil(track.scrollWidth / width - 0.01))
    const current = Math.round(track.scrollLeft / width)
    const target = Math.min(to(current, pages) * width, track.scrollWidth - width)
    if (reducedMotion() || speed <= 0) {
      track.scrollLeft = target
      return
    }
    const start = track.scrollLeft
    const t0 = performance.now()
    // Scroll snapping would fight the animation: off while moving.
    track.style.scrollSnapType = 'none'
    const step = (t: number) => {
      const p = Math.min(1, (t - t0) / speed)
      track.scrollLeft = start + (target - start) * easeInOut(p)
      if (p < 1) requestAnimationFrame(step)
      else track.style.scrollSnapType = ''
    }
    requestAnimationFrame(step)
  }

  const move = (delta: number) => go((current, pages) => nextPage(current, delta, pages))
  root.querySelector('[data-carousel-prev]')?.addEventListener('click', () => move(-1))
  root.querySelector('[data-carousel-next]')?.addEventListener('click', () => move(1))
  const dots = [...root.querySelectorAll<HTMLElement>('[data-carousel-dot]')]
  dots.forEach((dot, page) => {
    dot.addEventListener('click', () => go(() => page))
  })
  if (dots.length && typeof IntersectionObserver === 'function') {
    const slides = [...track.children]
    const seen = new IntersectionObserver(
      (entries) => {
        for (const e of entries) {
          if (!e.isIntersecting) continue
          const at = slides.indexOf(e.target)
          dots.forEach((dot, i) => {
            if (i === at) dot.setAttribute('aria-current', 'true')
            else dot.removeAttribute('aria-current')
          })
        }
      },
      { root: track, threshold: 0.6 },
    )
    for (const slide of slides) seen.observe(slide)
  }
  root.addEventListener('mouseenter', () => {
    paused = true
  })
  root.addEventListener('mouseleave', () => {
    paused = false
  })
  root.addEventListener('focusin', () => {
    paused = true
  })
  root.addEventListener('focusout', () => {
    paused = false
  })
  if (autoplay > 0 && root.querySelector('[data-carousel-next]') && !reducedMotion()) {
    setInterval(() => {
      if (!paused && document.visibilityState === 'visible') move(1)
    }, autoplay)
  }
  root.dataset.enhanced = 'true'
}

/** Enhances every carousel on the page (once). */
export function enhanceCarousels(doc: ParentNode = document): void {
  for (const el of doc.querySelectorAll<HTMLElement>('[data-carousel]:not([data-enhanced])')) enhance(el)
}
