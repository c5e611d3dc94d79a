/**
 * Product searches on D1: one statement for the page, total, aggregations and live stock, with the
 * per-isolate caches (result sets, documents, facet index, vocabulary) checked against the index
 * version every statement returns.
 */
import type { Product } from '@shared/schemas/catalog'
import { mergeInventory } from '../catalog/products'
import {
  idsWithBits,
  type Narrowing,
  narrowingFields,
  narrowingHotFields,
  narrowingWords,
  narrowQuery,
} from './candidates'
import type { FacetPlan } from './compile-aggs'
import { compileProductSearch, PAGE_FETCH_SQL } from './compile-sql'
import { needsVocabulary } from './compile-where'
import { checkSearchCost } from './cost'
import { SearchError, type SearchPlan } from './dsl'
import { type EngineResult, effectiveSort } from './evaluate-js'
import { countFacetsInJs, facetFieldsAt, facetPlanFor, loadPersistedFacets, postingsFor } from './facet-index'
import { heldHotColumns, hotColumnsFor } from './hot-columns'
import { indexVersionSeen, noteIndexVersion } from './index-version'
import { planSearch, RANKED_MATCHES, type SearchCatalogRequest } from './plan'
import { prebuiltListingKey, readPrebuiltListing } from './prebuilt'
import { aggregationsOf, hitsOf, inventoryOf, parseJsonColumn, type ResultRow } from './product-results'
import { dropResult, heldDoc, heldDocs, keepDoc, keepResult, resultKey, resultSetAt } from './result-cache'
import type { Vocabulary } from './sql-expr'
import { cachedVocabulary, dropVocabularyUnless, loadVocabulary } from './vocabulary'
import { wordPostingsFor } from './word-postings'

/** The SQL a product request compiles to in this isolate's current state (for benchmarks and debugging). */
export async function compileProductRequest(db: D1Database, req: SearchCatalogRequest) {
  const plan = planSearch(req)
  const vocab = needsVocabulary(plan.query)
    ? (cachedVocabulary() ?? (await loadVocabulary(db))).vocab
    : new Map()
  const narrow = await narrowing(db, plan, vocab)
  return compileProductSearch(plan, vocab, facetPlanFor(plan, false), { narrow })
}

/**
 * A narrowed statement visiting at least this many products reads the hot columns it could use
 * (hot-columns.ts) before it runs, once per index version: from then on such searches test, sort
 * and count those columns in the isolate. A smaller one is cheap enough as it is.
 */
const HOT_READ_MIN_VISITS = 5000

/**
 * The products a statement of `plan` needs to visit (candidates.ts), from the field postings, word
 * lists and hot columns the isolate holds, read first when missing; null when nothing narrows it.
 */
async function narrowing(db: D1Database, plan: SearchPlan, vocab: Vocabulary): Promise<Narrowing | null> {
  const fields = narrowingFields(plan.query)
  const held = fields.length > 0 ? await postingsFor(db, fields) : new Map()
  const refs = narrowingWords(plan.query, held, vocab)
  const words = refs.length > 0 ? await wordPostingsFor(db, refs) : new Map()
  const shape = { sort: effectiveSort(plan), aggs: plan.aggs }
  const hotFields = narrowingHotFields(plan.query, shape)
  const hot = heldHotColumns(hotFields)
  const narrow = narrowQuery(plan.query, { fields: held, words, vocab, hot }, undefined, shape)
  if (hot.size === hotFields.length || (narrow?.count ?? 0) < HOT_READ_MIN_VISITS) return narrow
  const read = await hotColumnsFor(db, hotFields)
  if (read.size === hot.size) return narrow
  return narrowQuery(plan.query, { fields: held, words, vocab, hot: read }, undefined, shape)
}

/**
 * Serves a page from a cached result set, or null when there is none at the current index version.
 * `fetched`: the page read already made for exactly this set's page (with a pre-built listing).
 */
