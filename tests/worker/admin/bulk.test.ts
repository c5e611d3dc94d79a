// Changing many products at once from the back office: a CSV file of prices, special prices and
// stock (dry run in rupees, one bad row refusing the whole file with its line, apply through the
// catalogue's writer with the shop showing it at once, re-applying changing nothing), and actions
// on products picked from the list (price by %, publish/unpublish, add to a category). Only an
// owner may change products in bulk.
import { env, SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { formatMinorIndian, formatUnitPrice } from '../../../shared/domain/currency'
import { countRows } from '../../helpers/d1-rows'
import { decodeEntities } from '../../helpers/html'
import { admin, type Json, operator, post, type Session } from './operator'

let owner: Session
interface Simple {
  id: number
  sku: string
  slug: string
  price: number
}
/** Simple products without a special price (the shop shows their price as it is). */
let plain: Simple[]
/** Simple products with a special price. */
let special: Simple[]
/** Products for a test that changes them: each taken once. */
const take = (n: number) => plain.splice(0, n)
/** Products for a test that only reads them (a dry run, a refusal). */
const peek = (n: number) => [...special, ...plain].slice(-n)

beforeAll(async () => {
  owner = await operator('owner')
  const { results } = await env.DB.prepare(
    `SELECT p.id, p.sku, p.slug, p.price, json_extract(p.doc, '$.special_price') IS NOT NULL AS special
     FROM products p JOIN inventory i ON i.sku = p.sku
     WHERE p.type_id = 'simple' AND p.status = 1 AND p.price >= 100 ORDER BY p.id LIMIT 60`,
  ).all<Simple & { special: number }>()
  plain = results.filter((r) => !r.special)
  special = results.filter((r) => r.special)
  expect(plain.length).toBeGreaterThanOrEqual(11)
  expect(special.length).toBeGreaterThanOrEqual(3)
})

/** What a product is now: price, special price, its revision, its stock. */
const state = (sku: string) =>
  env.DB.prepare(
    `SELECT p.price, json_extract(p.doc, '$.special_price') AS special, p.status,
       COALESCE(r.revision, 0) AS revision, i.qty
     FROM products p LEFT JOIN product_revisions r ON r.product_id = p.id LEFT JOIN inventory i ON i.sku = p.sku
     WHERE p.sku = ?`,
  )
    .bind(sku)
    .first<{ price: number; special: number | null; status: number; revision: number; qty: number }>()
const audits = () => countRows("SELECT COUNT(*) AS n FROM admin_audit WHERE action = 'product.bulk'")
const indexVersion = async () =>
  (await env.DB.prepare('SELECT key, value FROM search_meta ORDER BY key').all()).results

const dryRun = (who: Session, csv: string) => admin(who, '/api/products/bulk/csv', { body: { csv } })
const apply = (who: Session, csv: string, fingerprint: string) =>
  admin(who, '/api/products/bulk/csv', { body: { csv, apply: '1', fingerprint } })

/** The price the product page shows a shopper in India. */
async function shownPrice(p: Simple) {
  const res = await SELF.fetch(`https://shop.test/p/${encodeURIComponent(p.sku)}/${p.slug}`)
  expect(res.status).toBe(200)
  return /data-testid="price-final">([^<]+)</.exec(decodeEntities(await res.text()))?.[1]
}

describe('the prices and stock file', () => {
  it('exports every product with its price, and brought back unchanged it changes nothing', async () => {
    const res = await admin(owner, '/api/products.csv')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/)
    const lines = res.text.trim().split('\r\n')
    expect(lines[0]).toBe('sku,parent_sku,name,price,special_price,special_from_date,special_to_date,qty')
    const [p] = peek(1) as [Simple]
    const row = lines.find((l) => l.startsWith(`"${p.sku}",`))
    expect(row).toBeDefined()
    const dry = await dryRun(owner, `${lines[0]}\r\n${row}\r\n`)
    expect(dry.status, dry.text).toBe(200)
    expect(dry.json.result.changes).toEqual([])
  })

  it('a dry run shows the changes in rupees (en-IN) and writes nothing', async () => {
    const [a, b] = plain.slice(-2) as [Simple, Simple]
    const before = [await state(a.sku), await state(b.sku)]
    const [audit, version] = [await audits(), await indexVersion()]
    const csv = `sku,price,special_price,qty\n${a.sku},"1,23,456",,7\n${b.sku},${b.price},${b.price - 50},\n`
    const dry = await dryRun(owner, csv)
    expect(dry.status, dry.text).toBe(200)
    const changes = dry.json.result.changes as Json[]
    expect(changes.find((c) => c.sku === a.sku)?.changes).toEqual([
      `Price ${rupeesOf(a.price)} → ₹1,23,456.00`,
      `Stock of ${a.sku}: ${before[0]?.qty} → 7`,
    ])
    expect(changes.find((c) => c.sku === b.sku)?.changes).toEqual([
      `Special price none → ${rupeesOf(b.price - 50)}`,
    ])
    expect(dry.json.result.fingerprint).toMatch(/^[0-9a-f]{64}$/)
    expect([await state(a.sku), await state(b.sku)]).toEqual(before)
    expect(await audits()).toBe(audit)
    expect(await indexVersion()).toEqual(version)
  })

  it('one bad row refuses the whole file, naming its line and why; nothing is written even when applied', async () => {
    const [a, b] = peek(2) as [Simple, Simple]
    const before = [await state(a.sku), await state(b.sku)]
    const cases: [string, RegExp][] = [
      [
        `sku,price\n${a.sku},999\nNO-SUCH-SKU-1,10\n${b.sku},999\n`,
        /line 3: no product or size has the sku NO-SUCH-SKU-1/,
      ],
      [`sku,price\n${a.sku},999\n${b.sku},12.345\n`, /line 3: price must be an amount in rupees/],
      [
        `sku,price,special_price\n${a.sku},999\n${b.sku},500,600\n`,
        /line 3: special_price: must be below the price/,
      ],
      [`sku,qty\n${a.sku},5\n${b.sku},-4\n`, /line 3: stock must be a whole number/],
      [`sku,price\n${a.sku},999\n${a.sku},998\n`, /line 3: sku .* is also on line 2/],
      [`sku,colour\n${a.sku},red\n`, /line 1: "colour" is not a column/],
    ]
    for (const [csv, why] of cases) {
      const dry = await dryRun(owner, csv)
      expect(dry.status, csv).toBe(400)
      expect(dry.json.result).toMatch(why)
      const forced = await apply(owner, csv, 'a'.repeat(64))
      expect(forced.status).toBe(400)
    }
    expect([await state(a.sku), await state(b.sku)]).toEqual(before)
    // From the page: the refusal beside the file field, the pasted rows kept.
    const page = await post(owner, '/api/products/bulk/csv', '/admin/products/bulk', [
      ['csv', cases[0]?.[0] as string],
    ])
    expect(page.status).toBe(400)
    expect(page.type).toMatch(/^text\/html/)
    expect(page.text).toMatch(/<textarea[^>]*aria-invalid="true"[^>]*>sku,price\n/)
    expect(page.text).toContain(
      '<strong role="alert">line 3: no product or size has the sku NO-SUCH-SKU-1</strong>',
    )
  })

  it('applied, the shop shows the new prices at once; re-applying changes nothing; a stale confirmation is refused', async () => {
    const ten = take(10)
    // The product pages are cached before the change: the purge must drop them.
    for (const p of ten.slice(0, 2)) expect(await shownPrice(p)).toBe(formatUnitPrice(p.price, 'INR'))
    const raised = (p: Simple) => Math.round(p.price * 1.2)
    const csv = `sku,price\r\n${ten.map((p) => `${p.sku},${raised(p)}`).join('\r\n')}\r\n`
    const dry = await dryRun(owner, csv)
    expect(dry.json.result.changes).toHaveLength(10)
    const audit = await audits()
    const done = await apply(owner, csv, dry.json.result.fingerprint)
    expect(done.status, done.text).toBe(200)
    expect(done.json.result.applied).toBe(10)
    for (const p of ten) expect((await state(p.sku))?.price).toBe(raised(p))
    for (const p of ten.slice(0, 2)) expect(await shownPrice(p)).toBe(formatUnitPrice(raised(p), 'INR'))
    expect(await audits()).toBe(audit + 10)
    const revisions = await Promise.all(ten.map(async (p) => (await state(p.sku))?.revision))
    // The same confirmation again: the catalogue moved on since that dry run.
    const again = await apply(owner, csv, dry.json.result.fingerprint)
    expect(again.status).toBe(409)
    // A new dry run of the same file: nothing to change, and applying it writes nothing.
    const second = await dryRun(owner, csv)
    expect(second.json.result.changes).toEqual([])
    const noop = await apply(owner, csv, second.json.result.fingerprint)
    expect(noop.json.result.applied).toBe(0)
    expect(await Promise.all(ten.map(async (p) => (await state(p.sku))?.revision))).toEqual(revisions)
    expect(await audits()).toBe(audit + 10)
  })

  it('a size row sets its stock; its price is refused (it follows its product)', async () => {
    const size = await env.DB.prepare(
      'SELECT sku, parent_sku, qty FROM inventory WHERE parent_sku IS NOT NULL AND manage_stock = 1 LIMIT 1',
    ).first<{ sku: string; parent_sku: string; qty: number }>()
    if (!size) throw new Error('the demo catalogue has no configurable sizes')
    const priced = await dryRun(owner, `sku,price\n${size.sku},999\n`)
    expect(priced.status).toBe(400)
    expect(priced.json.result).toContain(`is a size of ${size.parent_sku}`)
    const csv = `sku,qty\n${size.sku},${size.qty + 3}\n`
    const dry = await dryRun(owner, csv)
    expect(dry.json.result.changes[0].changes).toEqual([
      `Stock of ${size.sku}: ${size.qty} → ${size.qty + 3}`,
    ])
    expect((await apply(owner, csv, dry.json.result.fingerprint)).status).toBe(200)
    const left = await env.DB.prepare('SELECT qty FROM inventory WHERE sku = ?')
      .bind(size.sku)
      .first<{ qty: number }>()
    expect(left?.qty).toBe(size.qty + 3)
  })

  it('is the owner’s: staff and viewers are refused, see no form, and nothing is written', async () => {
    const [p] = peek(1) as [Simple]
    const before = await state(p.sku)
    for (const role of ['staff', 'viewer'] as const) {
      const who = await operator(role)
      const csv = `sku,price\n${p.sku},${p.price + 100}\n`
      expect((await dryRun(who, csv)).status).toBe(403)
      expect((await apply(who, csv, 'a'.repeat(64))).status).toBe(403)
      const action = await admin(who, '/api/products/bulk/action', {
        body: { ids: [p.id], action: 'publish' },
      })
      expect(action.status).toBe(403)
      const page = await admin(who, '/products/bulk')
      expect(page.status).toBe(200)
      expect(page.text).not.toContain('action="/admin/api/products/bulk')
    }
    expect(await state(p.sku)).toEqual(before)
  })
})

