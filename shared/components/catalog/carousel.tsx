/**
 * Carousel markup (2 per page, page moves in 500 ms, autoplay every 2000 ms): a CSS scroll-snap
 * track of product tiles or banners with previous/next buttons. Server-rendered;
 * client/islands/home/carousel.ts enhances it (page moves in 500 ms, autoplay every 2000 ms, paused
 * on hover/focus, off under prefers-reduced-motion). Without JS the track still scrolls.
 */
import { CAROUSEL } from '../../config/ui'
import { ProductTile } from './product-tile'
import type { TileData } from './tile-data'

interface CarouselBanner {
  title: string
  image: string
  mobileImage?: string | null
  link: string
}

interface CarouselProps {
  label: string
  currency: string
  tiles?: TileData[]
  banners?: CarouselBanner[]
  perPage?: number
  speedMs?: number
  autoplayMs?: number
}

export function Carousel({
  label,
  currency,
  tiles = [],
  banners = [],
  perPage = CAROUSEL.perPage,
  speedMs = CAROUSEL.speedMs,
  autoplayMs = CAROUSEL.autoplayMs,
}: CarouselProps) {
  const count = tiles.length || banners.length
  return (
    <section
      className="carousel"
      aria-roledescription="carousel"
      aria-label={label}
      data-carousel=""
      data-per-page={perPage}
      data-speed={speedMs}
      data-autoplay={autoplayMs}
      style={{ '--per-page': perPage } as never}
    >
      <ul className="carousel__track" data-testid="carousel-track">
        {tiles.map((tile) => (
          <li key={tile.sku} className="carousel__slide">
            <ProductTile tile={tile} currency={currency} />
          </li>
        ))}
        {banners.map((b, i) => (
          <li key={`${b.link}|${b.title}|${b.image}`} className="carousel__slide carousel__slide--banner">
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
      {count > perPage ? (
        <div className="carousel__controls">
          <button
            type="button"
            className="carousel__btn"
            data-carousel-prev=""
            aria-label={`Previous: ${label}`}
          >
            ‹
          </button>
          <button type="button" className="carousel__btn" data-carousel-next="" aria-label={`Next: ${label}`}>
            ›
          </button>
        </div>
      ) : null}
    </section>
  )
}
