/**
 * The catalogue search engine: `searchCatalog(db, request)` answers an Elasticsearch-style search
 * over one entity type with the Elasticsearch response shape. Products run as one SQL statement
 * on the D1 search index (compile-sql.ts); the small entity sets (categories, attributes, tax
 * rules, reviews, CMS) are evaluated in memory with the same semantics (evaluate-js.ts).
 *
 * Exports for other areas: searchCatalog (the Commerce port calls it in-process),
 * indexProductStatements (./index-products), SearchError.
 */

import { REVIEW_STATUS_APPROVED } from '../../shared/config'
import type { Category, Product } from '../../shared/schemas/catalog'
import { buildTree, getAllCategories } from '../catalog/categories'
import { type InventoryRow, mergeInventory } from '../catalog/products'
import {
  compileProductSearch,
  type FacetPlan,
  needsVocabulary,
  PAGE_FETCH_SQL,
  type Vocabulary,
} from './compile-sql'
import {
  type AggNode,
  parseAggs,
  parseQuery,
  parseSort,
  type QueryNode,
  type Scalar,
  SearchError,
  type SearchPlan,
} from './dsl'
import { type AggResult, bucket, type EngineResult, searchDocsInMemory, toJsDocs } from './evaluate-js'
import { checkPatternCount, parsePatterns, sourceFilter } from './source-filter'

export { SearchError } from './dsl'
export { indexProductStatements } from './index-products'

/** Entity types the catalogue endpoint serves (vue-storefront-api's registered entity types). */
export const ENTITY_TYPES = [
  'product',
  'category',
  'attribute',
  'taxrule',
  'review',
  'cms_block',
  'cms_page',
] as const
export type EntityType = (typeof ENTITY_TYPES)[number]

/** Largest page (the storefront fetches the category tree with size=4000). */
export const MAX_SEARCH_SIZE = 4000
/** Largest from + size (Elasticsearch's default max_result_window). */
export const MAX_RESULT_WINDOW = 10000

export interface SearchCatalogRequest {
  entityType: string
  /** The DSL body (query, aggs, sort, size, from, min_score, _source). */
  body?: Record<string, unknown>
  /** URL parameters override the body's (as vue-storefront-api passes them to Elasticsearch). */
  size?: number | string
  from?: number | string
  sort?: unknown
  includes?: string[]
  excludes?: string[]
  /** Reported back in hits as `_index`. */
  index?: string
}

export interface EsHit {
  _index: string
  _type: string
  _id: string
  _score: number | null
  _source: Record<string, unknown>
}

export interface EsSearchResponse {
  took: number
  timed_out: boolean
  _shards: { total: number; successful: number; skipped: number; failed: number }
  hits: { total: number; max_score: number | null; hits: EsHit[] }
  aggregations?: Record<string, AggResult>
}

const BODY_KEYS = new Set([
  'query',
  'aggs',
  'aggregations',
  'sort',
  'from',
  'size',
  'min_score',
  '_source',
  'groupId',
  'groupToken',
  'track_scores',
  'track_total_hits',
])

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** Validates a size: the default 24 when not above 0, at most MAX_SEARCH_SIZE. */
export function normalizeSize(v: unknown, fallback = 24): number {
  if (v === undefined || v === null || v === '') return fallback
  const n = typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v
  if (typeof n !== 'number' || !Number.isInteger(n))
    throw new SearchError(`size must be a whole number, got ${JSON.stringify(v)?.slice(0, 40)}`)
  if (n <= 0) return fallback
  if (n > MAX_SEARCH_SIZE) throw new SearchError(`size must be at most ${MAX_SEARCH_SIZE}, got ${n}`)
  return n
}

/** Validates a start offset: 0 when negative. */
export function normalizeFrom(v: unknown): number {
  if (v === undefined || v === null || v === '') return 0
  const n = typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v
  if (typeof n !== 'number' || !Number.isInteger(n))
    throw new SearchError(`from must be a whole number, got ${JSON.stringify(v)?.slice(0, 40)}`)
  return Math.max(0, n)
}

