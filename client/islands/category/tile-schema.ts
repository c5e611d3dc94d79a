/** zod/mini schema of TileData for island props (hydration validation, CONVENTIONS 4). */
import * as z from 'zod/mini'

export const TileSchema = z.object({
  id: z.number(),
  sku: z.string(),
  name: z.string(),
  url: z.string(),
  image: z.nullable(z.string()),
  hoverImage: z.nullable(z.string()),
  designer: z.nullable(z.string()),
  finalPrice: z.number(),
  regularPrice: z.number(),
  discountPercent: z.number(),
  sale: z.boolean(),
  isNew: z.boolean(),
  readyToShip: z.boolean(),
  inStock: z.boolean(),
  international: z.boolean(),
})
