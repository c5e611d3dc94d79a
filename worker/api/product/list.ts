/**
 * GET /api/product/list?skus=a,b (at most 100): the platform's product records for those skus, in
 * the shape Magento's product search answers and vue-storefront-api passes through:
 * `{items, search_criteria, total_count}`. A configurable child's sku answers that variant as a
 * simple product (its own price, stock and attributes over the parent's). Unknown and disabled
 * skus are left out. Prices are the stored catalogue prices.
 */
import type { ConfigurableChild, Product } from '@shared/schemas/catalog'
import { z } from 'zod'
import { getProductsBySku } from '../../catalog/products'
import { skuListParam } from '../../platform/http'

export const ProductListQuery = z.object({ skus: skuListParam(100) })

/** Document fields Magento keeps as custom attributes of a product record. */
const CUSTOM_ATTRIBUTES = [
  'special_price',
  'special_from_date',
  'special_to_date',
  'url_key',
  'url_path',
  'image',
  'small_image',
  'thumbnail',
  'tax_class_id',
  'hsn_code',
  'description',
  'short_description',
  'meta_title',
  'meta_description',
  'color',
  'size',
] as const

function record(doc: Record<string, unknown>) {
  const stock = (doc.stock ?? {}) as { qty?: number; is_in_stock?: boolean }
  return {
    id: doc.id,
    sku: doc.sku,
    name: doc.name,
    attribute_set_id: doc.attribute_set_id ?? 4,
    price: doc.price ?? 0,
    status: doc.status ?? 1,
    visibility: doc.visibility ?? 4,
    type_id: doc.type_id,
    created_at: doc.created_at ?? null,
    updated_at: doc.updated_at ?? null,
    weight: doc.weight ?? 0,
    extension_attributes: {
      website_ids: [1],
      category_links: ((doc.category_ids ?? []) as unknown[]).map((id, position) => ({
        position,
        category_id: String(id),
      })),
      stock_item: { qty: stock.qty ?? 0, is_in_stock: stock.is_in_stock === true },
    },
    product_links: [],
    options: [],
    media_gallery_entries: [],
    tier_prices: [],
    custom_attributes: CUSTOM_ATTRIBUTES.flatMap((code) =>
      doc[code] === undefined || doc[code] === null ? [] : [{ attribute_code: code, value: doc[code] }],
    ),
  }
}

/** The product records of the listed skus the catalogue has, in the order asked. */
export async function productList(db: D1Database, skus: string[]) {
  const found = await getProductsBySku(db, skus)
  const items = skus.flatMap((sku) => {
    const hit = found.get(sku)
    if (!hit || hit.product.status >= 2) return []
    if (!hit.child) return [record(hit.product as unknown as Record<string, unknown>)]
    const child: ConfigurableChild = hit.child
    if ((child.status ?? 1) >= 2) return []
    const variant = { ...hit.product, ...child, type_id: 'simple', visibility: 1 } as unknown as Product
    return [record(variant as unknown as Record<string, unknown>)]
  })
  return {
    items,
    search_criteria: {
      filter_groups: [{ filters: [{ field: 'sku', value: skus.join(','), condition_type: 'in' }] }],
    },
    total_count: items.length,
  }
}
