/**
 * Carousel island (catalogue §9 "Carousel defaults: 2 per page, speed 500 ms, autoplay 2000 ms"):
 * a CSS scroll-snap track with previous/next buttons that move one page in 500 ms, autoplaying
 * every 2000 ms. Autoplay pauses while hovered or focused and is off under prefers-reduced-motion
 * (then page moves are instant too). Slides are product tiles or banners.
 */
import { useEffect, useRef, useState } from 'react'
import * as z from 'zod/mini'
import { ProductTile } from '../../../shared/components/catalog/product-tile'
import type { TileData } from '../../../shared/components/catalog/tile-data'
import { CAROUSEL } from '../../../shared/config/ui'
import { TileSchema } from '../category/tile-schema'
import { defineIsland } from '../define'

export interface CarouselBanner {
  title: string
  image: string
  mobileImage?: string | null
  link: string
}

export interface CarouselProps {
  label: string
  currency: string
  tiles?: TileData[]
  banners?: CarouselBanner[]
  perPage?: number
  speedMs?: number
  autoplayMs?: number
}

const CarouselPropsSchema = z.object({
  label: z.string(),
  currency: z.string(),
  tiles: z.optional(z.array(TileSchema)),
  banners: z.optional(
    z.array(
      z.object({
        title: z.string(),
        image: z.string(),
        mobileImage: z.optional(z.nullable(z.string())),
        link: z.string(),
      }),
    ),
  ),
  perPage: z.optional(z.number()),
  speedMs: z.optional(z.number()),
  autoplayMs: z.optional(z.number()),
}) as unknown as z.ZodMiniType<CarouselProps>

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

function Carousel({
  label,
  currency,
  tiles = [],
  banners = [],
  perPage = CAROUSEL.perPage,
  speedMs = CAROUSEL.speedMs,
  autoplayMs = CAROUSEL.autoplayMs,
}: CarouselProps) {
  const track = useRef<HTMLUListElement>(null)
  const [paused, setPaused] = useState(false)
  const count = tiles.length || banners.length
  const pages = Math.max(1, Math.ceil(count / perPage))

  const go = (delta: number) => {
    const el = track.current
    if (!el) return
    const width = el.clientWidth
    const current = Math.round(el.scrollLeft / Math.max(1, width))
    const target = nextPage(current, delta, pages) * width
    if (reducedMotion() || speedMs <= 0) {
      el.scrollLeft = target
      return
    }
    const start = el.scrollLeft
    const t0 = performance.now()
    // Scroll snapping would fight the animation: switch it off while moving.
    el.style.scrollSnapType = 'none'
    const step = (t: number) => {
      const p = Math.min(1, (t - t0) / speedMs)
      el.scrollLeft = start + (target - start) * easeInOut(p)
      if (p < 1) requestAnimationFrame(step)
      else el.style.scrollSnapType = ''
    }
    requestAnimationFrame(step)
  }

  useEffect(() => {
    if (paused || pages < 2 || autoplayMs <= 0 || reducedMotion()) return
    const timer = setInterval(() => go(1), autoplayMs)
    return () => clearInterval(timer)
  })

  return (
    <div
      className="carousel"
      role="region"
      aria-roledescription="carousel"
      aria-label={label}
      style={{ '--per-page': perPage } as never}
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
    >
      <ul className="carousel__track" ref={track} data-testid="carousel-track">
        {tiles.map((tile) => (
          <li key={tile.sku} className="carousel__slide">
            <ProductTile tile={tile} currency={currency} />
          </li>
        ))}
        {banners.map((b, i) => (
          <li key={`${b.link}-${i}`} className="carousel__slide carousel__slide--banner">
            <a href={b.link} className="banner">
              <picture>
                {b.mobileImage ? <source media="(max-width: 767px)" srcSet={b.mobileImage} /> : null}
                <img
                  src={b.image}
                  alt={b.title}
                  width={1200}
                  height={500}
                  loading={i === 0 ? 'eager' : 'lazy'}
                  fetchPriority={i === 0 ? 'high' : undefined}
                />
              </picture>
              <span className="banner__title">{b.title}</span>
            </a>
          </li>
        ))}
      </ul>
      {pages > 1 ? (
        <div className="carousel__controls">
          <button
            type="button"
            className="carousel__btn"
            onClick={() => go(-1)}
            aria-label={`Previous ${label}`}
          >
            ‹
          </button>
          <button type="button" className="carousel__btn" onClick={() => go(1)} aria-label={`Next ${label}`}>
            ›
          </button>
        </div>
      ) : null}
    </div>
  )
}

export const CarouselIsland = defineIsland('carousel', Carousel, CarouselPropsSchema)
