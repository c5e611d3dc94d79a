/**
 * The palette the image route draws with: garment silhouettes and the colour attribute's options
 * (attribute 93) with their swatch codes. The demo-catalogue generator picks its products' colours
 * and silhouettes from here, so every generated image URL names a drawable garment.
 */

/** Garment silhouettes the image route can draw. */
export type Silhouette =
  | 'saree'
  | 'lehenga'
  | 'kurta'
  | 'dress'
  | 'shirt'
  | 'jacket'
  | 'anarkali'
  | 'sherwani'
  | 'tee'
  | 'bag'
  | 'jewel'
  | 'voucher'
  | 'book'

export const SILHOUETTES: readonly Silhouette[] = [
  'saree',
  'lehenga',
  'kurta',
  'dress',
  'shirt',
  'jacket',
  'anarkali',
  'sherwani',
  'tee',
  'bag',
  'jewel',
  'voucher',
  'book',
]

/** Fabric surfaces drawn over a garment (one per textile craft; 'plain' is a woven ground). */
export type Textile =
  | 'plain'
  | 'bandhani'
  | 'ikat'
  | 'block'
  | 'zari'
  | 'chikankari'
  | 'brocade'
  | 'tweed'
  | 'quilted'

export const TEXTILES: readonly Textile[] = [
  'plain',
  'bandhani',
  'ikat',
  'block',
  'zari',
  'chikankari',
  'brocade',
  'tweed',
  'quilted',
]

/**
 * The views of a product image: front (no suffix in the path), back, detail (a close crop of the
 * fabric) and on figure (the garment on a dress form).
 */
export type View = 'front' | 'back' | 'detail' | 'figure'
export const VIEW_SUFFIX: Readonly<Record<View, string>> = { front: '', back: 'b', detail: 'd', figure: 'f' }

export interface ColorDef {
  id: number
  label: string
  slug: string
  hex: string
}

/** Colour attribute options (attribute 93), with swatch codes. */
export const COLORS: readonly ColorDef[] = [
  { id: 49, label: 'Black', slug: 'black', hex: '#000000' },
  { id: 50, label: 'White', slug: 'white', hex: '#ffffff' },
  { id: 51, label: 'Red', slug: 'red', hex: '#c62828' },
  { id: 52, label: 'Maroon', slug: 'maroon', hex: '#800000' },
  { id: 53, label: 'Pink', slug: 'pink', hex: '#f48fb1' },
  { id: 54, label: 'Fuchsia', slug: 'fuchsia', hex: '#d81b60' },
  { id: 55, label: 'Orange', slug: 'orange', hex: '#ef6c00' },
  { id: 56, label: 'Mustard', slug: 'mustard', hex: '#e1ad01' },
  { id: 57, label: 'Green', slug: 'green', hex: '#2e7d32' },
  { id: 58, label: 'Teal', slug: 'teal', hex: '#00897b' },
  { id: 59, label: 'Blue', slug: 'blue', hex: '#1565c0' },
  { id: 60, label: 'Navy', slug: 'navy', hex: '#1a237e' },
  { id: 61, label: 'Purple', slug: 'purple', hex: '#6a1b9a' },
  { id: 62, label: 'Ivory', slug: 'ivory', hex: '#fffff0' },
  { id: 63, label: 'Gold', slug: 'gold', hex: '#d4af37' },
  { id: 64, label: 'Peach', slug: 'peach', hex: '#ffcba4' },
  { id: 65, label: 'Wine', slug: 'wine', hex: '#722f37' },
  { id: 66, label: 'Beige', slug: 'beige', hex: '#f5f5dc' },
]
