/**
 * What one product search may cost, estimated before its statement runs.
 *
 * The statement visits every indexed product once per pass and evaluates the query's tests on each,
 * then counts the aggregations and orders the sort keys over every match. Its time therefore grows
 * with (work per product) × (products in the catalogue). The request limits bound the first factor
 * only; this module bounds the product: a search whose estimate is over SEARCH_COST_BUDGET is refused
 * with a 400 naming what to narrow, whatever the catalogue size, so one request cannot hold the
 * database for seconds on a large catalogue.
 *
 * Work per product is counted in units of about one indexed lookup (a `terms` or `range` test),
 * mirroring how the compiler writes the statement: a test read twice (a `should` clause counted
 * towards a minimum, a function's weight in a summing score mode, a score with a `min_score`) counts
 * twice unless the compiler computes it once in a pass (it does so for long expressions; such a
 * part counts once plus its reference). Aggregations and sort keys count per match, and every
 * product may match.
 */

import { msgSearchOverBudget } from '@shared/i18n/messages'
import type { AggNode, QueryNode, SearchPlan, SortSpec } from './dsl'
import { MAX_WORDS_PER_TEXT, SearchError } from './dsl'
import { hotColumn, TEXT_FIELDS, tokenize } from './facts'

/** Units of every search: the scan, the total, the page and its live stock, the result order. */
const BASE_UNITS = 6
/** A test on one field (exact values, a range, a prefix on a keyword field). */
const TEST_UNITS = 1
/** `exists`: the field's values, then its words. */
const EXISTS_UNITS = 2
/** A prefix or phrase on a full-text field (its words as well as its values). */
const WORDS_UNITS = 2
/** The in-stock test on live inventory (the product's rows and its children's). */
const STOCK_UNITS = 4
/** One word on one short full-text field of a match (name, sku, …): its typo expansions joined to the field's words. */
const TEXT_WORD_UNITS = 0.5
/** One word on a prose field, whose words outnumber every other field's by far. */
const PROSE_WORD_UNITS = 3
const PROSE_FIELDS = new Set(['description', 'content'])
/** A keyword field of a match: one exact-value lookup. */
const KEYWORD_FIELD_UNITS = 1
/** Joining a full-text clause's matches onto the product. */
const TEXT_JOIN_UNITS = 1
/** A test longer than this is computed once in a pass and read back by name (see sql-expr `share`). */
const SHARED_ABOVE_UNITS = 12
/** Reading a value computed in a pass. */
const SHARED_READ_UNITS = 0.5
/** One bucket of a range aggregation, per match. */
const RANGE_BUCKET_UNITS = 0.5
/** A min or max aggregation, per match. */
const MIN_MAX_UNITS = 1
/** A terms aggregation, per match (its id in the filtered set, counted against the field's postings). */
const TERMS_AGG_UNITS = 1
/** A sort key held in a column of the index, per match (the page and the full result order). */
const HOT_SORT_UNITS = 3
/** A sort key read from the facts tables, per match (two lookups, for the page and the full order). */
const EAV_SORT_UNITS = 30

/**
 * Most work one search may cost, in units × indexed products. A unit over 10,000 products is
 * roughly 1 ms of statement time on the development machine, so the budget is a few hundred
 * milliseconds of database time whatever the catalogue size. The widest request the limits allow
 * (about 490 units a product) is refused above about 6,000 products.
 */
const SEARCH_COST_BUDGET = 3_000_000
/**
 * Searches of at most this many units a product are accepted at any catalogue size, without
 * reading its size: the shop's own requests are below it (its widest listing, every filter with a
 * hundred values, in stock only, a price band and every facet, is about 60; a five-word search with
 * all of that about 90; the search panel about 35). Up to 30,000 products the budget alone decides.
 */
const UNCHECKED_UNITS = 100

interface Units {
  /** Whether a product matches. */
  cond: number
  /** Its score (read only when it matches, but written out in full). */
  score: number
}

/** Where an estimate comes from, to say what to narrow. */
interface CostEstimate {
  /** Units per product in all. */
  perProduct: number
  /** Units per product of the query's clauses, the aggregations and the sort. */
  query: number
  aggs: number
  sort: number
}

class Walk {
  /** Units of tests computed once in a pass (counted once, wherever they are read). */
  hoisted = 0

  /** A test read more than once: long ones are computed once. */
  shared(units: number, reads: number): number {
    if (units > SHARED_ABOVE_UNITS) {
      this.hoisted += units
      return SHARED_READ_UNITS * reads
    }
    return units * reads
  }

