/**
 * Product searches on D1: one statement for the page, total, aggregations and live stock, with the
 * per-isolate caches (result sets, documents, facet index, vocabulary) checked against the index
 * version every statement returns.
 */
import type { Product } from '@shared/schemas/catalog'
import type { SearchPlan } from '../dsl'
import { deepFreeze, heldDocs } from '../held/documents'
import { type FacetPlan, facetFieldsAt, facetPlanFor, loadPersistedFacets } from '../held/facet-index'
import { indexVersionSeen, noteIndexVersion } from '../held/index-version'
import { keepResult, resultKey } from '../held/result-sets'
import { cachedVocabulary, loadVocabulary } from '../held/vocabulary'
import { idsWithBits } from '../narrow/visit-list'
import { checkSearchCost } from '../request/cost'
import { planSearch, RANKED_MATCHES, type SearchCatalogRequest } from '../request/plan'
import { type EngineResult, needsVocabulary } from '../semantics/results'
import { compileProductSearch } from '../sql/compile-sql'
import { pageFromCache, pageFromPrebuilt } from './cached-pages'
import { countFacetsInJs } from './facet-counts'
import { narrowing } from './narrowing'
import { aggregationsOf, hitsOf, parseJsonColumn, type ResultRow } from './product-results'
import { runSearchStatement } from './statement'

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
    // The statement visits only the products the held postings leave (narrow/); the third
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
    // Frozen: the set keeps it and every later page of the set answers with this same object.
    const aggregations = deepFreeze(aggregationsOf(plan, row, jsCounts))
    const ord = parseJsonColumn<[number, number, number][]>(row.ord, []).sort((x, y) => x[0] - y[0])
    keepResult(key, {
      version,
      ids: Int32Array.from(ord, (o) => o[1]),
      scores: Float64Array.from(ord, (o) => o[2]),
      total,
      maxScore,
      aggregations,
    })
    return { total, maxScore, hits: hitsOf(row, version, held), aggregations }
  }
}
