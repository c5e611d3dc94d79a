/** Checker of TileData for island props (island props are validated on hydration; see props-check). */
import type { TileData } from '@shared/components/catalog/tile-data'
import { bool, type Check, nullable, num, object, str } from '../props-check'

export const checkTile: Check<TileData> = object({
  id: num,
  sku: str,
  name: str,
  url: str,
  image: nullable(str),
  hoverImage: nullable(str),
  designer: nullable(str),
  finalPrice: num,
  regularPrice: num,
  discountPercent: num,
  sale: bool,
  isNew: bool,
  readyToShip: bool,
  inStock: bool,
  international: bool,
})