/** Turns a request into an executable plan (throws SearchError on anything unsupported). */
export function planSearch(req: SearchCatalogRequest): SearchPlan {
  const body = req.body ?? {}
  if (!isObject(body)) throw new SearchError('The search request must be a JSON object')
  for (const k of Object.keys(body)) {
    if (!BODY_KEYS.has(k)) throw new SearchError(`Unsupported search request option: ${k.slice(0, 40)}`)
  }
  if (body.aggs !== undefined && body.aggregations !== undefined)
    throw new SearchError('Use either aggs or aggregations, not both')
  const size = normalizeSize(req.size ?? body.size)
  const from = normalizeFrom(req.from ?? body.from)
  if (from + size > MAX_RESULT_WINDOW)
    throw new SearchError(`from + size must not exceed ${MAX_RESULT_WINDOW}`)
  let minScore: number | null = null
  if (body.min_score !== undefined && body.min_score !== null) {
    if (typeof body.min_score !== 'number' || !Number.isFinite(body.min_score))
      throw new SearchError('min_score must be a number')
    minScore = body.min_score
  }
  const sort = parseSort(req.sort !== undefined && req.sort !== '' ? req.sort : body.sort)
  return {
    query: parseQuery(body.query),
    aggs: parseAggs(body.aggs ?? body.aggregations),
    sort,
    from,
    size,
    minScore,
  }
}

let vocabCache: { version: number; vocab: Vocabulary } | null = null

/** Distinct tokens per text field, read with the index version in one round trip (cached per isolate). */
async function loadVocabulary(db: D1Database): Promise<{ version: number; vocab: Vocabulary }> {
  const [meta, tokens] = await db.batch<Record<string, unknown>>([
    db.prepare("SELECT value FROM search_meta WHERE key = 'version'"),
    db.prepare('SELECT DISTINCT field, token FROM search_tokens'),
  ])
  const version = Number((meta?.results[0] as { value?: number } | undefined)?.value ?? 0)
  const vocab: Vocabulary = new Map()
  for (const r of (tokens?.results ?? []) as { field: string; token: string }[]) {
    let list = vocab.get(r.field)
    if (!list) {
      list = []
      vocab.set(r.field, list)
    }
    list.push(r.token)
  }
  vocabCache = { version, vocab }
  return vocabCache
}

/**
 * A terms-aggregated field's postings in compressed rows: the values of the product with dense
 * index i are `vals[offsets[i] .. offsets[i + 1])` (indexes into `values`); products whose dense
 * index is beyond `offsets` have none.
 */
interface FacetField {
  values: string[]
  offsets: Int32Array
  vals: Int32Array
}

/** Fields with more distinct values than this are counted in SQL (not kept in memory). */
export const MAX_FACET_VALUES = 5000

/**
 * Per-isolate facet index for terms aggregations, valid for one index version (every statement
 * returns the version it read; a different one drops the index and the statement is re-run).
 * `dense` numbers the product ids once for all fields.
 */
let facetCache: {
  version: number
  dense: Map<number, number>
  fields: Map<string, FacetField | 'sql'>
} | null = null

function facetPlanFor(plan: SearchPlan, fresh: boolean): FacetPlan {
  const fields = [...new Set(plan.aggs.filter((a) => a.kind === 'terms').map((a) => a.field))]
  const cached = fresh ? undefined : facetCache?.fields
  const js: string[] = []
  const load: string[] = []
  for (const f of fields) {
    const entry = cached?.get(f)
    if (entry === 'sql') continue
    if (entry) js.push(f)
    else load.push(f)
  }
  return { js, load }
}

