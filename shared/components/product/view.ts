/**
 * The product page's view model: the subset of a Product document the product form island needs
 * (prices, stock, variants, options, links, delivery), picked on the server so island props stay
 * small, plus custom-attribute rows (label + value; select values as option
 * labels joined by commas; an empty value shows a placeholder).
 */
import type { Attribute, ConfigurableChild, Product } from '../../schemas/catalog'

/**
 * The stock fields the form needs to apply the one sellable rule (shared/domain/availability) in
 * the browser: quantity and flags, plus Magento's settings only where they differ from the
 * defaults (counted, no backorders).
 */
function sellableStockFields(
  stock:
    | {
        qty?: number
        is_in_stock?: boolean
        stock_status?: number | null
        manage_stock?: unknown
        backorders?: unknown
      }
    | null
    | undefined,
): {
  qty: number
  is_in_stock: boolean
  stock_status?: number | null
  manage_stock?: boolean
  backorders?: number
} {
  return {
    qty: stock?.qty ?? 0,
    is_in_stock: stock?.is_in_stock ?? false,
    stock_status: stock?.stock_status,
    ...(stock?.manage_stock === false ? { manage_stock: false } : {}),
    ...(typeof stock?.backorders === 'number' && stock.backorders > 0
      ? { backorders: stock.backorders }
      : {}),
  }
}

type FormStock = ReturnType<typeof sellableStockFields>

export interface FormChild {
  sku: string
  id: number
  name?: string | null
  price: number
  special_price?: number | null
  special_from_date?: string | null
  special_to_date?: string | null
  image?: string | null
  color?: number | null
  size?: number | null
  rts_qty?: number | null
  status: number
  stock: FormStock
  /** Variant attributes are read by code (shared/domain/variants). */
  [attribute: string]: unknown
}

export interface FormProduct {
  id: number
  sku: string
  parent_id?: number | null
  name: string
  type_id: Product['type_id']
  slug: string
  url_path: string
  price: number
  special_price?: number | null
  special_from_date?: string | null
  special_to_date?: string | null
  tax_class_id?: number | null
  hsn_code?: string | null
  status: number
  visibility: number
  stock: FormStock
  image?: string | null
  delivery_days?: number | null
  rts_qty?: number | null
  rts_delivery_time?: string | null
  rts_disclaimer?: string | null
  configurable_options: Product['configurable_options']
  configurable_children: FormChild[]
  custom_options: Product['custom_options']
  bundle_options: Product['bundle_options']
  product_links: Product['product_links']
}

function pickChild(c: ConfigurableChild): FormChild {
  return {
    sku: c.sku,
    id: c.id,
    name: c.name ?? null,
    price: c.price,
    special_price: c.special_price ?? null,
    special_from_date: c.special_from_date ?? null,
    special_to_date: c.special_to_date ?? null,
    image: c.image ?? null,
    color: c.color ?? null,
    size: c.size ?? null,
    rts_qty: c.rts_qty ?? null,
    status: c.status ?? 1,
    stock: sellableStockFields(c.stock),
  }
}

/** Picks the fields the product form needs from a product document. */
export function toFormProduct(p: Product): FormProduct {
  return {
    id: p.id,
    sku: p.sku,
    parent_id: p.parent_id ?? null,
    name: p.name,
    type_id: p.type_id,
    slug: p.slug,
    url_path: p.url_path,
    price: p.price,
    special_price: p.special_price ?? null,
    special_from_date: p.special_from_date ?? null,
    special_to_date: p.special_to_date ?? null,
    tax_class_id: p.tax_class_id ?? null,
    hsn_code: p.hsn_code ?? null,
    status: p.status,
    visibility: p.visibility,
    stock: sellableStockFields(p.stock),
    image: p.image ?? null,
    delivery_days: p.delivery_days ?? null,
    rts_qty: p.rts_qty ?? null,
    rts_delivery_time: p.rts_delivery_time ?? null,
    rts_disclaimer: p.rts_disclaimer ?? null,
    configurable_options: p.configurable_options,
    configurable_children: p.configurable_children.map(pickChild),
    custom_options: p.custom_options,
    bundle_options: p.bundle_options,
    product_links: p.product_links,
  }
}

