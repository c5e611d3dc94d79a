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
 *
 * A light query (at most UNCHECKED_UNITS a product) counts nothing on its own, but once its page is
 * counted (more than UNCHECKED_PAGE_SIZE hits) its aggregations count in full.
 *
 * The page counts in the same currency (work = units × products, about 0.1 µs each on the
 * development machine): every byte of its documents is read, parsed, priced and written out once
 * (about one unit of work a byte), and a result window reaching past the matches every statement
 * ranks keeps one more entry of the result order per match. The documents' bytes are bounded before
 * any is read: `size` times the largest document of the catalogue.
 */

import { msgSearchOverBudget } from '@shared/i18n/messages'
import {
  type AggNode,
  MAX_WORDS_PER_TEXT,
  type QueryNode,
  SearchError,
  type SearchPlan,
  type SortSpec,
} from '../dsl'
import { hotColumn, IN_STOCK_FIELD, TEXT_FIELDS, tokenize } from '../semantics/facts'
import { RANKED_MATCHES } from './plan'

/** Work per product of each part of a search, in units of about one indexed lookup. */
const UNITS = {
  /** Every search: the scan, the total, the page and its live stock, the result order. */
  base: 6,
  /** A test on one field (exact values, a range, a prefix on a keyword field). */
  test: 1,
  /**
   * `exists`: the field's values, then its words, looked up per product unless the held postings
   * answer it. Measured at 10,000 products: 8–14 ms a clause the postings do not answer (a should
   * clause; a category or full-text field), so 14 units.
   */
  exists: 14,
  /** A prefix or phrase on a full-text field (its words as well as its values). */
  words: 2,
  /** The in-stock test on live inventory (the product's rows and its children's). */
  stock: 4,
  /** One word on one short full-text field of a match (name, sku, …): its typo expansions joined to the field's words. */
  textWord: 0.5,
  /** One word on a prose field, whose words outnumber every other field's by far. */
  proseWord: 3,
  /** A keyword field of a match: one exact-value lookup. */
  keywordField: 1,
  /** Joining a full-text clause's matches onto the product. */
  textJoin: 1,
  /** A test longer than this is computed once in a pass and read back by name (see sql-expr `share`). */
  sharedAbove: 12,
  /** Reading a value computed in a pass. */
  sharedRead: 0.5,
  /** One bucket of a range aggregation, per match. */
  rangeBucket: 0.5,
  /** A min or max aggregation, per match. */
  minMax: 1,
  /** A terms aggregation, per match (its id in the filtered set, counted against the field's postings). */
  termsAgg: 1,
  /** A sort key held in a column of the index, per match (the page and the full result order). */
  hotSort: 3,
  /** A sort key read from the facts tables, per match (two lookups, for the page and the full order). */
  eavSort: 30,
} as const

/** The prose fields, whose words count as `UNITS.proseWord`. */
const PROSE_FIELDS = new Set(['description', 'content'])

/**
 * Most work one search may cost, in units × indexed products. A unit over 10,000 products is
 * roughly 1 ms of statement time on the development machine, so the budget is a few hundred
 * milliseconds of database time whatever the catalogue size. The widest request the limits allow
 * (about 490 units a product) is refused above about 6,000 products.
 */
export const SEARCH_COST_BUDGET = 3_000_000
/**
 * Searches of at most this many units a product are accepted at any catalogue size, without
 * reading its size: the shop's own requests are below it (its widest listing, every filter with a
 * hundred values, in stock only, a price band and every facet, is about 60; a five-word search with
 * all of that about 90; the search panel about 35). Up to 30,000 products the budget alone decides.
 */
const UNCHECKED_UNITS = 100
/** Work of one byte of a page's documents: read, parsed, priced and written out in the answer. */
const PAGE_BYTE_WORK = 1
/** Work of one entry of the kept result order past RANKED_MATCHES (about 25 bytes of JSON, read back). */
const RANKED_ENTRY_WORK = 25
/**
 * A light query (at most UNCHECKED_UNITS a product) with a page of at most this many hits is
 * accepted without reading anything: the shop's own pages are 24 (their result window, up to
 * 10,000, is at most 250,000 work). Any other search counts its page in the budget.
 */