/** Builds the fields' postings from a `fac` column and keeps those small enough in the facet index. */
function storeFacets(
  version: number,
  fields: string[],
  fac: [string, string, number[]][],
): Map<string, FacetField> {
  if (!facetCache || facetCache.version !== version)
    facetCache = { version, dense: new Map(), fields: new Map() }
  const dense = facetCache.dense
  const grouped = new Map<string, [string, number[]][]>()
  // A field with no values at all has no postings: it is known (and empty) too.
  for (const f of fields) grouped.set(f, [])
  for (const [field, value, ids] of fac) {
    let list = grouped.get(field)
    if (!list) {
      list = []
      grouped.set(field, list)
    }
    list.push([value, ids])
    for (const id of ids) if (!dense.has(id)) dense.set(id, dense.size)
  }
  const built = new Map<string, FacetField>()
  for (const [field, postings] of grouped) {
    const n = dense.size
    const offsets = new Int32Array(n + 1)
    for (const [, ids] of postings) {
      for (const id of ids) {
        const j = (dense.get(id) as number) + 1
        offsets[j] = (offsets[j] as number) + 1
      }
    }
    for (let i = 0; i < n; i++) offsets[i + 1] = (offsets[i + 1] as number) + (offsets[i] as number)
    const vals = new Int32Array(offsets[n] as number)
    const fill = offsets.slice(0, n)
    postings.forEach(([, ids], vi) => {
      for (const id of ids) {
        const d = dense.get(id) as number
        vals[fill[d] as number] = vi
        fill[d] = (fill[d] as number) + 1
      }
    })
    const f: FacetField = { values: postings.map(([v]) => v), offsets, vals }
    built.set(field, f)
    facetCache.fields.set(field, f.values.length > MAX_FACET_VALUES ? 'sql' : f)
  }
  return built
}

/** [field, value, count] of each field over the filtered ids (same rows as the SQL GROUP BY). */
function countFacets(fields: Map<string, FacetField>, ids: number[], dense: Map<number, number>) {
  const rows = new Int32Array(ids.length)
  ids.forEach((id, i) => {
    rows[i] = dense.get(id) ?? -1
  })
  const out: [string, string, number][] = []
  for (const [field, f] of fields) {
    const counts = new Uint32Array(f.values.length)
    const { offsets, vals } = f
    const limit = offsets.length - 1
    for (const d of rows) {
      if (d < 0 || d >= limit) continue
      const end = offsets[d + 1] as number
      for (let k = offsets[d] as number; k < end; k++) {
        const vi = vals[k] as number
        counts[vi] = (counts[vi] as number) + 1
      }
    }
    counts.forEach((n, vi) => {
      if (n > 0) out.push([field, f.values[vi] as string, n])
    })
  }
  return out
}

type ResultRow = Record<string, string | number | null>

let lastVersion: number | null = null

/** The search index version the last product search of this isolate read (null before any). */
export function indexVersionSeen(): number | null {
  return lastVersion
}

/** The SQL a product request compiles to in this isolate's current state (for benchmarks and debugging). */
export async function compileProductRequest(db: D1Database, req: SearchCatalogRequest) {
  const plan = planSearch(req)
  const vocab = needsVocabulary(plan.query) ? (vocabCache ?? (await loadVocabulary(db))).vocab : new Map()
  return compileProductSearch(plan, vocab, facetPlanFor(plan, false))
}

/**
 * A query's whole result set at one index version: the ordered ids (and scores), the total and the
 * aggregations — everything but the page. Like Elasticsearch's request cache, it turns the next
 * request for the same query (another page, another visitor) into one small page read, whatever
 * the catalogue size; every read checks the index version, so an import is seen at once.
 */
interface ResultSet {
  version: number
  ids: Int32Array
  scores: Float64Array
  total: number
  maxScore: number | null
  aggregations: Record<string, AggResult>
}

/**
 * Most cached result sets per isolate, and most ids they may hold together (~12 bytes each; a set
 * holds at most MAX_RESULT_WINDOW ids, as no page starts past the result window).
 */
export const RESULT_CACHE_MAX_ENTRIES = 500
export const RESULT_CACHE_MAX_IDS = 400_000

const resultCache = new Map<string, ResultSet>()
let resultCacheIds = 0

function resultKey(plan: SearchPlan): string {
  return JSON.stringify([plan.query, plan.aggs, plan.sort, plan.minScore])
}

function dropResult(key: string): void {
  const old = resultCache.get(key)
  if (!old) return
  resultCache.delete(key)
  resultCacheIds -= old.ids.length
}

