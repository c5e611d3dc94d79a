/** Rows the worker tests read from, and set in, the shop's D1 database. */
import { env } from 'cloudflare:test'

/** The `n` of a `SELECT COUNT(*) AS n …` statement run with these bound values. */
export async function countRows(sql: string, ...values: unknown[]): Promise<number> {
  const row = await env.DB.prepare(sql)
    .bind(...values)
    .first<{ n: number }>()
  if (!row) throw new Error(`countRows: no row from ${sql}`)
  return row.n
}

/**
 * Sells out `sku` and every variant of it (qty 0, out of stock); returns what puts their stock back
 * as it was.
 */
export async function sellOutFamily(sku: string): Promise<() => Promise<void>> {
  const rows = await env.DB.prepare(
    'SELECT sku, qty, is_in_stock FROM inventory WHERE sku = ?1 OR parent_sku = ?1',
  )
    .bind(sku)
    .all<{ sku: string; qty: number; is_in_stock: number }>()
  if (rows.results.length === 0) throw new Error(`sellOutFamily: no inventory for ${sku}`)
  await env.DB.prepare('UPDATE inventory SET qty = 0, is_in_stock = 0 WHERE sku = ?1 OR parent_sku = ?1')
    .bind(sku)
    .run()
  return async () => {
    await env.DB.batch(
      rows.results.map((r) =>
        env.DB.prepare('UPDATE inventory SET qty = ?, is_in_stock = ? WHERE sku = ?').bind(
          r.qty,
          r.is_in_stock,
          r.sku,
        ),
      ),
    )
  }
}