const UNCHECKED_PAGE_SIZE = 50

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
    if (units > UNITS.sharedAbove) {
      this.hoisted += units
      return UNITS.sharedRead * reads
    }
    return units * reads
  }

  node(n: QueryNode): Units {
    switch (n.kind) {
      case 'match_all':
      case 'match_none':
        return { cond: 0, score: 0 }
      case 'terms':
        return { cond: n.field === IN_STOCK_FIELD ? UNITS.stock : UNITS.test, score: 0 }
      case 'range':
        return { cond: UNITS.test, score: 0 }
      case 'exists':
        return { cond: UNITS.exists, score: 0 }
      case 'prefix':
      case 'phrase':
        return { cond: TEXT_FIELDS.has(n.field) ? UNITS.words : UNITS.test, score: 0 }
      case 'match': {
        const text = n.fields.filter((f) => TEXT_FIELDS.has(f.field))
        if (text.length === 0 && n.fields.length === 1) return { cond: UNITS.test, score: 0 }
        const words = Math.max(1, Math.min(MAX_WORDS_PER_TEXT, new Set(tokenize(n.query)).size))
        let units = UNITS.textJoin + (n.fields.length - text.length) * UNITS.keywordField
        for (const f of text) units += words * (PROSE_FIELDS.has(f.field) ? UNITS.proseWord : UNITS.textWord)
        // The matches are computed once for the statement and joined on: each product reads them.
        this.hoisted += units
        return { cond: UNITS.sharedRead, score: UNITS.sharedRead }
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
          const test = fn.filter ? this.node(fn.filter).cond + UNITS.test : UNITS.test
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
  if (agg.kind === 'range') return agg.ranges.length * UNITS.rangeBucket
  if (agg.kind === 'terms') return UNITS.termsAgg
  return UNITS.minMax
}

function sortUnits(s: SortSpec): number {
  if (s.field === '_score') return 0
  const hot = hotColumn(s.field)
  return hot && hot.kind !== 'term' ? UNITS.hotSort : UNITS.eavSort
}

/** The estimated work per product of a plan. */
export function estimateSearchCost(plan: SearchPlan): CostEstimate {
  const walk = new Walk()
  const q = walk.node(plan.query)
  const query = q.cond + q.score + walk.hoisted
  const aggs = plan.aggs.reduce((n, a) => n + aggUnits(a), 0)
  const sort = plan.sort.reduce((n, s) => n + sortUnits(s), 0)
  return { perProduct: UNITS.base + query + aggs + sort, query, aggs, sort }
}

/**
 * The page's hits travel from D1 as one JSON value, and D1 refuses a value over 2,000,000 bytes.
 * Each hit wraps its document in its rank, id and score: `[rank,id,score,` … `],`, at most 48 bytes
 * (a rank of 5 digits, an id of 10, a score of 24 characters, brackets and commas).
 */
const MAX_ANSWER_VALUE_BYTES = 2_000_000
const HIT_WRAPPING_BYTES = 48

/** Most bytes of documents a page of `size` hits may read: what one value carries, less the wrapping. */
function maxPageDocBytes(size: number): number {
  return MAX_ANSWER_VALUE_BYTES - 2 - size * HIT_WRAPPING_BYTES
}

/**
 * The work of a page whose documents weigh at most `docBytes`: those bytes, and the result order
 * kept past RANKED_MATCHES.
 */
function pageWork(page: { from: number; size: number }, docBytes: number): number {
  const window = Math.max(0, page.from + page.size - RANKED_MATCHES)
  return docBytes * PAGE_BYTE_WORK + window * RANKED_ENTRY_WORK
}

/**
 * Whether a search of this many units a product and this page work is accepted over this many
 * products: at most the budget in all, where a query of at most UNCHECKED_UNITS a product (the
 * shop's own searches) counts nothing at any catalogue size.
 */
export function withinSearchBudget(perProduct: number, products: number, page = 0): boolean {
  return queryWork(perProduct, products) + page <= SEARCH_COST_BUDGET
}

function queryWork(perProduct: number, products: number): number {
  return perProduct <= UNCHECKED_UNITS ? 0 : perProduct * products
}

/**
 * What the estimate needs of the catalogue, in one read that opens no document: the products in the
 * search index (the statement visits each) and the bytes of its `size` largest documents, which
 * bound those of any page of `size` hits (read from the index of migration 0240: `size` entries).
 */
async function catalogueFigures(
  db: D1Database,
  size: number,
): Promise<{ products: number; docBytes: number }> {
  const row = await db
    .prepare(
      'SELECT (SELECT COUNT(*) FROM search_docs) AS n, (SELECT SUM(b) FROM (SELECT length(CAST(doc AS BLOB)) AS b FROM products ORDER BY length(CAST(doc AS BLOB)) DESC LIMIT ?1)) AS b',
    )
    .bind(size)
    .first<{ n: number; b: number | null }>()
  return { products: Number(row?.n ?? 0), docBytes: Number(row?.b ?? 0) }
}

/**
 * Refuses (SearchError, a 400) a search whose page could read more documents than one answer
 * carries, or whose estimated work over this catalogue is over the budget, naming the part that
 * weighs most. Its one read (catalogueFigures) comes before anything else of the search runs, and
 * light searches (a query of at most UNCHECKED_UNITS a product, a page of at most
 * UNCHECKED_PAGE_SIZE hits: the shop's own) are let through without it.
 */
export async function checkSearchCost(db: D1Database, plan: SearchPlan): Promise<void> {
  const est = estimateSearchCost(plan)
  if (est.perProduct <= UNCHECKED_UNITS && plan.size <= UNCHECKED_PAGE_SIZE) return
  const { products, docBytes } = await catalogueFigures(db, plan.size)
  const carried = maxPageDocBytes(plan.size)
  if (docBytes > carried)
    throw new SearchError(
      `A page of ${plan.size} hits may hold up to ${docBytes.toLocaleString('en-US')} bytes of product documents (the catalogue's ${plan.size} largest), more than one answer carries (${carried.toLocaleString('en-US')}): ask for fewer hits at a time (a smaller size)`,
    )
  const page = pageWork(plan, docBytes)
  // A light query's aggregations count once its page is counted: they are computed over every
  // match whatever the page, and a large page is no shop listing.
  const light = est.perProduct <= UNCHECKED_UNITS
  const query = light ? est.aggs * products : queryWork(est.perProduct, products)
  if (query + page <= SEARCH_COST_BUDGET) return
  const parts = [
    { part: 'query' as const, work: light ? 0 : est.query * products },
    { part: 'aggregations' as const, work: est.aggs * products },
    { part: 'sort' as const, work: light ? 0 : est.sort * products },
    { part: 'page' as const, work: page },
  ].sort((a, b) => b.work - a.work)
  throw new SearchError(
    msgSearchOverBudget({
      cost: Math.round(query + page),
      budget: SEARCH_COST_BUDGET,
      products,
      heaviest: (parts[0] as (typeof parts)[number]).part,
    }),
  )
}
