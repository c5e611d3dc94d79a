/**
 * The statement's aggregation columns: one per aggregation (a0..aN), and for terms aggregations
 * either the counts in SQL (aterms) or what the engine's facet index needs (ids, fac).
 */
import type { AggNode, SearchPlan } from '../dsl'
import type { FacetPlan } from '../held/facet-index'
import { hotColumn } from '../semantics/facts'
import { MAX_FUNCTION_ARGS, type Params } from './sql-expr'

/**
 * A JSON array of many values within the function-argument limit: up to MAX_FUNCTION_ARGS values
 * as one array, more as an array of such arrays (the reader flattens one level).
 */
function jsonArray(values: string[]): string {
  if (values.length <= MAX_FUNCTION_ARGS) return `json_array(${values.join(', ')})`
  const groups: string[] = []
  for (let i = 0; i < values.length; i += MAX_FUNCTION_ARGS)
    groups.push(`json_array(${values.slice(i, i + MAX_FUNCTION_ARGS).join(', ')})`)
  return jsonArray(groups)
}

/**
 * A product of `f` counts in a range bucket when any of its values lies in [from, to): the index's
 * hot column when the product has it there, else its rows in `search_numbers`.
 */
export function inRangeBucket(
  r: { from?: number; to?: number },
  fld: string,
  hotNum: string | null,
  p: Params,
): string {
  const test = (col: string) =>
    [
      r.from !== undefined ? `${col} >= ${p.add(r.from)}` : '',
      r.to !== undefined ? `${col} < ${p.add(r.to)}` : '',
    ]
      .filter(Boolean)
      .join(' AND ') || '1'
  const eav = `EXISTS (SELECT 1 FROM search_numbers n WHERE n.product_id = f.id AND n.field = ${fld} AND ${test('n.value')})`
  return hotNum ? `((${hotNum} IS NOT NULL AND ${test(hotNum)}) OR (${hotNum} IS NULL AND ${eav}))` : eav
}

/**
 * Columns a0..aN: terms (whether the field holds numbers), range ([count per range]), min/max. A
 * range aggregation in `aggBits` is counted from the bits each product carries (f.cm), one per
 * range; `fromGroups`: from the bits of each matching group of products and its size (fg.cm, fg.n),
 * when every aggregation is a terms one or such a range one.
 */
export function aggregationColumns(
  plan: SearchPlan,
  p: Params,
  aggBits: Map<AggNode, number[]> = new Map(),
  fromGroups = false,
): string[] {
  const cols: string[] = []
  plan.aggs.forEach((agg: AggNode, i) => {
    // Bound only where read (D1 refuses a statement with a parameter it does not use).
    const field = () => p.add(agg.field)
    const hot = hotColumn(agg.field)
    const hotNum = hot?.kind === 'number' ? `f.${hot.column}` : null
    if (agg.kind === 'terms') {
      // Counted in one shared pass below.
      cols.push(`EXISTS (SELECT 1 FROM search_numbers WHERE field = ${field()}) AS a${i}`)
    } else if (agg.kind === 'range') {
      // One pass over f: a product counts in a range when any of its values lies in [from, to).
      const bits = aggBits.get(agg)
      if (fromGroups && !bits) throw new Error('a range aggregation without bits is counted per product')
      const counts = bits
        ? bits.map((b) => `COALESCE(SUM(${fromGroups ? 'n * ' : ''}((cm >> ${b}) & 1)), 0)`)
        : agg.ranges.map((r) => `COUNT(CASE WHEN ${inRangeBucket(r, field(), hotNum, p)} THEN 1 END)`)
      cols.push(`(SELECT ${jsonArray(counts)} FROM ${fromGroups ? 'fg' : 'f'}) AS a${i}`)
    } else {
      if (fromGroups) throw new Error(`a ${agg.kind} aggregation is computed per product`)
      const fn = agg.kind === 'min' ? 'MIN' : 'MAX'
      const eav = `(SELECT ${fn}(n.value) FROM search_numbers n WHERE n.product_id = f.id AND n.field = ${field()})`
      cols.push(`(SELECT ${fn}(${hotNum ? `COALESCE(${hotNum}, ${eav})` : eav}) FROM f) AS a${i}`)
    }
  })
  return cols
}

/**
 * The facet-index columns (`ids`: the filtered product ids, or `idbits` `fromGroups`: the bits of
 * the matching groups, whose listed products the engine knows; `fac`: postings of the fields being
 * loaded) and the terms fields left to count in SQL.
 */
export function facetColumns(
  plan: SearchPlan,
  facets: FacetPlan,
  p: Params,
  fromGroups = false,
): { cols: string[]; termFields: string[] } {
  const cols: string[] = []
  const inJs = new Set([...facets.js, ...facets.load])
  const allTermFields = [...new Set(plan.aggs.filter((a) => a.kind === 'terms').map((a) => a.field))]
  const termFields = allTermFields.filter((f) => !inJs.has(f))
  if (allTermFields.some((f) => inJs.has(f))) {
    // The filtered set's ids: the engine counts these fields from its facet index (one pass in JS
    // instead of a GROUP BY over every (product, value) row of the set).
    cols.push(
      fromGroups
        ? '(SELECT json_group_array(cm) FROM fg) AS idbits'
        : '(SELECT json_group_array(id) FROM f) AS ids',
    )
  }
  const load = facets.load.filter((f) => allTermFields.includes(f))
  if (load.length > 0) {
    // Postings of the fields the engine has not indexed yet (read in primary-key order, no sort).
    cols.push(
      `(SELECT json_group_array(json_array(field, value, json(ids))) FROM (SELECT field, value, json_group_array(product_id) AS ids FROM search_terms WHERE field IN (${load.map((f) => p.add(f)).join(', ')}) GROUP BY field, value)) AS fac`,
    )
  }
  return { cols, termFields }
}

/** The `aterms` column: [[field, value, count]] of the SQL-counted terms fields, or null when none. */
export function termCountsColumn(termFields: string[], p: Params): string | null {
  if (termFields.length === 0) return null
  // Every terms aggregation in ONE pass: f stays the outer loop (CROSS JOIN) and each matching
  // product's values of all the aggregated fields are read with one index range per field; the
  // top-N per aggregation is taken when the answer is assembled.
  return `(SELECT json_group_array(json_array(b.field, b.value, b.cnt)) FROM (SELECT t.field AS field, t.value AS value, COUNT(*) AS cnt FROM f CROSS JOIN search_terms t ON t.product_id = f.id AND t.field IN (${termFields.map((f) => p.add(f)).join(', ')}) GROUP BY t.field, t.value) b) AS aterms`
}
