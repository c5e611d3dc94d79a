/**
 * Pages answered without the search statement: from the result set this isolate holds for the
 * query, or from the category listing the catalogue build stored, with one read of the page's
 * documents and live stock (and the version, checked against the set's).
 */
import type { Product } from '@shared/schemas/catalog'
import type { SearchPlan } from '../dsl'
import { deepFreeze, heldDoc, keepDoc } from '../held/documents'
import { noteIndexVersion } from '../held/index-version'
import { pageStock } from '../held/live-stock'
import { dropResult, keepResult, resultSetAt } from '../held/result-sets'
import { dropVocabularyUnless } from '../held/vocabulary'
import type { EngineResult } from '../semantics/results'
import { PAGE_FETCH_SQL } from '../sql/page'
import { prebuiltListingKey } from './listing'
import { readPrebuiltListing } from './prebuilt-listing'
import { aggregationsOf, parseJsonColumn, type ResultRow } from './product-results'
/**
 * Serves a page from a cached result set, or null when there is none at the current index version.
 * `fetched`: the page read already made for exactly this set's page (with a pre-built listing).
 */
export async function pageFromCache(
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
  const stock = pageStock(page)
  const row =
    fetched ??
    (await db
      .prepare(PAGE_FETCH_SQL)
      .bind(JSON.stringify(missing), JSON.stringify(page), stock.clock)
      .first<ResultRow>())
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
  const merge = stock.merger(row)
  const hits: EngineResult['hits'] = []
  page.forEach((id, i) => {
    const doc = held.get(id)
    // A listed id without a document (deleted without a reindex) is skipped, as a fresh read would.
    if (doc)
      hits.push({
        id,
        score: set.scores[plan.from + i] as number,
        source: merge(doc) as unknown as Record<string, unknown>,
      })
  })
  return {
    total: set.total,
    maxScore: set.maxScore,
    hits,
    // Frozen and the same object for every page of the set: what is built from it can be kept by it.
    aggregations: set.aggregations,
  }
}

/**
 * Serves a category page's default listing from its pre-built result set (prebuilt-listing.ts) when the
 * catalogue writer built one for this version: the set is kept as the statement would have kept it,
 * then the page is read from it. Null when the plan is not such a listing or nothing usable is stored.
 */
export async function pageFromPrebuilt(
  db: D1Database,
  plan: SearchPlan,
  key: string,
): Promise<EngineResult | null> {
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
    aggregations: deepFreeze(aggregationsOf(plan, listing.row)),
  })
  return pageFromCache(db, plan, key, listing.page)
}
