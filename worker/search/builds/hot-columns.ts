/**
 * The build of the stored hot columns (migration 0170), read back by held/hot-columns.ts: per hot
 * field and part of the product ids, the ids and their values as text.
 */
import { HOT_COLUMNS } from '../semantics/facts'

/** Ids per stored part (a part's text stays far below D1's 2 MB value limit). */
const PART_IDS = 32768

/** Longest text of one stored part (a part over it is not written, so its field is not used). */
const MAX_PART_TEXT = 1_000_000

/**
 * The statements that (re)build the stored hot columns from search_docs, one per field (a write
 * landing between two of them leaves the later fields built and the earlier ones emptied, never a
 * field half-built). Run with the facet postings, after the catalogue's index rows are written.
 */
export function hotColumnStatements(db: D1Database): D1PreparedStatement[] {
  return [
    db.prepare('DELETE FROM search_hot'),
    ...HOT_COLUMNS.map((h) => {
      const value =
        h.kind === 'text'
          ? `CASE WHEN ${h.column} IS NULL THEN NULL ELSE DENSE_RANK() OVER (ORDER BY ${h.column}) END`
          : h.column
      const vals = h.kind === 'term' ? 'json_group_array(v)' : "group_concat(COALESCE(v, ''), ',')"
      return db
        .prepare(
          `INSERT OR REPLACE INTO search_hot (field, part, total, n, ids, vals) SELECT ?1, part, (SELECT COUNT(*) FROM search_docs), n, ids, vals FROM (SELECT part, COUNT(*) AS n, group_concat(product_id, ',') AS ids, ${vals} AS vals FROM (SELECT product_id / ${PART_IDS} AS part, product_id, ${value} AS v FROM search_docs) GROUP BY part) WHERE length(vals) <= ${MAX_PART_TEXT}`,
        )
        .bind(h.field)
    }),
  ]
}
