// Catalogue pieces the product-page and cart-line tests share (pure: no worker bindings): the
// simple product "Silk Saree" as the catalogue stores it, its size option S/M, a grouped link.

/** The size option (attribute 142) with values S (1) and M (2). */
export const SIZE_S_M = {
  attribute_code: 'size',
  attribute_id: 142,
  label: 'Size',
  values: [
    { value_index: 1, label: 'S' },
    { value_index: 2, label: 'M' },
  ],
}

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