function keepResult(key: string, set: ResultSet): void {
  dropResult(key)
  if (set.ids.length > RESULT_CACHE_MAX_IDS / 4) return
  // Least recently used first (a Map iterates in insertion order; hits re-insert).
  for (const k of resultCache.keys()) {
    if (
      resultCache.size < RESULT_CACHE_MAX_ENTRIES &&
      resultCacheIds + set.ids.length <= RESULT_CACHE_MAX_IDS
    )
      break
    dropResult(k)
  }
  resultCache.set(key, set)
  resultCacheIds += set.ids.length
}

/** Empties the result-set and document caches (tests). */
export function clearResultCache(): void {
  resultCache.clear()
  resultCacheIds = 0
  docCache.clear()
  docCacheBytes = 0
}

/**
 * Parsed product documents of the current index version, shared by every cached result set
 * (most recently used last). They are deep-frozen: answers merge live stock into copies, and a
 * caller that tried to change a shared document would fail loudly instead of corrupting it.
 */
const docCache = new Map<number, { version: number; doc: Product; bytes: number }>()
let docCacheBytes = 0
/** Most JSON bytes of documents kept per isolate (parsed, roughly three times that in memory). */
export const DOC_CACHE_MAX_BYTES = 6 * 1024 * 1024

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    Object.freeze(v)
    for (const x of Object.values(v)) deepFreeze(x)
  }
  return v
}

function keepDoc(id: number, version: number, doc: Product, bytes: number): void {
  const old = docCache.get(id)
  if (old) {
    docCache.delete(id)
    docCacheBytes -= old.bytes
  }
  for (const [k, e] of docCache) {
    if (docCacheBytes + bytes <= DOC_CACHE_MAX_BYTES) break
    docCache.delete(k)
    docCacheBytes -= e.bytes
  }
  docCache.set(id, { version, doc: deepFreeze(doc), bytes })
  docCacheBytes += bytes
}

/** Serves a page from a cached result set, or null when there is none at the current index version. */
async function pageFromCache(db: D1Database, plan: SearchPlan, key: string): Promise<EngineResult | null> {
  const set = resultCache.get(key)
  if (!set) return null
  const page = Array.from(set.ids.subarray(plan.from, plan.from + plan.size))
  const held = new Map<number, Product>()
  for (const id of page) {
    const e = docCache.get(id)
    if (e?.version === set.version) held.set(id, e.doc)
  }
  const missing = page.filter((id) => !held.has(id))
  const row = await db
    .prepare(PAGE_FETCH_SQL)
    .bind(JSON.stringify(missing), JSON.stringify(page))
    .first<ResultRow>()
  const version = Number(row?.ver ?? 0)
  lastVersion = version
  if (!row || version !== set.version) {
    dropResult(key)
    // The index changed: the facet index and vocabulary are stale too, so the full statement that
    // follows loads them at once instead of finding out and running again.
    if (facetCache?.version !== version) facetCache = null
    if (vocabCache?.version !== version) vocabCache = null
    return null
  }
  // Most recently used last.
  resultCache.delete(key)
  resultCache.set(key, set)
  const fetched = parseJsonColumn<[number, number, null, Product][]>(row.hits, [])
  const bytes = typeof row.hits === 'string' ? row.hits.length / Math.max(1, fetched.length) : 0
  for (const [, id, , doc] of fetched) {
    keepDoc(id, version, doc, bytes)
    held.set(id, doc)
  }
  const inventory = inventoryOf(row)
  const hits: EngineResult['hits'] = []
  page.forEach((id, i) => {
    const doc = held.get(id)
    // A listed id without a document (deleted without a reindex) is skipped, as a fresh read would.
    if (doc)
      hits.push({
        id,
        score: set.scores[plan.from + i] as number,
        source: mergeInventory(doc, inventory) as unknown as Record<string, unknown>,
      })
  })
  return {
    total: set.total,
    maxScore: set.maxScore,
    hits,
    // Callers may adjust what they get; the cached copy stays as read.
    aggregations: structuredClone(set.aggregations),
  }
}

/**
 * Runs a product plan on D1: one statement for hits, total, aggregations and live stock (in the
 * steady state; a changed index version costs one re-run with fresh caches). The statement also
 * returns every match in order, kept in the result-set cache for the next request of the query.
 */