describe('an action on products picked from the list', () => {
  const act = (body: Record<string, unknown>) => admin(owner, '/api/products/bulk/action', { body })

  it('moves prices by a percentage, to the rupee, after a dry run', async () => {
    const picked = special.slice(0, 3)
    const body = { ids: picked.map((p) => p.id), action: 'percent', percent: '10' }
    const dry = await act(body)
    expect(dry.status, dry.text).toBe(200)
    expect(dry.json.result.changes.map((c: Json) => c.changes[0])).toEqual(
      picked.map((p) => `Price ${rupeesOf(p.price)} → ${rupeesOf(Math.round(p.price * 1.1))}`),
    )
    expect((await state(picked[0]?.sku as string))?.price).toBe(picked[0]?.price)
    const done = await act({ ...body, apply: '1', fingerprint: dry.json.result.fingerprint })
    expect(done.json.result.applied).toBe(3)
    for (const p of picked) expect((await state(p.sku))?.price).toBe(Math.round(p.price * 1.1))
  })

  it('unpublishes and publishes (the address goes and comes back), and adds to a category', async () => {
    const [p] = take(1) as [Simple]
    const path = (
      await env.DB.prepare('SELECT url_path FROM products WHERE id = ?')
        .bind(p.id)
        .first<{ url_path: string }>()
    )?.url_path as string
    const run = async (body: Record<string, unknown>) => {
      const dry = await act(body)
      expect(dry.status, dry.text).toBe(200)
      const done = await act({ ...body, apply: '1', fingerprint: dry.json.result.fingerprint })
      expect(done.status, done.text).toBe(200)
    }
    await run({ ids: [p.id], action: 'unpublish' })
    expect((await state(p.sku))?.status).toBe(2)
    expect(await env.URL_MAPPINGS.get(path)).toBeNull()
    await run({ ids: [p.id], action: 'publish' })
    expect((await state(p.sku))?.status).toBe(1)
    expect(await env.URL_MAPPINGS.get(path, 'json')).toMatchObject({ type: 'product', id: p.id })
    const category = await env.DB.prepare(
      `SELECT id FROM categories WHERE level >= 2 AND id NOT IN
         (SELECT value FROM json_each((SELECT doc FROM products WHERE id = ?1), '$.category_ids')) LIMIT 1`,
    )
      .bind(p.id)
      .first<{ id: number }>()
    await run({ ids: [p.id], action: 'category', category_id: category?.id })
    const ids = await env.DB.prepare(
      "SELECT json_extract(doc, '$.category_ids') AS ids FROM products WHERE id = ?",
    )
      .bind(p.id)
      .first<{ ids: string }>()
    expect(JSON.parse(ids?.ids as string)).toContain(category?.id)
  })

  it('publishes only the products whose address is free, naming the others by name and URL', async () => {
    const [free, clash] = take(2) as [Simple, Simple]
    const pathOf = async (id: number) =>
      (await env.DB.prepare('SELECT url_path, name FROM products WHERE id = ?')
        .bind(id)
        .first<{ url_path: string; name: string }>()) as { url_path: string; name: string }
    const body = { ids: [free.id, clash.id] }
    const unpublish = await act({ ...body, action: 'unpublish' })
    expect(
      (
        await act({
          ...body,
          action: 'unpublish',
          apply: '1',
          fingerprint: unpublish.json.result.fingerprint,
        })
      ).status,
    ).toBe(200)
    // While it was a draft, its address came to belong to something else (a category moved there).
    const clashed = await pathOf(clash.id)
    await env.URL_MAPPINGS.put(clashed.url_path, JSON.stringify({ type: 'category', id: 999_999, slug: 'x' }))
    const dry = await act({ ...body, action: 'publish' })
    expect(dry.status, dry.text).toBe(200)
    expect(dry.json.result.changes.map((c: Json) => c.sku)).toEqual([free.sku])
    expect(dry.json.result.refused).toEqual([
      expect.objectContaining({
        sku: clash.sku,
        name: clashed.name,
        url: `/${clashed.url_path}`,
        why: `the address /${clashed.url_path} is already taken`,
      }),
    ])
    const done = await act({
      ...body,
      action: 'publish',
      apply: '1',
      fingerprint: dry.json.result.fingerprint,
    })
    expect(done.json.result.applied).toBe(1)
    expect(done.json.result.refused.map((r: Json) => r.sku)).toEqual([clash.sku])
    expect((await state(free.sku))?.status).toBe(1)
    expect((await state(clash.sku))?.status).toBe(2)
    expect(await env.URL_MAPPINGS.get(clashed.url_path, 'json')).toMatchObject({ type: 'category' })
    // The form's dry run names it too.
    const page = await post(owner, '/api/products/bulk/action', '/admin/products/bulk', [
      [`id_${clash.id}`, 'on'],
      ['action', 'publish'],
    ])
    expect(decodeEntities(page.text).replaceAll('<!-- -->', '')).toContain(
      `${clashed.name} (${clash.sku}) at /${clashed.url_path}`,
    )
    await env.URL_MAPPINGS.delete(clashed.url_path)
  })

  it('refuses nothing picked and a percentage of 0 beside their fields', async () => {
    const none = await post(owner, '/api/products/bulk/action', '/admin/products/bulk', [
      ['action', 'publish'],
    ])
    expect(none.status).toBe(400)
    expect(none.text).toContain('pick at least one product')
    const [p] = peek(1) as [Simple]
    const zero = await act({ ids: [p.id], action: 'percent', percent: '0' })
    expect(zero.status).toBe(400)
    expect(zero.json.result).toContain('percent: 0 changes nothing')
  })
})

/** A catalogue amount (rupees) as the back office writes it (its en-IN grouping is checked above literally). */
const rupeesOf = (amount: number) => formatMinorIndian(Math.round(amount * 100), 'INR')
