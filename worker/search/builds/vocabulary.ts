/**
 * The build of the stored vocabulary (migration 0130): the distinct tokens per text field in
 * ascending parts, and a closing row with their count; read back by held/vocabulary.ts.
 */
import { BUILT } from '../held/stored-builds'

/** Most tokens in one stored vocabulary part (keeps every row far below D1's value limit). */
const TOKENS_PER_PART = 4000

/** The statements that (re)build the stored vocabulary from search_tokens. */
export function vocabularyStatements(db: D1Database): D1PreparedStatement[] {
  return [
    db.prepare(
      `INSERT OR REPLACE INTO search_vocabulary (field, part, n, tokens) SELECT field, part, COUNT(*), json_group_array(token) FROM (SELECT field, token, (row_number() OVER (PARTITION BY field ORDER BY token) - 1) / ${TOKENS_PER_PART} AS part FROM (SELECT DISTINCT field, token FROM search_tokens WHERE field <> '${BUILT}') ORDER BY field, token) GROUP BY field, part`,
    ),
    db.prepare(
      `INSERT OR REPLACE INTO search_vocabulary (field, part, n, tokens) SELECT '${BUILT}', 0, COUNT(*), '[]' FROM (SELECT DISTINCT field, token FROM search_tokens WHERE field <> '${BUILT}')`,
    ),
  ]
}
