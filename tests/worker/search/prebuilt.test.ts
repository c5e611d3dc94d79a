// Pre-built category listings and vocabulary (migration 0130): the catalogue writer builds, in the
// same write as the facet postings, what the first request of a new version would build; a request
// uses a stored listing only at the version it read it with, only for the exact listing it was built
// for, and only when it checks out — the answers are those of the engine's own statement.

import { env } from 'cloudflare:test'
import { listingParams } from '@shared/components/catalog/listing-query'
import { EMPTY_LISTING_STATE } from '@shared/components/catalog/listing-state'
import { descendantIds } from '@shared/domain/menu'
import { beforeEach, describe, expect, it } from 'vitest'
import { getCategoryById } from '../../../worker/catalog/categories'
import { searchProductsEmbedded } from '../../../worker/commerce/embedded-search'
import { clearAllMemos } from '../../../worker/platform/memo'
import { facetPostingsStatements } from '../../../worker/search/builds/catalogue-build'
import { indexProductStatements } from '../../../worker/search/builds/index-products'
import { bumpIndexVersionStatement } from '../../../worker/search/held/index-version'
import { loadVocabulary, readPrebuiltVocabulary } from '../../../worker/search/held/vocabulary'
import { planSearch } from '../../../worker/search/request/plan'
import { searchProducts } from '../../../worker/search/results/product-search'
import { PAGE_FETCH_SQL } from '../../../worker/search/sql/page'
import { recordingDb } from '../../helpers/recording-db'

interface Doc {
  id: number
  status?: number
  visibility?: number
  category_ids?: number[]
  color?: number
  color_options?: number[]
  price?: number
  final_price?: number
  [k: string]: unknown
}

/** The database, recording every SQL text it is asked to prepare. */
function recording(db: D1Database) {
  const recorded = recordingDb(db)
  // The engine's own statement over every match (a pre-built answer never runs it).
  const ranStatement = () => recorded.sql.some((s) => s.startsWith('WITH ') && s.includes(' AS ord'))
  return { ...recorded, ranStatement }
}

async function activeCategories(): Promise<{ id: number; ids: number[] }[]> {
  const { results } = await env.DB.prepare('SELECT id FROM categories WHERE is_active = 1 ORDER BY id').all<{
    id: number
  }>()
  const out: { id: number; ids: number[] }[] = []
  for (const r of results) {
    const cat = await getCategoryById(env.DB, r.id)
    if (cat) out.push({ id: r.id, ids: descendantIds(cat) })
  }
  return out
}

/** A category page's first listing (what its loader asks the Commerce port for), `size` items. */
async function listing(ids: number[], db: D1Database = env.DB, size = 24) {
  const res = await searchProductsEmbedded(db, listingParams(ids, EMPTY_LISTING_STATE, 0, size))
  return { ids: res.items.map((p) => p.id), total: res.total, aggregations: res.aggregations }
}

