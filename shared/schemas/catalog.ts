/**
 * Catalogue entities (products, categories, attributes, reviews, CMS), as zod schemas with their inferred types. Objects are
 * loose: vue-storefront-api documents carry many more fields, which pass through untouched.
 */
import { z } from 'zod'

const num = z.number()
/** An HSN code: 4, 6 or 8 digits (the importer turns a number into its digits). */
const HsnCodeSchema = z.string().regex(/^\d{4}(?:\d{2}){0,2}$/, 'an HSN code is 4, 6 or 8 digits')
const optNum = z.number().nullish()
const optStr = z.string().nullish()
/** VSF flags arrive as '1'/'0', 1/0 or booleans. */
const flag = z.union([z.string(), z.number(), z.boolean()]).nullish()

const StockSchema = z.looseObject({
  qty: z.number().default(0),
  is_in_stock: z.boolean().default(false),
  stock_status: z.number().nullish(),
})

const MediaEntrySchema = z.looseObject({
  image: z.string(),
  /** Optional video (e.g. { video_url, title }). */
  vid: z.unknown().optional(),
  video: z.unknown().optional(),
  lab: optStr,
  pos: optNum,
  typ: optStr,
})

const ConfigurableOptionSchema = z.looseObject({
  attribute_code: z.string(),
  attribute_id: z.union([z.number(), z.string()]),
  label: z.string(),
  position: optNum,
  values: z.array(z.looseObject({ value_index: z.number(), label: z.string() })),
})

const ConfigurableChildSchema = z.looseObject({
  sku: z.string(),
  id: z.number(),
  name: optStr,
  price: num,
  special_price: optNum,
  special_from_date: optStr,
  special_to_date: optStr,
  final_price: optNum,
  image: optStr,
  color: optNum,
  size: optNum,
  rts_qty: optNum,
  status: z.number().default(1),
  stock: StockSchema,
  custom_attributes: z.unknown().optional(),
})
export type ConfigurableChild = z.infer<typeof ConfigurableChildSchema>

const CustomOptionValueSchema = z.looseObject({
  option_type_id: z.number(),
  title: z.string(),
  price: z.number().default(0),
  price_type: z.enum(['fixed', 'percent']).default('fixed'),
  sort_order: optNum,
})
const CustomOptionSchema = z.looseObject({
  option_id: z.number(),
  title: z.string(),
  type: z.enum(['field', 'radio', 'select', 'drop_down', 'checkbox']),
  is_require: z.boolean().default(false),
  price: optNum,
  price_type: z.enum(['fixed', 'percent']).nullish(),
  values: z.array(CustomOptionValueSchema).default([]),
})
export type CustomOption = z.infer<typeof CustomOptionSchema>

const BundleLinkSchema = z.looseObject({
  id: z.number(),
  sku: z.string(),
  qty: z.number().default(1),
  is_default: z.boolean().default(false),
  price: optNum,
  product: z.looseObject({ name: z.string(), price: optNum }).nullish(),
})
const BundleOptionSchema = z.looseObject({
  option_id: z.number(),
  title: z.string(),
  required: z.boolean().default(false),
  type: optStr,
  sku: optStr,
  product_links: z.array(BundleLinkSchema),
})
export type BundleOption = z.infer<typeof BundleOptionSchema>

const ProductLinkSchema = z.looseObject({
  sku: z.string(),
  link_type: z.string(),
  linked_product_sku: z.string(),
  linked_product_type: z.string(),
  position: optNum,
  /** Filled by the backend for grouped products (the associated simple product). */
  product: z.looseObject({ name: z.string(), price: num, sku: z.string() }).nullish(),
})
export type ProductLink = z.infer<typeof ProductLinkSchema>

const ProductTypeSchema = z.enum(['simple', 'configurable', 'grouped', 'bundle', 'virtual', 'downloadable'])

export const ProductSchema = z.looseObject({
  id: z.number(),
  sku: z.string(),
  parent_id: optNum,
  parent_sku: optStr,
  name: z.string(),
  type_id: ProductTypeSchema,
  designer: optNum,
  designer_name: optStr,
  description: optStr,
  short_description: optStr,
  // Prices (INR, excluding tax unless named InclTax).
  price: num,
  special_price: optNum,
  special_from_date: optStr,
  special_to_date: optStr,
  final_price: optNum,
  tax_class_id: optNum,
  /**
   * The goods' HSN code (4, 6 or 8 digits): tax rules may be limited to HSN chapters (GST slabs
   * for apparel, 61–63), and tax documents print it. A configurable's variants share it.
   */
  hsn_code: HsnCodeSchema.nullish(),
  tier_prices: z.array(z.unknown()).default([]),
  // Visibility and state. status 1 enabled, 2 disabled; visibility 1 not visible individually, 2 catalog,
  // 3 search, 4 both.
  status: z.number(),
  visibility: z.number(),
  // When the product was created and last changed ('YYYY-MM-DD HH:MM:SS'); null when an imported
  // export did not say (an undated product sorts last by date and has no sitemap lastmod).
  created_at: z.string().nullable(),
  updated_at: z.string().nullable(),
  // Media and URLs.
  image: optStr,
  thumbnail: optStr,
  small_image: optStr,
  hover_image: optStr,
  media_gallery: z.array(MediaEntrySchema).default([]),
  url_key: z.string(),
  url_path: z.string(),
  slug: z.string(),
  meta_title: optStr,
  meta_description: optStr,
  // Categories and links.
  category: z.array(z.looseObject({ category_id: z.number(), name: z.string(), slug: optStr })).default([]),
  category_ids: z.array(z.number()).default([]),
  product_links: z.array(ProductLinkSchema).default([]),
  // Attributes used for filtering (option ids).
  color: optNum,
  size: optNum,
  gender: optNum,
  rts: optNum,
  discount: optNum,
  category_product: optNum,
  color_options: z.array(z.number()).nullish(),
  size_options: z.array(z.number()).nullish(),
  // Flags and display.
  sale: flag,
  new: flag,
  product_tag: optStr,
  product_banner: optStr,
  celeb_image: optStr,
  international_flag: flag,
  // Delivery.
  delivery_days: optNum,
  rts_qty: optNum,
  rts_delivery_time: optStr,
  rts_disclaimer: optStr,
  stock: StockSchema,
  configurable_options: z.array(ConfigurableOptionSchema).default([]),
  configurable_children: z.array(ConfigurableChildSchema).default([]),
  custom_options: z.array(CustomOptionSchema).default([]),
  bundle_options: z.array(BundleOptionSchema).default([]),
  custom_attributes: z.unknown().optional(),
})
export type Product = z.infer<typeof ProductSchema>

