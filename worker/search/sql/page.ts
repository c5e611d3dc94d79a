/** Reading a page: its documents, their live stock, and the sort keys of filtered products. */
import type { SortSpec } from '../dsl'
import { VERSION_COLUMN } from '../held/index-version'
import { hotColumn } from '../semantics/facts'
import type { Params } from './sql-expr'
/** A sort key of a filtered product (f): its hot column when it has one, else its facts. */
export function sortExpr(s: SortSpec, p: Params): string {
  if (s.field === '_score') return 'score'
  const agg = s.order === 'asc' ? 'MIN' : 'MAX'
  const f = p.add(s.field)
  const eav = `COALESCE((SELECT ${agg}(value) FROM search_numbers WHERE product_id = f.id AND field = ${f}), (SELECT ${agg}(value) FROM search_terms WHERE product_id = f.id AND field = ${f}))`
  const hot = hotColumn(s.field)
  // Term columns hold text, which would sort numbers as strings: only number/text columns sort.
  return hot && hot.kind !== 'term' ? `COALESCE(f.${hot.column}, ${eav})` : eav
}

export const INVENTORY_JSON =
  "json_object('sku', i.sku, 'product_id', i.product_id, 'parent_sku', i.parent_sku, 'qty', i.qty, 'is_in_stock', i.is_in_stock, 'manage_stock', i.manage_stock, 'backorders', i.backorders)"

/**
 * One page of a cached result set: the documents of the ids in ?1 (JSON array; the engine already
 * holds the others) as `hits` ([[position, id, null, doc]]), the live inventory of every page id
 * in ?2 (`inv`) and the index version (`ver`).
 */
export const PAGE_FETCH_SQL = `SELECT (SELECT json_group_array(json_array(j.key, p.id, NULL, json(p.doc))) FROM json_each(?1) j CROSS JOIN products p ON p.id = j.value) AS hits,
(SELECT json_group_array(${INVENTORY_JSON}) FROM json_each(?2) j CROSS JOIN search_docs sd ON sd.product_id = j.value CROSS JOIN inventory i ON i.sku = sd.sku OR i.parent_sku = sd.sku) AS inv,
${VERSION_COLUMN}`