export async function searchProducts(db: D1Database, plan: SearchPlan): Promise<EngineResult> {
  const key = resultKey(plan)
  const cached = await pageFromCache(db, plan, key)
  if (cached) return cached
  const textual = needsVocabulary(plan.query)
  for (let attempt = 0; ; attempt++) {
    const fresh = attempt > 0
    const vocabState = textual ? (fresh || !vocabCache ? await loadVocabulary(db) : vocabCache) : null
    const facets = facetPlanFor(plan, fresh)
    const { sql, params } = compileProductSearch(plan, vocabState?.vocab ?? new Map(), facets, {
      fullOrder: MAX_RESULT_WINDOW,
    })
    const row = await runSearchStatement(db, sql, params)
    if (!row) throw new Error('The search statement returned no row')
    const version = Number(row.ver ?? 0)
    lastVersion = version
    const stale =
      (vocabState !== null && vocabState.version !== version) ||
      (facets.js.length > 0 && facetCache?.version !== version)
    if (stale && !fresh) {
      if (facetCache?.version !== version) facetCache = null
      continue
    }
    // Fields loaded by this statement are counted from its postings (a field with no values has none).
    const loaded =
      facets.load.length > 0
        ? storeFacets(version, facets.load, parseJsonColumn<[string, string, number[]][]>(row.fac, []))
        : new Map<string, FacetField>()
    for (const f of facets.js) {
      const e = facetCache?.fields.get(f)
      if (e && e !== 'sql') loaded.set(f, e)
    }
    const jsCounts =
      loaded.size > 0 && facetCache
        ? countFacets(loaded, parseJsonColumn<number[]>(row.ids, []), facetCache.dense)
        : []
    const [total, maxScore] = parseJsonColumn<[number, number | null]>(row.total, [0, null])
    const aggregations = aggregationsOf(plan, row, jsCounts)
    const ord = parseJsonColumn<[number, number, number][]>(row.ord, []).sort((x, y) => x[0] - y[0])
    keepResult(key, {
      version,
      ids: Int32Array.from(ord, (o) => o[1]),
      scores: Float64Array.from(ord, (o) => o[2]),
      total,
      maxScore,
      aggregations: structuredClone(aggregations),
    })
    return { total, maxScore, hits: hitsOf(row, version), aggregations }
  }
}

/**
 * Errors SQLite raises when one statement is beyond its own limits (memory, statement or value
 * length, expression height, columns, compound terms, function arguments). The compiler keeps
 * every accepted query within them; should one still be reached (e.g. a page of thousands of full
 * documents over D1's 1 MB value limit), the request is what is too large: a 400, not a 500.
 */
const STATEMENT_LIMIT_ERRORS =
  /SQLITE_NOMEM|SQLITE_TOOBIG|too many (columns|terms|arguments|SQL variables)|Expression tree is too large|parser stack overflow/

export async function runSearchStatement(
  db: D1Database,
  sql: string,
  params: unknown[],
): Promise<ResultRow | null> {
  try {
    return await db
      .prepare(sql)
      .bind(...params)
      .first<ResultRow>()
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err)
    if (!STATEMENT_LIMIT_ERRORS.test(message)) throw err
    console.warn(
      JSON.stringify({
        msg: 'search statement over a database limit',
        error: message.slice(0, 200),
        bytes: sql.length,
      }),
    )
    throw new SearchError(
      'Query is too complex for the database (it exceeded a statement limit: memory, length or answer size); ask for fewer clauses or fewer hits',
    )
  }
}

function parseJsonColumn<T>(v: string | number | null | undefined, fallback: T): T {
  return typeof v === 'string' ? (JSON.parse(v) as T) : fallback
}

function inventoryOf(row: ResultRow): Map<string, InventoryRow> {
  const inventory = new Map<string, InventoryRow>()
  for (const r of parseJsonColumn<InventoryRow[]>(row.inv, [])) inventory.set(r.sku, r)
  return inventory
}

/** The statement's page with live stock merged; the documents are kept for later page reads. */
function hitsOf(row: ResultRow, version: number): EngineResult['hits'] {
  const hits = parseJsonColumn<[number, number, number, Product][]>(row.hits, []).sort((x, y) => x[0] - y[0])
  const bytes = typeof row.hits === 'string' ? row.hits.length / Math.max(1, hits.length) : 0
  const inventory = inventoryOf(row)
  return hits.map(([, id, score, doc]) => {
    keepDoc(id, version, doc, bytes)
    return { id, score, source: mergeInventory(doc, inventory) as unknown as Record<string, unknown> }
  })
}