export const CategorySchema: z.ZodType<Category> = z.lazy(() =>
  z.looseObject({
    id: z.number(),
    name: z.string(),
    slug: z.string(),
    display_name: optStr,
    url_key: z.string(),
    url_path: z.string(),
    parent_id: z.number(),
    level: z.number(),
    path: z.string(),
    position: z.number(),
    children_data: z.array(CategorySchema).default([]),
    children_count: z.number().default(0),
    product_count: z.number().default(0),
    is_active: z.boolean(),
    include_in_menu: z.union([z.boolean(), z.number()]),
    description: optStr,
    meta_title: optStr,
    meta_description: optStr,
    route_link: optStr,
    category_banner: optStr,
    custom_image: optStr,
    mobile_image: optStr,
    desktop_image: optStr,
    mp_new_attribute: optNum,
  }),
)
export interface Category {
  id: number
  name: string
  slug: string
  display_name?: string | null
  url_key: string
  url_path: string
  parent_id: number
  level: number
  path: string
  position: number
  children_data: Category[]
  children_count: number
  product_count: number
  is_active: boolean
  include_in_menu: boolean | number
  description?: string | null
  meta_title?: string | null
  meta_description?: string | null
  route_link?: string | null
  category_banner?: string | null
  custom_image?: string | null
  mobile_image?: string | null
  desktop_image?: string | null
  mp_new_attribute?: number | null
  [key: string]: unknown
}

export const AttributeSchema = z.looseObject({
  attribute_id: z.number(),
  attribute_code: z.string(),
  default_frontend_label: z.string(),
  frontend_label: optStr,
  frontend_input: z.string(),
  options: z.array(z.looseObject({ value: z.string(), label: z.string(), swatch: optStr })).default([]),
  is_visible: z.boolean().default(true),
  is_user_defined: z.boolean().default(true),
  is_visible_on_front: z.boolean().default(true),
  is_comparable: z.boolean().default(false),
})
export type Attribute = z.infer<typeof AttributeSchema>

const TaxRateSchema = z.looseObject({
  rate: z.number(),
  code: z.string(),
  tax_country_id: z.string(),
  region_name: optStr,
  tax_region_id: optNum,
  /** A slab: the highest sale value of one piece (without this tax, base currency) the rate applies to. */
  max_value: z.number().positive().nullish(),
})
export const TaxRuleSchema = z.looseObject({
  id: z.number(),
  code: z.string(),
  priority: z.number().default(0),
  product_tax_class_ids: z.array(z.number()),
  customer_tax_class_ids: z.array(z.number()).default([3]),
  /** HSN code prefixes (chapters, headings) the rule is limited to; none = every product of its classes. */
  hsn_prefixes: z.array(z.string().regex(/^\d{2,8}$/, 'an HSN prefix is 2 to 8 digits')).nullish(),
  rates: z.array(TaxRateSchema),
})
export type TaxRule = z.infer<typeof TaxRuleSchema>

export const CmsPageSchema = z.looseObject({
  id: z.number(),
  identifier: z.string(),
  title: z.string(),
  content: z.string(),
  meta_title: optStr,
  meta_description: optStr,
  is_active: z.boolean().default(true),
})
export type CmsPage = z.infer<typeof CmsPageSchema>

export const CmsBlockSchema = z.looseObject({
  id: z.number(),
  identifier: z.string(),
  title: z.string(),
  content: z.string(),
  is_active: z.boolean().default(true),
})
export type CmsBlock = z.infer<typeof CmsBlockSchema>

export const ReviewSchema = z.looseObject({
  id: z.number(),
  product_id: z.number(),
  title: z.string(),
  detail: z.string(),
  nickname: z.string(),
  review_status: z.number(),
  created_at: z.string(),
})
export type Review = z.infer<typeof ReviewSchema>

export const StoreLocationSchema = z.looseObject({
  id: z.number(),
  code: z.string(),
  name: z.string(),
  city: z.string(),
  address: z.array(z.string()),
  phone: optStr,
  email: optStr,
  hours: z.array(z.string()).default([]),
  lat: optNum,
  lng: optNum,
  description: optStr,
})
export type StoreLocation = z.infer<typeof StoreLocationSchema>