  node(n: QueryNode): Units {
    switch (n.kind) {
      case 'match_all':
      case 'match_none':
        return { cond: 0, score: 0 }
      case 'terms':
        return { cond: n.field === 'stock.is_in_stock' ? STOCK_UNITS : TEST_UNITS, score: 0 }
      case 'range':
        return { cond: TEST_UNITS, score: 0 }
      case 'exists':
        return { cond: EXISTS_UNITS, score: 0 }
      case 'prefix':
      case 'phrase':
        return { cond: TEXT_FIELDS.has(n.field) ? WORDS_UNITS : TEST_UNITS, score: 0 }
      case 'match': {
        const text = n.fields.filter((f) => TEXT_FIELDS.has(f.field))
        if (text.length === 0 && n.fields.length === 1) return { cond: TEST_UNITS, score: 0 }
        const words = Math.max(1, Math.min(MAX_WORDS_PER_TEXT, new Set(tokenize(n.query)).size))
        let units = TEXT_JOIN_UNITS + (n.fields.length - text.length) * KEYWORD_FIELD_UNITS
        for (const f of text)
          units += words * (PROSE_FIELDS.has(f.field) ? PROSE_WORD_UNITS : TEXT_WORD_UNITS)
        // The matches are computed once for the statement and joined on: each product reads them.
        this.hoisted += units
        return { cond: SHARED_READ_UNITS, score: SHARED_READ_UNITS }
      }
      case 'bool': {
        let cond = 0
        let score = 0
        for (const ch of n.must) {
          const u = this.node(ch)
          cond += u.cond
          score += u.score
        }
        for (const ch of [...n.filter, ...n.mustNot]) cond += this.node(ch).cond
        for (const ch of n.should) {
          const u = this.node(ch)
          if (n.minimumShouldMatch > 0) {
            // The test decides the match and gates the score: read twice.
            const read = this.shared(u.cond, 2)
            cond += read / 2
            score += read / 2 + u.score
          } else {
            score += u.cond + u.score
          }
        }
        return { cond, score }
      }
      case 'function_score': {
        const q = this.node(n.query)
        const repeated = n.scoreMode !== 'multiply' && n.scoreMode !== 'first'
        let fns = 0
        for (const fn of n.functions) {
          const test = fn.filter ? this.node(fn.filter).cond + TEST_UNITS : TEST_UNITS
          fns += repeated ? this.shared(test, 3) : test
        }
        const score = q.score + fns
        if (n.minScore === null) return { cond: q.cond, score }
        // The score decides the match and is the score: read twice.
        const read = this.shared(score, 2)
        return { cond: q.cond + read / 2, score: read / 2 }
      }
    }
  }
}

function aggUnits(agg: AggNode): number {
  if (agg.kind === 'range') return agg.ranges.length * RANGE_BUCKET_UNITS
  if (agg.kind === 'terms') return TERMS_AGG_UNITS
  return MIN_MAX_UNITS
}

function sortUnits(s: SortSpec): number {
  if (s.field === '_score') return 0
  const hot = hotColumn(s.field)
  return hot && hot.kind !== 'term' ? HOT_SORT_UNITS : EAV_SORT_UNITS
}

/** The estimated work per product of a plan. */
export function estimateSearchCost(plan: SearchPlan): CostEstimate {
  const walk = new Walk()
  const q = walk.node(plan.query)
  const query = q.cond + q.score + walk.hoisted
  const aggs = plan.aggs.reduce((n, a) => n + aggUnits(a), 0)
  const sort = plan.sort.reduce((n, s) => n + sortUnits(s), 0)
  return { perProduct: BASE_UNITS + query + aggs + sort, query, aggs, sort }
}

/**
 * Whether a search of this many units a product is accepted over this many products: at most the
 * budget in all, or at most UNCHECKED_UNITS a product (the shop's own searches) at any size.
 */
export function withinSearchBudget(perProduct: number, products: number): boolean {
  return perProduct <= UNCHECKED_UNITS || perProduct * products <= SEARCH_COST_BUDGET
}

/** Products in the search index (the statement visits each). */
async function indexedProducts(db: D1Database): Promise<number> {
  const row = await db.prepare('SELECT COUNT(*) AS n FROM search_docs').first<{ n: number }>()
  return Number(row?.n ?? 0)
}

/**
 * Refuses (SearchError, a 400) a search whose estimated work over this catalogue is over the
 * budget, naming the part that weighs most. Light searches are let through without reading the
 * catalogue size.
 */
export async function checkSearchCost(db: D1Database, plan: SearchPlan): Promise<void> {
  const est = estimateSearchCost(plan)
  if (est.perProduct <= UNCHECKED_UNITS) return
  const products = await indexedProducts(db)
  if (withinSearchBudget(est.perProduct, products)) return
  const cost = Math.round(est.perProduct * products)
  const parts = [
    { part: 'query' as const, units: est.query },
    { part: 'aggregations' as const, units: est.aggs },
    { part: 'sort' as const, units: est.sort },
  ].sort((a, b) => b.units - a.units)
  throw new SearchError(
    msgSearchOverBudget({
      cost,
      budget: SEARCH_COST_BUDGET,
      products,
      heaviest: (parts[0] as (typeof parts)[number]).part,
    }),
  )
}