function aggregationsOf(
  plan: SearchPlan,
  row: ResultRow,
  jsCounts: [string, string, number][] = [],
): Record<string, AggResult> {
  const aggregations: Record<string, AggResult> = {}
  const termCounts = new Map<string, [string, number][]>()
  for (const [field, value, count] of [
    ...parseJsonColumn<[string, string, number][]>(row.aterms, []),
    ...jsCounts,
  ]) {
    const list = termCounts.get(field) ?? []
    list.push([value, count])
    termCounts.set(field, list)
  }
  plan.aggs.forEach((agg: AggNode, i) => {
    const col = row[`a${i}`]
    if (agg.kind === 'terms') {
      const numeric = Number(col) === 1
      aggregations[agg.name] = {
        buckets: [...(termCounts.get(agg.field) ?? [])]
          .sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0))
          .slice(0, agg.size)
          .map(([value, count]) => bucket(value, count, numeric && String(Number(value)) === value)),
      }
    } else if (agg.kind === 'range') {
      // Many ranges come as an array of arrays (the SQL function-argument limit): flattened here.
      const counts = parseJsonColumn<unknown[]>(col, []).flat(Number.POSITIVE_INFINITY) as number[]
      aggregations[agg.name] = {
        buckets: agg.ranges.map((r, j) => ({
          key: r.key,
          ...(r.from !== undefined ? { from: r.from } : {}),
          ...(r.to !== undefined ? { to: r.to } : {}),
          doc_count: counts[j] ?? 0,
        })),
      }
    } else {
      aggregations[agg.name] = { value: col === null || col === undefined ? null : Number(col) }
    }
  })
  return aggregations
}

const ENTITY_TABLES: Record<Exclude<EntityType, 'product' | 'category'>, string> = {
  attribute: 'SELECT doc FROM attributes ORDER BY attribute_id',
  taxrule: 'SELECT doc FROM tax_rules ORDER BY id',
  // The public review search sees approved reviews only (pending and rejected ones stay private).
  review: `SELECT doc FROM reviews WHERE review_status = ${REVIEW_STATUS_APPROVED} ORDER BY id`,
  cms_block: 'SELECT doc FROM cms_blocks ORDER BY id',
  cms_page: 'SELECT doc FROM cms_pages ORDER BY id',
}

/** Loads every document of a small entity type (categories get their children_data tree). */
async function loadEntityDocs(
  db: D1Database,
  type: Exclude<EntityType, 'product'>,
  plan?: SearchPlan,
): Promise<Record<string, unknown>[]> {
  if (type === 'category') {
    const all: Category[] = await getAllCategories(db)
    const tree = buildTree(all)
    return all.map((c) => (tree.get(c.id) ?? c) as unknown as Record<string, unknown>)
  }
  const productIds = type === 'review' && plan ? requiredValues(plan.query, 'product_id') : null
  const { results } = productIds
    ? // Reviews are read per product: pre-select the candidates (the plan still decides).
      await db
        .prepare(
          'SELECT doc FROM reviews WHERE product_id IN (SELECT value FROM json_each(?1)) AND review_status = ?2 ORDER BY id',
        )
        .bind(
          JSON.stringify(productIds.map((v) => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v))),
          REVIEW_STATUS_APPROVED,
        )
        .all<{ doc: string }>()
    : await db.prepare(ENTITY_TABLES[type]).all<{ doc: string }>()
  const docs = results.map((r) => JSON.parse(r.doc) as Record<string, unknown>)
  return type === 'review' ? docs.map(publicReview) : docs
}

/** Keys that identify a review's author (ids, e-mails): never searchable nor returned publicly. */
const PRIVATE_REVIEW_KEY = /customer|e-?mail/i

/**
 * A review as the public sees it: without the author's customer id, e-mail or other customer
 * fields, at any depth. They are removed before the query runs, so no query can test them either.
 */
