/** Checker of TileData for island props (island props are validated on hydration; see props-check). */
import type { TileData } from '@shared/components/catalog/tile-data'
import { array, bool, type Check, nullable, num, object, optional, str } from '../props-check'

export const checkTile: Check<TileData> = object({
  id: num,
  sku: str,
  name: str,
  url: str,
  image: nullable(str),
  hoverImage: nullable(str),
  designer: nullable(str),
  finalPrice: num,
  from: optional(bool),
  regularPrice: num,
  discountPercent: num,
  sale: bool,
  isNew: bool,
  readyToShip: bool,
  inStock: bool,
  international: bool,
  colors: optional(array(object({ id: num, label: str, swatch: nullable(str) }))),
  shownColor: optional(num),
  rating: optional(object({ average: num, count: num })),
})
