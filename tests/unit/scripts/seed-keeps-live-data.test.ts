// The seed as `npm run seed` runs it (the SQL files it hands to wrangler), applied to a real SQLite
// database after every migration: the schema alone brings no demo coupons, the seed does, and a
// reseed keeps the reviews, stock and coupons the live shop has unless told to reset them.
import type { DatabaseSync } from 'node:sqlite'
import { describe, expect, it } from 'vitest'
import { seedSqlChunks } from '../../../scripts/catalogue/seed/node-entry'
import { migratedDb } from '../../helpers/sqlite'

const seed = (db: DatabaseSync, keep?: { reviews?: boolean; stock?: boolean }) => {
  for (const { sql } of seedSqlChunks({ keep })) db.exec(sql)
}
const count = (db: DatabaseSync, sql: string) => (db.prepare(sql).get() as { n: number }).n

describe('seed and live data', () => {
  it('migrations create no coupons; the demo seed adds the demo ones', () => {
    const db = migratedDb()
    expect(count(db, 'SELECT COUNT(*) AS n FROM coupons')).toBe(0)
    seed(db)
    const codes = (db.prepare('SELECT code FROM coupons ORDER BY code').all() as { code: string }[]).map(
      (r) => r.code,
    )
    expect(codes).toEqual(['FLAT500', 'MONSOON25', 'WELCOME10'])
  }, 60_000)

  it('a reseed keeps live stock, reviews and a changed coupon unless a reset is asked for', () => {
    const db = migratedDb()
    seed(db)
    const { sku, qty } = db.prepare('SELECT sku, qty FROM inventory ORDER BY sku LIMIT 1').get() as {
      sku: string
      qty: number
    }
    db.prepare('UPDATE inventory SET qty = ? WHERE sku = ?').run(qty + 41, sku)
    const reviews = count(db, 'SELECT COUNT(*) AS n FROM reviews')
    const productId = (db.prepare('SELECT id FROM products LIMIT 1').get() as { id: number }).id
    db.prepare(
      "INSERT INTO reviews (id, product_id, review_status, created_at, doc) VALUES (987654, ?, 1, '2026-11-01', '{}')",
    ).run(productId)
    db.exec("UPDATE coupons SET is_active = 0 WHERE code = 'WELCOME10'")
    const qtyOf = () =>
      (db.prepare('SELECT qty FROM inventory WHERE sku = ?').get(sku) as { qty: number }).qty

    seed(db, { reviews: true, stock: true })
    expect(qtyOf()).toBe(qty + 41)
    expect(count(db, 'SELECT COUNT(*) AS n FROM reviews')).toBe(reviews + 1)
    expect(count(db, "SELECT is_active AS n FROM coupons WHERE code = 'WELCOME10'")).toBe(0)
    // The catalogue itself was rewritten.
    expect(count(db, 'SELECT COUNT(*) AS n FROM products')).toBeGreaterThanOrEqual(300)

    seed(db, {})
    expect(qtyOf()).toBe(qty)
    expect(count(db, 'SELECT COUNT(*) AS n FROM reviews')).toBe(reviews)
    // Coupons are never reset by a seed.
    expect(count(db, "SELECT is_active AS n FROM coupons WHERE code = 'WELCOME10'")).toBe(0)
  }, 60_000)
})
