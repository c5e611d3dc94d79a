// Catalogue pieces the product-page and cart-line tests share (pure: no worker bindings): the
// simple product "Silk Saree" as the catalogue stores it, its colour option red/blue and size
// option S/M, a grouped link.

/** A configurable product's option on an attribute, its values as [value index, label] pairs. */
const option = (attribute_code: string, attribute_id: number, label: string, values: [number, string][]) => ({
  attribute_code,
  attribute_id,
  label,
  values: values.map(([value_index, label]) => ({ value_index, label })),
})

/** The colour option (attribute 93) with values Red (49) and Blue (50). */
export const COLOR_RED_BLUE = option('color', 93, 'Color', [
  [49, 'Red'],
  [50, 'Blue'],
])

/** The size option (attribute 142) with values S (1) and M (2). */
export const SIZE_S_M = option('size', 142, 'Size', [
  [1, 'S'],
  [2, 'M'],
])

/** A visible, enabled, in-stock simple product of ₹1,000 (sku P1), before schema parsing. */
export const SILK_SAREE = {
  id: 1,
  sku: 'P1',
  name: 'Silk Saree',
  type_id: 'simple',
  price: 1000,
  status: 1,
  visibility: 4,
  created_at: '2026-01-01 00:00:00',
  updated_at: '2026-01-01 00:00:00',
  url_key: 'silk-saree',
  url_path: 'sarees/silk-saree',
  slug: 'silk-saree',
  stock: { qty: 5, is_in_stock: true, stock_status: 1 },
}

/** A search document of a visible, enabled simple product `id` (sku P<id>), with `extra` over it. */
export function simpleDoc(id: number, extra: Record<string, unknown>) {
  return { id, sku: `P${id}`, name: `Product ${id}`, type_id: 'simple', visibility: 4, status: 1, ...extra }
}

/** A grouped product's link to its associated simple product Necklace (sku G1, ₹500). */
export const NECKLACE_LINK = {
  sku: 'P1',
  link_type: 'associated',
  linked_product_sku: 'G1',
  linked_product_type: 'simple',
  product: { name: 'Necklace', price: 500, sku: 'G1' },
}