export interface AttributeRow {
  code: string
  label: string
  value: string
}

/** Attribute codes never listed as custom attributes (shown elsewhere on the page, or internal). */
const NOT_LISTED = new Set([
  'name',
  'sku',
  'price',
  'special_price',
  'description',
  'short_description',
  'meta_title',
  'meta_description',
  'url_key',
  'status',
  'visibility',
  'designer',
  'category_ids',
])

function isEmptyValue(v: unknown): boolean {
  return v == null || v === '' || (Array.isArray(v) && v.length === 0)
}

/** A product's value for an attribute: the document field, else its custom_attributes entry. */
export function attributeValue(product: Record<string, unknown>, code: string): unknown {
  if (code in product && !isEmptyValue(product[code])) return product[code]
  const custom = product.custom_attributes
  if (Array.isArray(custom)) {
    const hit = custom.find(
      (a) => a && typeof a === 'object' && (a as { attribute_code?: unknown }).attribute_code === code,
    )
    if (hit) return (hit as { value?: unknown }).value
  } else if (custom && typeof custom === 'object') {
    return (custom as Record<string, unknown>)[code]
  }
  return product[code]
}

/** Formats an attribute value: select/multiselect ids become option labels joined by ', '; empty → placeholder. */
export function formatAttributeValue(attribute: Attribute, value: unknown, placeholder: string): string {
  if (isEmptyValue(value)) return placeholder
  const input = attribute.frontend_input
  if (input === 'select' || input === 'multiselect') {
    const ids = Array.isArray(value)
      ? value.map(String)
      : String(value)
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
    const labels = ids.map((id) => attribute.options.find((o) => String(o.value) === id)?.label ?? null)
    const known = labels.filter((l): l is string => !!l)
    return known.length ? known.join(', ') : placeholder
  }
  if (input === 'boolean') return value === true || value === 1 || value === '1' ? 'Yes' : 'No'
  if (Array.isArray(value)) return value.map(String).join(', ')
  if (typeof value === 'object') return placeholder
  return String(value)
}

/** The attribute's display label. */
export function attributeLabel(a: Attribute): string {
  return a.frontend_label || a.default_frontend_label || a.attribute_code
}

/**
 * Custom attribute rows of the product page: user-defined attributes visible on the front (not the
 * variant attributes, which the picker shows), in attribute order, empty values as `placeholder`.
 */
export function customAttributeRows(
  product: Product,
  attributes: readonly Attribute[],
  placeholder: string,
): AttributeRow[] {
  const variantCodes = new Set(product.configurable_options.map((o) => o.attribute_code))
  const doc = product as Record<string, unknown>
  return attributes
    .filter((a) => a.is_visible_on_front && a.is_user_defined && !variantCodes.has(a.attribute_code))
    .filter((a) => !NOT_LISTED.has(a.attribute_code))
    .map((a) => ({
      code: a.attribute_code,
      label: attributeLabel(a),
      value: formatAttributeValue(a, attributeValue(doc, a.attribute_code), placeholder),
    }))
}

/** The designer's name: designer_name, else the designer attribute's option label. */
export function designerName(product: Product, attributes: readonly Attribute[]): string | null {
  if (product.designer_name) return product.designer_name
  if (product.designer == null) return null
  const attr = attributes.find((a) => a.attribute_code === 'designer')
  return attr?.options.find((o) => String(o.value) === String(product.designer))?.label ?? null
}

/** Raw values of the comparable attributes (is_comparable), for the compare page. */
export function comparableValues(
  product: Product,
  attributes: readonly Attribute[],
): Record<string, unknown> {
  const doc = product as Record<string, unknown>
  const out: Record<string, unknown> = {}
  for (const a of attributes) {
    if (!a.is_comparable || a.frontend_input === 'textarea') continue
    const v = attributeValue(doc, a.attribute_code)
    if (!isEmptyValue(v) && (typeof v !== 'object' || Array.isArray(v))) out[a.attribute_code] = v
  }
  return out
}
