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

/** The stock clock (migration 0400): it moves on with every change to a row of inventory. */
export const STOCK_CLOCK = "(SELECT value FROM search_meta WHERE key = 'stock')"

/**
 * A page read: the documents of the ids in `docIds` (a JSON array; the engine already holds the
 * others) as `hits` ([[position, id, null, doc]]), the stock clock (`clk`), the live inventory of
 * every id in `pageIds` (`inv`) unless the clock is `heldClock` (the clock at which the isolate
 * last read this page's stock: then `inv` is NULL and what it holds is current), and the index
 * version (`ver`). One statement: the clock and the stock are of one snapshot.
 */
export function pageFetchSql(docIds: string, pageIds: string, heldClock: string): string {
  return `SELECT (SELECT json_group_array(json_array(j.key, p.id, NULL, json(p.doc))) FROM json_each(${docIds}) j CROSS JOIN products p ON p.id = j.value) AS hits,
${STOCK_CLOCK} AS clk,
CASE WHEN ${STOCK_CLOCK} = ${heldClock} THEN NULL ELSE (SELECT json_group_array(${INVENTORY_JSON}) FROM json_each(${pageIds}) j CROSS JOIN search_docs sd ON sd.product_id = j.value CROSS JOIN inventory i ON i.sku = sd.sku OR i.parent_sku = sd.sku) END AS inv,
${VERSION_COLUMN}`
}

/** One page of a cached result set: ?1 the ids to read documents of, ?2 the page's ids, ?3 the clock held. */
export const PAGE_FETCH_SQL = pageFetchSql('?1', '?2', '?3')