/** The same listing answered by the engine's statement alone (no pre-built row, an empty isolate). */
async function fresh(ids: number[], size = 24) {
  const saved = await env.DB.prepare('SELECT * FROM search_listings').all<Record<string, unknown>>()
  await env.DB.prepare('DELETE FROM search_listings').run()
  clearAllMemos()
  const { db, ranStatement } = recording(env.DB)
  const answer = await listing(ids, db, size)
  expect(ranStatement()).toBe(true)
  // Put the build back as it was (these tests compare against it).
  for (const r of saved.results)
    await env.DB.prepare(
      'INSERT INTO search_listings (cats, total, n, id_sum, rank_sum, gaps, min_score, max_score, aggs, aterms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    )
      .bind(r.cats, r.total, r.n, r.id_sum, r.rank_sum, r.gaps, r.min_score, r.max_score, r.aggs, r.aterms)
      .run()
  clearAllMemos()
  return answer
}

/** The importer's write of one product: document, index rows, every build, the version bump. */
async function importProduct(doc: Doc) {
  await env.DB.batch([
    env.DB.prepare('UPDATE products SET doc = ?, price = ?, final_price = ? WHERE id = ?').bind(
      JSON.stringify(doc),
      doc.price ?? 0,
      doc.final_price ?? doc.price ?? 0,
      doc.id,
    ),
    ...indexProductStatements(env.DB, doc as unknown as Record<string, unknown>),
    ...facetPostingsStatements(env.DB),
    bumpIndexVersionStatement(env.DB),
  ])
}

const listingRows = async () =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM search_listings WHERE cats <> ''").first<{ n: number }>())
    ?.n ?? 0

describe('pre-built category listings', () => {
  beforeEach(async () => {
    await env.DB.batch([...facetPostingsStatements(env.DB), bumpIndexVersionStatement(env.DB)])
    clearAllMemos()
  })

  it('answer every category page exactly as the statement does, without running it', async () => {
    const cats = await activeCategories()
    expect(cats.length).toBeGreaterThan(3)
    let served = 0
    for (const cat of cats) {
      const expected = await fresh(cat.ids, 200)
      clearAllMemos()
      const { db, sql, ranStatement } = recording(env.DB)
      const got = await listing(cat.ids, db, 200)
      expect(got, `category ${cat.id}`).toEqual(expected)
      if (expected.total > 0) {
        expect(ranStatement(), `category ${cat.id} ran the statement`).toBe(false)
        // The page came with the row (one round trip), not from a page read of its own.
        expect(sql.includes(PAGE_FETCH_SQL)).toBe(false)
        served++
      }
    }
    expect(served).toBeGreaterThan(3)
  })

  it('serve later pages from the same set (one page read each)', async () => {
    const [cat] = (await activeCategories()).sort((a, b) => b.ids.length - a.ids.length)
    const ids = cat?.ids ?? []
    const all = await fresh(ids, 200)
    expect(all.total).toBeGreaterThan(30)
    const { db, ranStatement } = recording(env.DB)
    const first = await listing(ids, db)
    const second = await searchProductsEmbedded(db, listingParams(ids, EMPTY_LISTING_STATE, 24, 24))
    expect([...first.ids, ...second.items.map((p) => p.id)]).toEqual(all.ids.slice(0, 48))
    expect(ranStatement()).toBe(false)
  })

  it('answer a later page asked first at a version from the row, with the page read in the same batch', async () => {
    const [cat] = (await activeCategories()).sort((a, b) => b.ids.length - a.ids.length)
    const ids = cat?.ids ?? []
    const all = await fresh(ids, 200)
    const known = Math.min(all.total, 200)
    expect(known).toBeGreaterThan(40)
    // The second page, and a page that runs past the end of what is known (its last five).
    for (const from of [24, known - 5]) {
      clearAllMemos()
      const { db, sql, ranStatement } = recording(env.DB)
      const page = await searchProductsEmbedded(db, listingParams(ids, EMPTY_LISTING_STATE, from, 24))
      const expected = all.ids.slice(from, from + 24)
      expect(page.items.map((p) => p.id).slice(0, expected.length), `from ${from}`).toEqual(expected)
      expect(page.total).toBe(all.total)
      expect(ranStatement()).toBe(false)
      expect(sql.includes(PAGE_FETCH_SQL)).toBe(false)
    }
  })

  it('an import that moves a product to another category, colour and price is seen by the very next request', async () => {
    const cats = (await activeCategories()).filter((c) => c.ids.length === 1)
    const [from, to] = cats
    expect(from && to).toBeTruthy()
    const fromId = from?.id as number
    const toId = to?.id as number
    // Warm the isolate on both listings first: the next answers must not come from what it holds.
    await listing([fromId])
    await listing([toId])
    const before = await listing([fromId], env.DB, 200)
    const movedId = before.ids[0] as number
    const row = await env.DB.prepare('SELECT doc FROM products WHERE id = ?')
      .bind(movedId)
      .first<{ doc: string }>()
    const doc = JSON.parse(row?.doc ?? '{}') as Doc
    const moved: Doc = {
      ...doc,
      category_ids: [toId],
      category: [],
      color: 991_001,
      color_options: [991_001],
      price: 123_456,
      final_price: 123_456,
      special_price: null,
      created_at: '2099-01-01 00:00:00',
    }
    await importProduct(moved)
    expect(await listingRows()).toBeGreaterThan(0)
    const { db, ranStatement } = recording(env.DB)
    const left = await listing([fromId], db, 200)
    const arrived = await listing([toId], db, 200)
    expect(ranStatement()).toBe(false)
    expect(left.ids).not.toContain(movedId)
    expect(left.total).toBe(before.total - 1)
    // Newest first: the moved product leads its new category.
    expect(arrived.ids[0]).toBe(movedId)
    const colours = (
      arrived.aggregations.agg_terms_color as { buckets: { key: unknown; doc_count: number }[] }
    ).buckets
    expect(colours.find((b) => Number(b.key) === 991_001)?.doc_count).toBe(1)
    expect(Number(arrived.aggregations.agg_max_final_price?.value)).toBeGreaterThanOrEqual(123_456)
    // And exactly what the statement answers from the index.
    expect(left).toEqual(await fresh([fromId], 200))
    expect(arrived).toEqual(await fresh([toId], 200))
  })

  it('a row that does not check out, or a build for another listing shape, is not used', async () => {
    const [cat] = (await activeCategories()).sort((a, b) => b.ids.length - a.ids.length)
    const ids = cat?.ids ?? []
    const expected = await fresh(ids, 200)
    const key = JSON.stringify([...ids].sort((a, b) => a - b))
    const row = await env.DB.prepare('SELECT gaps FROM search_listings WHERE cats = ?')
      .bind(key)
      .first<{ gaps: string }>()
    const gaps = JSON.parse(row?.gaps ?? '[]') as number[]
    expect(gaps.length).toBeGreaterThan(3)
    // Two neighbours swapped: same count, same ids, same sum; only the rank-weighted sum tells.
    const ids0: number[] = []
    for (const d of gaps) ids0.push((ids0[ids0.length - 1] ?? 0) + d)
    ;[ids0[1], ids0[2]] = [ids0[2] as number, ids0[1] as number]
    const reordered = ids0.map((id, i) => id - (i > 0 ? (ids0[i - 1] as number) : 0))
    expect(reordered).not.toEqual(gaps)
    for (const [what, sql, bind] of [
      [
        'reordered ids',
        'UPDATE search_listings SET gaps = ?1 WHERE cats = ?2',
        [JSON.stringify(reordered), key],
      ],
      ['a wrong total', 'UPDATE search_listings SET total = total - 1 WHERE cats = ?1', [key]],
      ['another shape', "UPDATE search_listings SET aggs = '[]' WHERE cats = ''", []],
    ] as const) {
      await env.DB.batch([...facetPostingsStatements(env.DB)])
      await env.DB.prepare(sql)
        .bind(...bind)
        .run()
      clearAllMemos()
      const { db, ranStatement } = recording(env.DB)
      expect(await listing(ids, db, 200), what).toEqual(expected)
      expect(ranStatement(), what).toBe(true)
    }
  })

  it('a product write without a rebuild drops every listing; the next answer is the statement’s', async () => {
    const [cat] = (await activeCategories()).sort((a, b) => b.ids.length - a.ids.length)
    const ids = cat?.ids ?? []
    await listing(ids)
    const first = (await listing(ids, env.DB, 200)).ids[0] as number
    const row = await env.DB.prepare('SELECT doc FROM products WHERE id = ?')
      .bind(first)
      .first<{ doc: string }>()
    const doc = { ...(JSON.parse(row?.doc ?? '{}') as Doc), visibility: 1 }
    await env.DB.batch([
      env.DB.prepare('UPDATE products SET doc = ? WHERE id = ?').bind(JSON.stringify(doc), doc.id),
      ...indexProductStatements(env.DB, doc as unknown as Record<string, unknown>),
    ])
    expect(await listingRows()).toBe(0)
    const { db, ranStatement } = recording(env.DB)
    const after = await listing(ids, db, 200)
    expect(ranStatement()).toBe(true)
    expect(after.ids).not.toContain(first)
  })

  it('a version bump alone keeps the rows, and the set is used at the version read with it', async () => {
    const [cat] = (await activeCategories()).sort((a, b) => b.ids.length - a.ids.length)
    const ids = cat?.ids ?? []
    const expected = await fresh(ids, 200)
    await env.DB.batch([bumpIndexVersionStatement(env.DB)])
    const { db, ranStatement } = recording(env.DB)
    expect(await listing(ids, db, 200)).toEqual(expected)
    expect(ranStatement()).toBe(false)
  })

  it('a filtered or re-sorted listing is not answered from a default listing row', async () => {
    const [cat] = (await activeCategories()).sort((a, b) => b.ids.length - a.ids.length)
    const ids = cat?.ids ?? []
    const states = [
      { ...EMPTY_LISTING_STATE, sort: 'price-asc' as const },
      { ...EMPTY_LISTING_STATE, chosen: { color: [{ id: '49', label: 'Red' }] } },
    ]
    for (const state of states) {
      const { db, ranStatement } = recording(env.DB)
      await searchProductsEmbedded(db, listingParams(ids, state, 0, 24))
      expect(ranStatement(), JSON.stringify(state)).toBe(true)
    }
  })
})

describe('pre-built vocabulary', () => {
  beforeEach(async () => {
    await env.DB.batch([...facetPostingsStatements(env.DB), bumpIndexVersionStatement(env.DB)])
    clearAllMemos()
  })

  /** Distinct tokens per field, grouped from the tokens themselves. */
  async function grouped() {
    const { results } = await env.DB.prepare(
      'SELECT DISTINCT field, token FROM search_tokens ORDER BY field, token',
    ).all<{ field: string; token: string }>()
    const out = new Map<string, string[]>()
    for (const r of results) out.set(r.field, [...(out.get(r.field) ?? []), r.token])
    return out
  }

  it('holds every distinct token per field, and a typo search answers as with the grouped tokens', async () => {
    const stored = await readPrebuiltVocabulary(env.DB)
    expect(stored?.vocab).toEqual(await grouped())
    // The engine loads the stored one: no grouping of every token row.
    const { db, sql } = recording(env.DB)
    expect((await loadVocabulary(db)).vocab).toEqual(await grouped())
    expect(sql.some((s) => s.includes('DISTINCT field, token FROM search_tokens'))).toBe(false)
    clearAllMemos()
    const plan = planSearch({
      entityType: 'product',
      size: 20,
      body: { query: { match: { name: { query: 'kurat', fuzziness: 'AUTO' } } } },
    })
    const withStored = await searchProducts(env.DB, plan)
    await env.DB.prepare('DELETE FROM search_vocabulary').run()
    clearAllMemos()
    const withGrouped = await searchProducts(env.DB, plan)
    expect(withStored.hits.map((h) => h.id)).toEqual(withGrouped.hits.map((h) => h.id))
  })

  it('a part that does not check out is not used; a token write drops the build', async () => {
    await env.DB.prepare(
      "UPDATE search_vocabulary SET tokens = json_insert(tokens, '$[#]', 'zzzz-forged') WHERE field = 'name' AND part = 0",
    ).run()
    expect(await readPrebuiltVocabulary(env.DB)).toBeNull()
    const loaded = await loadVocabulary(env.DB)
    expect(loaded.vocab.get('name')).not.toContain('zzzz-forged')
    await env.DB.batch([...facetPostingsStatements(env.DB)])
    await env.DB.prepare(
      "INSERT INTO search_tokens (token, field, product_id, pos) VALUES ('newword', 'name', 1, 0)",
    ).run()
    expect(await readPrebuiltVocabulary(env.DB)).toBeNull()
  })
})
