// The engine's per-isolate facet index (terms aggregations counted in JS): the first answer (which
// loads the postings), later answers (counted from the index) and answers after a catalogue write
// (a new index version) must equal counts computed independently from the product documents.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { indexProductStatements } from '../../../worker/search/builds/index-products'
import { planSearch } from '../../../worker/search/request/plan'
import { searchProducts } from '../../../worker/search/results/product-search'
import { listedDoc, type StoredDoc, storedDocs } from '../../helpers/search-fixtures'
import { shopListing } from '../../helpers/search-requests.mjs'

type Doc = StoredDoc

const request = (categoryId: number) => ({
  entityType: 'product',
  size: 24,
  body: {
    ...shopListing({ terms: { category_ids: [categoryId] } }),
    aggs: {
      c: { terms: { field: 'color_options', size: 100 } },
      s: { terms: { field: 'size_options', size: 100 } },
      k: { terms: { field: 'category_ids', size: 100 } },
    },
  },
})

/** Bucket counts of `field` over the listed products of a category, from the documents alone. */
function expected(all: Doc[], categoryId: number, field: 'color_options' | 'size_options' | 'category_ids') {
  const counts = new Map<string, number>()
  for (const d of all) {
    if (!listedDoc(d)) continue
    if (!(d.category_ids ?? []).includes(categoryId)) continue
    for (const v of new Set(d[field] ?? [])) counts.set(String(v), (counts.get(String(v)) ?? 0) + 1)
  }
  return [...counts]
    .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0))
    .slice(0, 100)
    .map(([key, doc_count]) => ({ key: Number(key), doc_count }))
}

async function run(categoryId: number) {
  const res = await searchProducts(env.DB, planSearch(request(categoryId)))
  const keys = (agg: string) =>
    (res.aggregations[agg] as { buckets: { key: unknown; doc_count: number }[] }).buckets.map((b) => ({
      key: Number(b.key),
      doc_count: b.doc_count,
    }))
  return { total: res.total, c: keys('c'), s: keys('s'), k: keys('k') }
}

async function biggestCategory(all: Doc[]): Promise<number> {
  const n = new Map<number, number>()
  for (const d of all) for (const c of d.category_ids ?? []) n.set(c, (n.get(c) ?? 0) + 1)
  return [...n].filter(([id]) => id !== 2).sort((a, b) => b[1] - a[1])[0]?.[0] as number
}

describe('facet index', () => {
  it('counts the same on the loading answer, on cached answers and after a catalogue write', async () => {
    const all = await storedDocs()
    const cat = await biggestCategory(all)
    const check = (got: Awaited<ReturnType<typeof run>>, from: Doc[]) => {
      expect(got.c).toEqual(expected(from, cat, 'color_options'))
      expect(got.s).toEqual(expected(from, cat, 'size_options'))
      expect(got.k).toEqual(expected(from, cat, 'category_ids'))
    }
    const first = await run(cat)
    expect(first.c.length).toBeGreaterThan(1)
    check(first, all)
    // Cached: same answer; another category reuses the same index.
    check(await run(cat), all)
    const other = [...new Set(all.flatMap((d) => d.category_ids ?? []))].find((c) => c !== cat && c !== 2)
    expect(other).toBeDefined()
    const second = await searchProducts(env.DB, planSearch(request(other as number)))
    expect(second.total).toBeGreaterThan(0)

    // A write bumps the index version: the next answer must see the new colour.
    const target = all.find(
      (d) =>
        (d.category_ids ?? []).includes(cat) && [2, 3, 4].includes(d.visibility ?? 4) && (d.status ?? 1) < 2,
    ) as Doc
    const changed = { ...target, color_options: [...(target.color_options ?? []), 987654] }
    await env.DB.batch([
      env.DB.prepare('UPDATE products SET doc = ? WHERE id = ?').bind(JSON.stringify(changed), target.id),
      ...indexProductStatements(env.DB, changed),
    ])
    const after = await run(cat)
    expect(after.c).toContainEqual({ key: 987654, doc_count: 1 })
    check(after, await storedDocs())
  })
})
