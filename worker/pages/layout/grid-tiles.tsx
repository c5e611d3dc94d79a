/**
 * A listing grid's tiles and their markup, kept by the objects they come from (tiles.ts): the
 * category page's products are the frozen objects the search engine answers with, so its tiles
 * and their markup are worked out once, like the home rails', and again only when a product, its
 * stock, the tax rules, the country, the colour filter, the currency or a special price's window
 * says so.
 */
import { gridTileIsEager } from '@shared/components/catalog/listing-view'
import { ProductTile } from '@shared/components/catalog/product-tile'
import { type TileContext, type TileData, visibleTiles } from '@shared/components/catalog/tile-data'
import type { TilePricing } from '@shared/components/catalog/tile-price'
import type { Product } from '@shared/schemas/catalog'
import { renderToString } from 'react-dom/server.node'
import { productTile, tileMarkup } from './tiles'

/** The tiles of `products` shown in `currency` (international products only in INR), kept ones where exact. */
export function gridTiles(
  products: readonly Product[],
  now: number,
  pricing: TilePricing,
  context: TileContext,
  currency: string,
): TileData[] {
  return visibleTiles(
    products.map((p) => productTile(p, now, pricing, context)),
    currency,
  )
}

/**
 * The markup of the grid's tiles past its first row, by tile (what `KeptTileMarkup` hands the
 * grid): their images load lazily, as the home rails' do, so it is the same markup. Each is
 * rendered on its own before the page is (React's renderer is not entered twice at once) and kept
 * by its tile, configuration (currency rates) and currency. The first row is rendered in place.
 */
export function gridMarkup(
  tiles: readonly TileData[],
  currency: string,
  config: object,
): Map<TileData, string> {
  const out = new Map<TileData, string>()
  tiles.forEach((tile, i) => {
    if (gridTileIsEager(i)) return
    out.set(
      tile,
      tileMarkup(tile, currency, config, () =>
        renderToString(<ProductTile tile={tile} currency={currency} />),
      ),
    )
  })
  return out
}
