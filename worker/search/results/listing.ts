/**
 * The category page's first listing request (the category and its descendants, no filter, the
 * default sort, the page's aggregations): the one query a pre-built listing row answers, and how a
 * request is recognised as it (its cache key equals the listing's built for the same categories).
 */
import { listingParams } from '@shared/components/catalog/listing-query'
import { EMPTY_LISTING_STATE } from '@shared/components/catalog/listing-state'
import { PAGE_SIZE } from '@shared/config/catalog'
import { buildCatalogQuery } from '@shared/domain/search-query'
import type { QueryNode, SearchPlan } from '../dsl'
import { resultKey } from '../held/result-sets'
import { planSearch } from '../request/plan'

/** The field the category filter of a listing is on. */
export const CATEGORY_FIELD = 'category_ids'

/** The plan of the category page's first listing request over `categoryIds` (no filter, default sort). */
export function listingPlan(categoryIds: number[]): SearchPlan {
  const q = buildCatalogQuery(listingParams(categoryIds, EMPTY_LISTING_STATE, 0, PAGE_SIZE), {
    priceBounds: true,
  })
  return planSearch({
    entityType: 'product',
    body: q.body,
    size: q.size,
    from: q.from,
    sort: q.sort || undefined,
  })
}

let shapeKey: string | null = null

/** What every listing row was built for: the listing's cache key without a category. */
export function listingShape(): string {
  shapeKey ??= resultKey(listingPlan([]))
  return shapeKey
}

/** Every terms clause on the category field in a query tree. */
function categoryClauses(node: QueryNode, out: Extract<QueryNode, { kind: 'terms' }>[]): void {
  if (node.kind === 'terms' && node.field === CATEGORY_FIELD) out.push(node)
  for (const v of Object.values(node)) {
    if (Array.isArray(v))
      for (const child of v)
        if (child && typeof child === 'object' && 'kind' in child) categoryClauses(child as QueryNode, out)
        else if (v && typeof v === 'object' && 'kind' in v) categoryClauses(v as QueryNode, out)
  }
}

/**
 * The stored key of the listing `plan` asks for, when it is a category page's default listing
 * (the ascending category ids, JSON), else null.
 */
export function prebuiltListingKey(plan: SearchPlan): string | null {
  if (plan.aggs.length === 0 || plan.minScore !== null) return null
  const clauses: Extract<QueryNode, { kind: 'terms' }>[] = []
  categoryClauses(plan.query, clauses)
  if (clauses.length !== 1) return null
  const ids = (clauses[0] as Extract<QueryNode, { kind: 'terms' }>).values
  if (ids.length === 0 || !ids.every((v) => typeof v === 'number' && Number.isSafeInteger(v) && v > 0))
    return null
  const key = resultKey(plan)
  if (resultKey(listingPlan(ids as number[])) !== key) return null
  return JSON.stringify([...new Set(ids as number[])].sort((a, b) => a - b))
}
