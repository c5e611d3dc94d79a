/** Row counts the worker tests read straight from the shop's D1 database. */
import { env } from 'cloudflare:test'

/** The `n` of a `SELECT COUNT(*) AS n …` statement run with these bound values. */
export async function countRows(sql: string, ...values: unknown[]): Promise<number> {
  const row = await env.DB.prepare(sql)
    .bind(...values)
    .first<{ n: number }>()
  if (!row) throw new Error(`countRows: no row from ${sql}`)
  return row.n
}
