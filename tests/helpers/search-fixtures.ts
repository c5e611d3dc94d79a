// Small hand-made product catalogue for the search engine tests (inserted through the same
// statements the seeder uses, so the index is built exactly as in production).
import { env } from 'cloudflare:test'
import {
  inventoryFromProduct,
  inventoryStatement,
  PRODUCT_TABLES,
  productStatements,
} from '../../scripts/catalogue/seed/write'
import { catalogSearchQuery, listingSearchRequest } from '../../shared/components/catalog/listing-query'
import { DEFAULT_SORT } from '../../shared/config/catalog'
import type { Aggregations, ChosenFilters } from '../../shared/domain/filters'
import type { Product } from '../../shared/schemas/catalog'

interface Spec {
  id: number
  sku: string
  name: string
  type?: 'simple' | 'configurable'
  color?: number
  colors?: number[]
  sizes?: number[]
  cats: [number, string][]
  price: number
  final?: number
  visibility?: number
  status?: number
  created: string
  position?: number
  inStock?: boolean
  qty?: number
}

function product(s: Spec): Product {
  const type = s.type ?? 'simple'
  const children =
    type === 'configurable'
      ? (s.colors ?? []).flatMap((c, i) =>
          (s.sizes ?? [10]).map((size, j) => ({
            sku: `${s.sku}-${c}-${size}`,
            id: s.id * 100 + i * 10 + j,
            price: s.price,
            final_price: s.final ?? s.price,
            color: c,
            size,
            status: 1,
            stock: { qty: s.qty ?? 5, is_in_stock: s.inStock !== false },
          })),
        )
      : []
  return {
    id: s.id,
    sku: s.sku,
    name: s.name,
    type_id: type,
    price: s.price,
    final_price: s.final ?? s.price,
    status: s.status ?? 1,
    visibility: s.visibility ?? 4,
    created_at: s.created,
    updated_at: s.created,
    url_key: s.sku.toLowerCase(),
    url_path: `p/${s.sku.toLowerCase()}`,
    slug: s.sku.toLowerCase(),
    color: s.color ?? null,
    color_options: type === 'configurable' ? (s.colors ?? []) : null,
    size_options: type === 'configurable' ? (s.sizes ?? []) : null,
    category: s.cats.map(([category_id, name]) => ({ category_id, name })),
    category_ids: s.cats.map(([id]) => id),
    position: s.position ?? s.id,
    description: `A long description of ${s.name}`,
    stock: { qty: s.qty ?? 5, is_in_stock: s.inStock !== false },
    media_gallery: [],
    tier_prices: [],
    product_links: [],
    configurable_options: [],
    configurable_children: children,
    custom_options: [],
    bundle_options: [],
  } as unknown as Product
}

const SAREES: [number, string] = [20, 'Sarees']
const WOMEN: [number, string] = [21, 'Women']
const KURTAS: [number, string] = [22, 'Kurtas']
const LEHENGAS: [number, string] = [23, 'Lehengas']

export const FIXTURE_PRODUCTS: Product[] = [
  product({
    id: 1,
    sku: 'SAR-001',
    name: 'Ruby Silk Saree',
    type: 'configurable',
    color: 49,
    colors: [49, 50],
    sizes: [10, 11],
    cats: [SAREES, WOMEN],
    price: 100,
    final: 80,
    created: '2026-01-05 10:00:00',
  }),
  product({
    id: 2,
    sku: 'KUR-002',
    name: 'Emerald Kurta',
    type: 'configurable',
    color: 50,
    colors: [50, 51],
    sizes: [10],
    cats: [KURTAS, WOMEN],
    price: 40,
    created: '2026-01-02 10:00:00',
  }),
  product({
    id: 3,
    sku: 'LEH-003',
    name: 'Ivory Lehenga Set',
    type: 'configurable',
    color: 52,
    colors: [52, 49],
    sizes: [11],
    cats: [LEHENGAS, WOMEN],
    price: 150,
    final: 120,
    created: '2026-01-09 10:00:00',
  }),
  product({
    id: 4,
    sku: 'SHI-004',
    name: 'Classic Shirt',
    color: 49,
    cats: [
      [24, 'Shirts'],
      [25, 'Men'],
    ],
    price: 30,
    visibility: 2,
    created: '2026-01-01 10:00:00',
  }),
  product({
    id: 5,
    sku: 'KUR-005',
    name: 'Hidden Kurta',
    color: 49,
    cats: [KURTAS],
    price: 45,
    visibility: 1,
    created: '2026-01-03 10:00:00',
  }),
  product({
    id: 6,
    sku: 'SAR-006',
    name: 'Disabled Saree',
    color: 49,
    cats: [SAREES],
    price: 60,
    status: 2,
    created: '2026-01-04 10:00:00',
  }),
  product({
    id: 7,
    sku: 'JAC-007',
    name: 'Denim Jacket',
    color: 53,
    cats: [[26, 'Jackets']],
    price: 200,
    created: '2026-01-07 10:00:00',
    inStock: false,
    qty: 0,
  }),
  product({
    id: 8,
    sku: 'KURTA',
    name: 'Plain Dress',
    color: 53,
    cats: [[27, 'Dresses']],
    price: 55,
    created: '2026-01-06 10:00:00',
  }),
  product({
    id: 9,
    sku: 'FES-009',
    name: 'Festive Set',
    color: 51,
    cats: [KURTAS],
    price: 75,
    created: '2026-01-08 10:00:00',
  }),
  product({
    id: 10,
    sku: 'KUR-010',
    name: 'Cotton Kurta',
    color: 50,
    cats: [[28, 'Basics']],
    price: 25,
    created: '2026-01-10 10:00:00',
  }),
  product({
    id: 11,
    sku: 'LEH-011',
    name: 'Bridal Lehenga',
    type: 'configurable',
    color: 49,
    colors: [49],
    sizes: [10, 11],
    cats: [LEHENGAS],
    price: 500,
    final: 450,
    created: '2026-01-11 10:00:00',
  }),
  product({
    id: 12,
    sku: 'SAR-012',
    name: 'Chanderi Saree',
    color: 54,
    cats: [SAREES, WOMEN],
    price: 95,
    created: '2026-01-12 10:00:00',
  }),
]

