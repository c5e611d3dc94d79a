/**
 * The demo catalogue's shape and the fixed dates and attribute ids every part of the generator
 * shares (see generate.ts).
 */
import type {
  Attribute,
  Category,
  CmsBlock,
  CmsPage,
  Product,
  Review,
  StoreLocation,
  TaxRule,
} from '../../../shared/schemas/catalog'
import type { UrlMapping } from '../../../worker/catalog/url-map'

/** The fixed generation date; special-price windows and "new" flags are relative to it. */
export const GENERATED_AT = '2026-01-01 00:00:00'
/** Special-price windows: wide enough that 'present' stays present for years. */
export const WINDOWS = {
  past: { from: '2019-01-01 00:00:00', to: '2019-12-31 23:59:59' },
  present: { from: '2020-01-01 00:00:00', to: '2035-12-31 23:59:59' },
  future: { from: '2036-01-01 00:00:00', to: '2037-12-31 23:59:59' },
} as const

export const ATTRIBUTE_IDS = {
  color: 93,
  size: 142,
  gender: 150,
  designer: 160,
  rts: 170,
  discount: 180,
  category_product: 190,
} as const

import type { DemoCoupon } from './coupons'

export interface InventorySeedRow {
  sku: string
  product_id: number
  parent_sku: string | null
  qty: number
  is_in_stock: boolean
}

export interface Catalogue {
  generatedAt: string
  products: Product[]
  inventory: InventorySeedRow[]
  /** Flat list (children_data empty; the tree is rebuilt from parent_id). */
  categories: Category[]
  attributes: Attribute[]
  taxRules: TaxRule[]
  cmsPages: CmsPage[]
  cmsBlocks: CmsBlock[]
  stores: StoreLocation[]
  reviews: Review[]
  /** Singleton content documents by kind: home, common-config, otw. */
  content: Record<string, unknown>
  sizeGuides: Array<{ id: number; code: string; doc: Record<string, unknown> }>
  searchContent: Array<{ term: string; doc: Record<string, unknown> }>
  urlMappings: Array<[string, UrlMapping]>
  /** Demo coupons (only the generated demo catalogue has them). */
  coupons?: readonly DemoCoupon[]
}

export interface GenerateOptions {
  seed?: number
  /** Number of configurable apparel products (default 300). */
  scale?: number
}
