// Live stock on pages the engine holds: a page read asks for its stock only when the stock clock
// (migration 0400) moved since the isolate last read that page's stock, and what it shows is the
// stock in the database either way. The clock moves with every change to a row of inventory, in
// the same transaction, and not with a write of the same values.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { clearAllMemos } from '../../../worker/platform/memo'
import { planSearch } from '../../../worker/search/request/plan'
import { searchProducts } from '../../../worker/search/results/product-search'
import { answersDb } from '../../helpers/recording-db'

const listed = [{ terms: { visibility: [2, 3, 4] } }, { terms: { status: [0, 1] } }]
const LISTING = { query: { bool: { filter: { bool: { must: listed } } } }, sort: [{ created_at: 'desc' }] }

/** One page of the listing through `db`, with each statement's answer recorded. */
async function page(from: number, size = 8) {
  const { db, answers } = answersDb(env.DB)
  const res = await searchProducts(
    db,
    planSearch({ entityType: 'product', body: { ...LISTING, from, size } }),
  )
  const reads = answers.filter((a) => a.row && 'inv' in a.row)
  return { hits: res.hits, reads }
}

const stockOf = (h: { source: Record<string, unknown> }) =>
  h.source.stock as { qty: number; is_in_stock: boolean }

const clock = async () =>
  (await env.DB.prepare("SELECT value FROM search_meta WHERE key = 'stock'").first<{ value: number }>())
    ?.value

/** The sku of a page hit that has stock rows of its own. */
async function skuOf(id: string | number) {
  return (await env.DB.prepare('SELECT sku FROM products WHERE id = ?').bind(id).first<{ sku: string }>())
    ?.sku as string
}

beforeEach(() => clearAllMemos())

describe('a held page and its stock', () => {
  it('while the clock stands, the page read leaves the stock out and the page shows the same objects', async () => {
    const first = await page(0)
    expect(first.reads).toHaveLength(1)
    expect(typeof first.reads[0]?.row?.inv).toBe('string')
    const again = await page(0)
    // The held set answers: one page read, and no stock in it.
    expect(again.reads).toHaveLength(1)
    expect(again.reads[0]?.sql).not.toBe(first.reads[0]?.sql)
    expect(again.reads[0]?.row?.inv).toBeNull()
    expect(again.hits.map((h) => h.id)).toEqual(first.hits.map((h) => h.id))
    again.hits.forEach((h, i) => {
      expect(h.source).toBe(first.hits[i]?.source)
    })
  })

  it('a change to a product on the page shows on its next read', async () => {
    await page(0)
    const held = await page(0)
    const target = held.hits.find((h) => stockOf(h)?.qty > 0)
    if (!target) throw new Error('the seeded page has no product in stock')
    const sku = await skuOf(target.id)
    await env.DB.prepare('UPDATE inventory SET qty = 0 WHERE sku = ?1 OR parent_sku = ?1').bind(sku).run()
    const after = await page(0)
    expect(typeof after.reads[0]?.row?.inv).toBe('string')
    expect(stockOf(after.hits.find((h) => h.id === target.id) as never)).toMatchObject({
      qty: 0,
      is_in_stock: false,
    })
  })

  it("a change elsewhere reads the page's stock again, and the same rows keep the same objects", async () => {
    const first = await page(0)
    const other = (await page(40)).hits[0]
    if (!other) throw new Error('the seeded listing has fewer than 41 products')
    const write = await env.DB.prepare('UPDATE inventory SET qty = qty + 1 WHERE sku = ?1 OR parent_sku = ?1')
      .bind(await skuOf(other.id))
      .run()
    expect(write.meta.changes).toBeGreaterThan(0)
    const again = await page(0)
    expect(typeof again.reads[0]?.row?.inv).toBe('string')
    again.hits.forEach((h, i) => {
      expect(h.source).toBe(first.hits[i]?.source)
    })
  })
})

describe('the stock clock', () => {
  it('moves with an insert, a changed value and a delete of a row of inventory, not with the same values', async () => {
    const row = await env.DB.prepare(
      'SELECT sku, product_id, qty FROM inventory WHERE parent_sku IS NOT NULL LIMIT 1',
    ).first<{ sku: string; product_id: number; qty: number }>()
    if (!row) throw new Error('the seeded catalogue has no variant stock')
    const c0 = await clock()
    expect(typeof c0).toBe('number')
    await env.DB.prepare('UPDATE inventory SET qty = qty, is_in_stock = is_in_stock WHERE sku = ?')
      .bind(row.sku)
      .run()
    expect(await clock()).toBe(c0)
    await env.DB.prepare('UPDATE inventory SET qty = ? WHERE sku = ?')
      .bind(row.qty + 3, row.sku)
      .run()
    const c1 = await clock()
    expect(c1).not.toBe(c0)
    await env.DB.prepare('UPDATE inventory SET backorders = 1 WHERE sku = ?').bind(row.sku).run()
    const c2 = await clock()
    expect(c2).not.toBe(c1)
    await env.DB.prepare(
      'INSERT INTO inventory (sku, product_id, parent_sku, qty, is_in_stock) VALUES (?, ?, NULL, 1, 1)',
    )
      .bind(`${row.sku}-CLOCK`, row.product_id)
      .run()
    const c3 = await clock()
    expect(c3).not.toBe(c2)
    await env.DB.prepare('DELETE FROM inventory WHERE sku = ?').bind(`${row.sku}-CLOCK`).run()
    expect(await clock()).not.toBe(c3)
  })
})