async function pageFromCache(
  db: D1Database,
  plan: SearchPlan,
  key: string,
  fetched?: ResultRow | null,
): Promise<EngineResult | null> {
  const set = resultSetAt(key)
  if (!set) return null
  // A page past the matches the set ranked runs the statement (which ranks down to that page).
  if (Math.min(plan.from + plan.size, set.total) > set.ids.length) return null
  const page = Array.from(set.ids.subarray(plan.from, plan.from + plan.size))
  const held = new Map<number, Product>()
  for (const id of page) {
    const doc = heldDoc(id, set.version)
    if (doc) held.set(id, doc)
  }
  const missing = page.filter((id) => !held.has(id))
  const row =
    fetched ??
    (await db.prepare(PAGE_FETCH_SQL).bind(JSON.stringify(missing), JSON.stringify(page)).first<ResultRow>())
  const version = Number(row?.ver ?? 0)
  noteIndexVersion(version)
  if (!row || version !== set.version) {
    dropResult(key)
    // The index changed: the vocabulary is stale too, so the full statement that follows loads it at
    // once instead of finding out and running again (facet fields of another version are dropped
    // by the memo itself, now that this version is recorded).
    dropVocabularyUnless(version)
    return null
  }
  const docs = parseJsonColumn<[number, number, null, Product][]>(row.hits, [])
  const bytes = typeof row.hits === 'string' ? row.hits.length / Math.max(1, docs.length) : 0
  for (const [, id, , doc] of docs) {
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
 * Serves a category page's default listing from its pre-built result set (prebuilt.ts) when the
 * catalogue writer built one for this version: the set is kept as the statement would have kept it,
 * then the page is read from it. Null when the plan is not such a listing or nothing usable is stored.
 */
async function pageFromPrebuilt(db: D1Database, plan: SearchPlan, key: string): Promise<EngineResult | null> {
  const stored = prebuiltListingKey(plan)
  if (!stored) return null
  const listing = await readPrebuiltListing(db, stored, plan)
  if (!listing) return null
  // The memo stamps an entry with the version last seen: record the version read first.
  noteIndexVersion(listing.version)
  keepResult(key, {
    version: listing.version,
    ids: listing.ids,
    scores: listing.scores,
    total: listing.total,
    maxScore: listing.maxScore,
    aggregations: aggregationsOf(plan, listing.row),
  })
  return pageFromCache(db, plan, key, listing.page)
}

/**
 * Runs a product plan on D1: one statement for hits, total, aggregations and live stock (in the
 * steady state; a changed index version costs one re-run with fresh caches). The statement also
 * returns every match in order, kept in the result-set cache for the next request of the query.
 */
export async function searchProducts(db: D1Database, plan: SearchPlan): Promise<EngineResult> {
  await checkSearchCost(db, plan)
  const key = resultKey(plan)
  const cached = await pageFromCache(db, plan, key)
  if (cached) return cached
  const prebuilt = await pageFromPrebuilt(db, plan, key)
  if (prebuilt) return prebuilt
  const textual = needsVocabulary(plan.query)
  for (let attempt = 0; ; attempt++) {
    const fresh = attempt > 0
    const vocabState = textual ? ((fresh ? null : cachedVocabulary()) ?? (await loadVocabulary(db))) : null
    // The statement visits only the products the held postings leave (candidates.ts); the third
    // attempt visits the whole index, as its answer then needs no postings to agree with it.
    const narrow = attempt < 2 ? await narrowing(db, plan, vocabState?.vocab ?? new Map()) : null
    // Fields not in memory come from the persisted postings when built, else from the statement. A
    // third attempt (a catalogue write raced the second) takes every field from the statement
    // itself, which is consistent with its own answer by construction.
    const planned = facetPlanFor(plan, fresh)
    // The documents this isolate holds at the version it last read are not read again; the third
    // attempt reads every one (its answer is used whatever version it was read at).
    const heldVersion = indexVersionSeen()
    const held = attempt < 2 && heldVersion !== null ? heldDocs(heldVersion) : new Map<number, Product>()
    const compile = (f: FacetPlan) =>
      compileProductSearch(plan, vocabState?.vocab ?? new Map(), f, {
        fullOrder: Math.max(RANKED_MATCHES, plan.from + plan.size),
        narrow,
        held: [...held.keys()],
      })
    let facets = planned
    let row: ResultRow | null
    if (attempt < 2 && planned.load.length > 0) {
      // The postings are read while the statement runs, compiled as if every field to load were in
      // memory already; should one turn out not to be built (or to be counted in SQL), the
      // statement runs again with what that field needs.
      const assumed = compile({ js: [...planned.js, ...planned.load], load: [] })
      const [read, first] = await Promise.all([
        loadPersistedFacets(db, planned),
        runSearchStatement(db, assumed.sql, assumed.params),
      ])
      facets = read
      const covered = read.load.length === 0 && planned.load.every((f) => read.js.includes(f))
      const again = covered ? null : compile(read)
      row = again ? await runSearchStatement(db, again.sql, again.params) : first
    } else {
      const { sql, params } = compile(planned)
      row = await runSearchStatement(db, sql, params)
    }
    if (!row) throw new Error('The search statement returned no row')
    const version = Number(row.ver ?? 0)
    noteIndexVersion(version)
    const stale =
      (vocabState !== null && vocabState.version !== version) ||
      !facetFieldsAt(facets, version) ||
      narrow?.versions.some((v) => v !== version) === true ||
      (held.size > 0 && heldVersion !== version)
    if (stale && attempt < 2) continue
    // A statement over groups of products names the groups that match; their products are listed here.
    const groupIds =
      narrow && typeof row.idbits === 'string'
        ? idsWithBits(narrow, parseJsonColumn<number[]>(row.idbits, []))
        : undefined
    const jsCounts = countFacetsInJs(version, facets, row, groupIds)
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
    return { total, maxScore, hits: hitsOf(row, version, held), aggregations }
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
