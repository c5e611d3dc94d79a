/**
 * Product rail markup (2 per page, page moves in 500 ms, autoplay every 2000 ms): a CSS scroll-snap
 * track of product tiles with previous/next buttons. Server-rendered;
 * client/islands/home/carousel.ts enhances it (page moves in 500 ms, autoplay every 2000 ms, paused
 * on hover/focus, off under prefers-reduced-motion). Without JS the track still scrolls. The
 * buttons' icons come from the caller (the page's icon set).
 */
import type { ReactNode } from 'react'
import { CAROUSEL } from '../../config/ui'
import { ProductTile } from './product-tile'
import type { TileData } from './tile-data'

interface CarouselProps {
  label: string
  currency: string
  tiles: TileData[]
  /** The previous and next buttons' icons. */
  icons: { prev: ReactNode; next: ReactNode }
  perPage?: number
  speedMs?: number
  autoplayMs?: number
  /** A tile's markup when the caller keeps it already rendered (what ProductTile renders). */
  tileHtml?: (tile: TileData) => string
}

export function Carousel({
  label,
  currency,
  tiles,
  icons,
  perPage = CAROUSEL.perPage,
  speedMs = CAROUSEL.speedMs,
  autoplayMs = CAROUSEL.autoplayMs,
  tileHtml,
}: CarouselProps) {
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
        {tiles.map((tile) =>
          tileHtml ? (
            <li
              key={tile.sku}
              className="carousel__slide"
              dangerouslySetInnerHTML={{ __html: tileHtml(tile) }}
            />
          ) : (
            <li key={tile.sku} className="carousel__slide">
              <ProductTile tile={tile} currency={currency} />
            </li>
          ),
        )}
      </ul>
      {tiles.length > perPage ? (
        <div className="carousel__controls">
          <button
            type="button"
            className="carousel__btn"
            data-carousel-prev=""
            aria-label={`Previous: ${label}`}
          >
            {icons.prev}
          </button>
          <button type="button" className="carousel__btn" data-carousel-next="" aria-label={`Next: ${label}`}>
            {icons.next}
          </button>
        </div>
      ) : null}
    </section>
  )
}
