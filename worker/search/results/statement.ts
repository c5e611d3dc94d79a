/** Running a product statement on D1: a statement over one of SQLite's own limits is a 400. */
import { SearchError } from '../dsl'
import type { ResultRow } from './product-results'

/**
 * Errors SQLite raises when one statement is beyond its own limits (memory, statement or value
 * length, expression height, columns, compound terms, function arguments). The compiler keeps
 * every accepted query within them; should one still be reached (e.g. a page of thousands of full
 * documents over D1's 1 MB value limit), the request is what is too large: a 400, not a 500.
 */
const STATEMENT_LIMIT_ERRORS =
  /SQLITE_NOMEM|SQLITE_TOOBIG|too many (columns|terms|arguments|SQL variables)|Expression tree is too large|parser stack overflow/

export async function runSearchStatement(
  db: D1Database,
  sql: string,
  params: unknown[],
): Promise<ResultRow | null> {
  try {
    return await db
      .prepare(sql)
      .bind(...params)
      .first<ResultRow>()
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err)
    if (!STATEMENT_LIMIT_ERRORS.test(message)) throw err
    console.warn(
      JSON.stringify({
        msg: 'search statement over a database limit',
        error: message.slice(0, 200),
        bytes: sql.length,
      }),
    )
    throw new SearchError(
      'Query is too complex for the database (it exceeded a statement limit: memory, length or answer size); ask for fewer clauses or fewer hits',
    )
  }
}
