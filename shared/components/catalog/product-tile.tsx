/**
 * Product tile: link to the product page, sale/new labels, price with special price and discount,
 * ready-to-ship marker, a loading placeholder while prices sync, 'Show Interest' instead of the
 * price when out of stock, and lazy images: the placeholder until the tile is 25 % visible
 * (client/islands/category/lazy-images.ts swaps data-src in), eager + fetchpriority=high for the
 * first row (LCP). Rendered identically by SSR and islands.
 */

import { formatUnitPrice } from '../../domain/currency'
import { MSG } from '../../i18n/messages'
import { StarRating } from '../product/rating'
import { PLACEHOLDER_IMAGE, TILE_IMAGE_SIZE, TILE_SIZES_ATTR, tileImage } from './images'
import type { TileData } from './tile-data'

interface ProductTileProps {
  tile: TileData
  currency: string
  /** Load images immediately (first row, for LCP). */
  eager?: boolean
  /** Prices are being synchronised: show the loading placeholder instead. */
  pricesLoading?: boolean
}

/** The price block: final price, the regular price struck through and the discount when on special. */
function TilePrice({ tile, currency }: { tile: TileData; currency: string }) {
  const onSpecial = tile.regularPrice > tile.finalPrice
  return (
    <p className="tile__price" data-testid="tile-price" data-price={tile.finalPrice}>
      {/* The least the product costs (a grouped set's cheapest piece). */}
      {tile.from ? 'from ' : null}
      <span className={onSpecial ? 'price price--special' : 'price'}>
        {formatUnitPrice(tile.finalPrice, currency)}
      </span>
      {onSpecial ? (
        <>
          {' '}
          <s className="price price--old">
            <span className="visually-hidden">Regular price </span>
            {formatUnitPrice(tile.regularPrice, currency)}
          </s>{' '}
          <span className="price__discount">{`${tile.discountPercent}% off`}</span>
        </>
      ) : null}
    </p>
  )
}

function TileImage({
  path,
  alt,
  eager,
  hover,
}: {
  path: string | null
  alt: string
  eager: boolean
  hover?: boolean
}) {
  const { width, height } = TILE_IMAGE_SIZE
  const cls = hover ? 'tile__img tile__img--hover' : 'tile__img'
  if (!path) {
    return hover ? null : (
      <img className={cls} src={PLACEHOLDER_IMAGE} alt={alt} width={width} height={height} />
    )
  }
  const { src, srcSet } = tileImage(path)
  if (eager && !hover) {
    return (
      <img
        className={cls}
        src={src}
        srcSet={srcSet}
        sizes={TILE_SIZES_ATTR}
        alt={alt}
        width={width}
        height={height}
        fetchPriority="high"
        data-fallback={PLACEHOLDER_IMAGE}
      />
    )
  }
  return (
    <img
      className={cls}
      src={PLACEHOLDER_IMAGE}
      data-src={src}
      data-srcset={srcSet}
      sizes={TILE_SIZES_ATTR}
      alt={hover ? '' : alt}
      width={width}
      height={height}
      decoding="async"
      data-lazy={hover ? 'hover' : 'main'}
    />
  )
}

/** The colours the product comes in, as dots (the shown variant's ringed), named for screen readers. */
function TileSwatches({ colors, shown }: { colors: NonNullable<TileData['colors']>; shown?: number }) {
  return (
    <p className="tile__swatches" data-testid="tile-swatches">
      <span className="visually-hidden">{`${MSG.tileColours} ${colors.map((c) => c.label).join(', ')}`}</span>
      {colors.map((c) => (
        <span
          key={c.id}
          aria-hidden="true"
          title={c.label}
          className={c.id === shown ? 'tile__swatch tile__swatch--shown' : 'tile__swatch'}
          style={c.swatch ? { background: c.swatch } : undefined}
        />
      ))}
    </p>
  )
}

export function ProductTile({ tile, currency, eager = false, pricesLoading = false }: ProductTileProps) {
  return (
    <article
      className="tile"
      data-sku={tile.sku}
      data-testid="product-tile"
      data-international={tile.international ? '' : undefined}
      data-shown-color={tile.shownColor}
    >
      <a href={tile.url} className="tile__link" data-tile-sku={tile.sku}>
        <div className="tile__media">
          {/* The picture's alt text is empty: the name inside the same link already names it, and
              a screen reader would otherwise read the name twice (axe: image-redundant-alt). */}
          <TileImage path={tile.image} alt="" eager={eager} />
          <TileImage path={tile.hoverImage} alt="" eager={eager} hover />
          {/* Text in one piece and no empty wrappers: fewer nodes for the page to build and lay out. */}
          {tile.sale || tile.isNew ? (
            <div className="tile__labels">
              {tile.sale ? <span className="tile__label tile__label--sale">Sale</span> : null}
              {tile.isNew ? <span className="tile__label tile__label--new">New</span> : null}
            </div>
          ) : null}
        </div>
        {tile.designer ? <p className="tile__designer">{tile.designer}</p> : null}
        {tile.colors ? <TileSwatches colors={tile.colors} shown={tile.shownColor} /> : null}
        <h3 className="tile__name" data-testid="tile-name">
          {tile.name}
        </h3>
      </a>
      {!tile.inStock ? (
        <button
          type="button"
          className="tile__interest"
          data-show-interest=""
          data-product-url={tile.url}
          data-product-name={tile.name}
        >
          {MSG.showInterest}
        </button>
      ) : pricesLoading ? (
        <p className="tile__price tile__price--loading" aria-busy="true">
          <span className="skeleton">Loading price…</span>
        </p>
      ) : (
        <TilePrice tile={tile} currency={currency} />
      )}
      {tile.rating ? <StarRating rating={tile.rating} compact /> : null}
      {tile.readyToShip ? <p className="tile__rts">Ready to ship</p> : null}
    </article>
  )
}