/** Replaces the seeded demo products with the fixture products (products, inventory, search index). */
export async function seedSearchFixtures(products: Product[] = FIXTURE_PRODUCTS): Promise<void> {
  const clear = PRODUCT_TABLES.map((t) => env.DB.prepare(`DELETE FROM ${t}`))
  const stmts = products.flatMap((p) => [
    ...productStatements(env.DB, p),
    ...inventoryFromProduct(p).map((r) => inventoryStatement(env.DB, r)),
  ])
  await env.DB.batch([...clear, ...stmts])
}

/** GETs /api/catalog/... with the DSL in ?request= and returns status + JSON. */
export async function searchGet(
  entity: string,
  body: unknown,
  params: Record<string, string> = {},
  index = 'vue_storefront_catalog',
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
): Promise<{ status: number; json: any }> {
  const { SELF } = await import('cloudflare:test')
  const qs = new URLSearchParams(params)
  if (body !== undefined) qs.set('request', typeof body === 'string' ? body : JSON.stringify(body))
  const res = await SELF.fetch(`https://shop.test/api/catalog/${index}/${entity}/_search?${qs}`)
  return { status: res.status, json: await res.json() }
}

/**
 * One page of the listing of `categoryIds` with `chosen` filters, asked as the listing island asks
 * (its request, its query string), by a shopper sending `headers`; a 200 is expected.
 */
export async function listingPage(
  categoryIds: number[],
  chosen: ChosenFilters,
  from: number,
  size: number,
  headers: Record<string, string>,
): Promise<{ hits: { total: number; hits: { _source: { sku: string } }[] }; aggregations: Aggregations }> {
  const { SELF } = await import('cloudflare:test')
  const { path, query } = catalogSearchQuery(
    listingSearchRequest(categoryIds, { chosen, sort: DEFAULT_SORT }, from, size),
  )
  const qs = new URLSearchParams()
  for (const [k, v] of Object.entries(query)) if (v !== undefined) qs.set(k, String(v))
  const res = await SELF.fetch(`https://shop.test${path}?${qs}`, { headers })
  if (res.status !== 200) throw new Error(`listing answered ${res.status}: ${await res.text()}`)
  return res.json()
}

export async function searchPost(entity: string, body: unknown, params: Record<string, string> = {}) {
  const { SELF } = await import('cloudflare:test')
  const qs = new URLSearchParams(params)
  const res = await SELF.fetch(
    `https://shop.test/api/catalog/vue_storefront_catalog/${entity}/_search?${qs}`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    },
  )
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
  return { status: res.status, json: (await res.json()) as any }
}

/** The fields of a stored product document the facet tests count by. */
export interface StoredDoc {
  id: number
  status?: number
  visibility?: number
  category_ids?: number[]
  color_options?: number[] | null
  size_options?: number[]
}

/** Every stored product document, as written. */
export async function storedDocs(): Promise<StoredDoc[]> {
  const { results } = await env.DB.prepare('SELECT doc FROM products').all<{ doc: string }>()
  return results.map((r) => JSON.parse(r.doc) as StoredDoc)
}

/** Whether the shop lists a document (SHOP_LISTED; an absent value is the shop's default). */
export function listedDoc(d: StoredDoc): boolean {
  return [2, 3, 4].includes(d.visibility ?? 4) && [0, 1].includes(d.status ?? 1)
}

/** Ids of the hits, in order. */
export function ids(json: { hits: { hits: { _id: string }[] } }): number[] {
  return json.hits.hits.map((h) => Number(h._id))
}
