/**
 * Product listing/search for the embedded adapter.
 * Until the search engine (worker/backend/search) is wired in, this evaluates the listing params
 * directly over the products table in JS (fine for the demo catalogue's few hundred products).
 */
import { LISTING_STATUS, LISTING_VISIBILITY, PRICE_RANGES, SEARCH_DEFAULT_SIZE } from '../../../shared/config'
import type { Product } from '../../../shared/schemas/catalog'
import { withInventory } from '../../backend/catalog/products'
import type { AggregationBucket, Aggregations, ProductListing, ProductListingParams } from './types'

function get(obj: unknown, path: string): unknown {
  let cur: unknown = obj
  for (const part of path.split('.')) {
    if (cur === null || cur === undefined) return undefined
    if (Array.isArray(cur)) cur = cur.map((x) => (x as Record<string, unknown>)?.[part])
    else cur = (cur as Record<string, unknown>)[part]
  }
  return cur
}

function values(p: Product, field: string): unknown[] {
  const v = get(p, field)
  if (v === undefined || v === null) return []
  return (Array.isArray(v) ? v.flat() : [v]) as unknown[]
}

const eq = (a: unknown, b: unknown) => a === b || String(a) === String(b)

function textScore(p: Product, text: string): number {
  const q = text.toLowerCase()
  const words = q.split(/\s+/).filter(Boolean)
  const has = (s: unknown) => typeof s === 'string' && words.some((w) => s.toLowerCase().includes(w))
  let score = 0
  if (has(p.name)) score += 4
  if (has(p.sku) || p.configurable_children.some((c) => c.sku.toLowerCase() === q)) score += 2
  if (p.category.some((c) => has(c.name))) score += 1
  return score
}

/** Evaluates a listing request over the products table (JS fallback engine). */
export async function searchProductsEmbedded(
  db: D1Database,
  params: ProductListingParams,
): Promise<ProductListing> {
  const rows = await db
    .prepare(
      `SELECT doc FROM products WHERE visibility IN (${LISTING_VISIBILITY.join(',')}) AND status IN (${LISTING_STATUS.join(',')})`,
    )
    .all<{ doc: string }>()
  let items = await withInventory(
    db,
    rows.results.map((r) => r.doc),
  )
  const matchesAny = (p: Product, field: string, wanted: Array<string | number | boolean>) =>
    values(p, field).some((v) => wanted.some((w) => eq(v, w)))
  if (params.inStockOnly) items = items.filter((p) => p.stock.is_in_stock)
  if (params.categoryIds?.length)
    items = items.filter((p) => matchesAny(p, 'category_ids', params.categoryIds ?? []))
  for (const [field, wanted] of Object.entries(params.terms ?? {})) {
    if (wanted.length) items = items.filter((p) => matchesAny(p, field, wanted))
  }
  // Facets are computed before the attribute/price filters so each shows its own counts.
  const facetBase = items
  for (const [attr, wanted] of Object.entries(params.filters ?? {})) {
    if (!wanted.length) continue
    items = items.filter(
      (p) =>
        matchesAny(p, attr, wanted) ||
        (p.type_id === 'configurable' && matchesAny(p, `${attr}_options`, wanted)),
    )
  }
  const price = params.price
  if (price && (price.from !== undefined || price.to !== undefined)) {
    items = items.filter((p) => {
      const fp = p.final_price ?? p.price
      return (price.from === undefined || fp >= price.from) && (price.to === undefined || fp <= price.to)
    })
  }
  const scores = new Map<Product, number>()
  const text = params.text?.trim()
  if (text) {
    for (const p of items) scores.set(p, textScore(p, text))
    items = items.filter((p) => (scores.get(p) ?? 0) > 0)
  }
  const sort = params.sort ?? (text ? undefined : { field: 'created_at', order: 'desc' as const })
  if (sort) {
    const dir = sort.order === 'asc' ? 1 : -1
    items = [...items].sort((a, b) => {
      const va = get(a, sort.field) as number | string
      const vb = get(b, sort.field) as number | string
      return (va < vb ? -1 : va > vb ? 1 : 0) * dir || a.id - b.id
    })
  } else {
    items = [...items].sort((a, b) => (scores.get(b) ?? 0) - (scores.get(a) ?? 0) || a.id - b.id)
  }

  const aggregations: Aggregations = {}
  for (const attr of params.aggregations ?? []) {
    if (attr === 'price') {
      aggregations.agg_range_price = {
        buckets: PRICE_RANGES.map((r) => {
          const b: AggregationBucket = {
            key: `${r.from.toFixed(1)}-${r.to === undefined ? '*' : r.to.toFixed(1)}`,
            from: r.from,
            doc_count: facetBase.filter((p) => p.price >= r.from && (r.to === undefined || p.price < r.to))
              .length,
          }
          if (r.to !== undefined) b.to = r.to
          return b
        }),
      }
      const fps = items.map((p) => p.final_price ?? p.price)
      aggregations.agg_min_final_price = { value: fps.length ? Math.min(...fps) : null }
      aggregations.agg_max_final_price = { value: fps.length ? Math.max(...fps) : null }
      continue
    }
    const field = attr === 'category' ? 'category_ids' : attr
    for (const [name, f] of [
      [`agg_terms_${attr}`, field],
      [`agg_terms_${attr}_options`, `${attr}_options`],
    ] as const) {
      const counts = new Map<string, { key: string | number; n: number }>()
      for (const p of facetBase) {
        const seen = new Set<string>()
        for (const v of values(p, f)) {
          const k = String(v)
          if (seen.has(k) || (typeof v !== 'number' && typeof v !== 'string')) continue
          seen.add(k)
          const e = counts.get(k) ?? { key: v, n: 0 }
          e.n++
          counts.set(k, e)
        }
      }
      aggregations[name] = {
        buckets: [...counts.values()]
          .sort((a, b) => b.n - a.n || String(a.key).localeCompare(String(b.key)))
          .slice(0, 100)
          .map((e) => ({ key: e.key, doc_count: e.n })),
      }
    }
  }
  const size = params.size && params.size > 0 ? params.size : SEARCH_DEFAULT_SIZE
  const from = params.from && params.from > 0 ? params.from : 0
  return { items: items.slice(from, from + size), total: items.length, aggregations }
}