export function publicReview(doc: Record<string, unknown>): Record<string, unknown> {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip)
    if (v === null || typeof v !== 'object') return v
    const out: Record<string, unknown> = {}
    for (const [k, child] of Object.entries(v as Record<string, unknown>))
      if (!PRIVATE_REVIEW_KEY.test(k)) out[k] = strip(child)
    return out
  }
  return strip(doc) as Record<string, unknown>
}

/** Values `field` must take for `node` to match (from terms in must/filter chains), or null if unconstrained. */
export function requiredValues(node: QueryNode, field: string): Scalar[] | null {
  if (node.kind === 'terms' && node.field === field) return node.values
  if (node.kind === 'function_score') return requiredValues(node.query, field)
  if (node.kind === 'bool') {
    for (const child of [...node.filter, ...node.must]) {
      const v = requiredValues(child, field)
      if (v) return v
    }
  }
  return null
}

function isEntityType(t: string): t is EntityType {
  return (ENTITY_TYPES as readonly string[]).includes(t)
}

/** Searches one entity type; answers in the Elasticsearch response shape. */
export async function searchCatalog(db: D1Database, req: SearchCatalogRequest): Promise<EsSearchResponse> {
  const started = Date.now()
  if (!isEntityType(req.entityType))
    throw new SearchError(`No entity type registered for ${String(req.entityType).slice(0, 40)}`)
  const plan = planSearch(req)
  const includes = [...(req.includes ?? [])]
  const excludes = [...(req.excludes ?? [])]
  const body = req.body ?? {}
  const src = body._source
  const toError = (m: string) => new SearchError(m)
  if (Array.isArray(src) || typeof src === 'string') includes.push(...parsePatterns(src, '_source', toError))
  else if (isObject(src)) {
    includes.push(...parsePatterns(src.includes ?? src.include, '_source.includes', toError))
    excludes.push(...parsePatterns(src.excludes ?? src.exclude, '_source.excludes', toError))
  } else if (src !== undefined && typeof src !== 'boolean') throw new SearchError('Malformed _source')
  checkPatternCount(includes, '_source includes', toError)
  checkPatternCount(excludes, '_source excludes', toError)
  const filter = sourceFilter(includes, excludes)
  let result: EngineResult
  if (req.entityType === 'product') result = await searchProducts(db, plan)
  else {
    const docs = await loadEntityDocs(db, req.entityType, plan)
    result = searchDocsInMemory(toJsDocs(docs, 'generic'), plan)
  }
  const index = req.index ?? 'vue_storefront_catalog'
  const response: EsSearchResponse = {
    took: Date.now() - started,
    timed_out: false,
    _shards: { total: 1, successful: 1, skipped: 0, failed: 0 },
    hits: {
      total: result.total,
      max_score: result.maxScore,
      hits: result.hits.map((h) => ({
        _index: index,
        _type: req.entityType,
        _id: String(h.id),
        _score: h.score,
        _source: filter(h.source),
      })),
    },
  }
  if (plan.aggs.length > 0) response.aggregations = result.aggregations
  return response
}

/** Product fields renamed by response_format=compact (the storefront's `products.fieldsToCompact` map; both sides must agree). */
export const FIELDS_TO_COMPACT: Readonly<Record<string, string>> = {
  name: 'nm',
  url_key: 'u',
  price: 'p',
  final_price: 'fp',
  special_price: 'sp',
  price_incl_tax: 'pit',
  image: 'i',
  thumbnail: 't',
  small_image: 'si',
  status: 's',
  description: 'desc',
}

/** The compact response: `{hits: [_source + _score], total, aggregations}`, product fields renamed. */
export function toCompactResponse(res: EsSearchResponse, entityType: string) {
  return {
    hits: res.hits.hits.map((h) => {
      const item: Record<string, unknown> = { ...h._source, _score: h._score }
      if (entityType === 'product') {
        for (const [from, to] of Object.entries(FIELDS_TO_COMPACT)) {
          if (item[from] !== undefined) {
            item[to] = item[from]
            delete item[from]
          }
        }
      }
      return item
    }),
    total: res.hits.total,
    aggregations: res.aggregations ?? {},
  }
}
