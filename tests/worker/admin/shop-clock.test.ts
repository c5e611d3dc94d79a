// The back office runs on the shop's clock (Asia/Kolkata): an order placed at 00:10 IST — still the
// previous day in UTC — is today's on the dashboard, falls on its IST day in the list's date filter
// and in the CSV; a coupon window entered as 09:30 starts at 09:30 IST; amounts are grouped the
// Indian way (₹1,02,000.00).
import { env } from 'cloudflare:test'
import { zonedDate, zonedDayRange } from '@shared/domain/shop-clock'
import { beforeAll, describe, expect, it } from 'vitest'
import { seedCartFixtures } from '../../helpers/cart-fixtures'
import { deliverTo, freshEmail, newOrderId, testAddress } from '../../helpers/orders'
import { api } from '../../helpers/user'
import { admin, operator, type Session } from './operator'

const IST = 'Asia/Kolkata'
const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ')
let owner: Session
/** IST midnight that began today, and two orders: 10 minutes after it and 10 minutes before it. */
let midnight: number
let justAfter: string
let justBefore: string

async function placeAt(at: number, qty = 1, sku = 'FX-SCARF', method = 'cashondelivery') {
  const res = await api('/order', {
    body: {
      order_id: newOrderId('clock'),
      products: [{ sku, qty, price: 1 }],
      addressInformation: deliverTo(testAddress(freshEmail('clock')), method),
    },
  })
  expect(res.status, JSON.stringify(res.json)).toBe(200)
  const number = res.json.result.orderNumber as string
  await env.DB.prepare('UPDATE orders SET created_at = ? WHERE increment_id = ?')
    .bind(stamp(at), number)
    .run()
  return number
}

beforeAll(async () => {
  await seedCartFixtures()
  await env.DB.prepare("UPDATE inventory SET qty = 1000 WHERE sku IN ('FX-SCARF', 'FX-LEHENGA')").run()
  owner = await operator('owner')
  midnight = zonedDayRange(zonedDate(Date.now(), IST), IST).start
  justAfter = await placeAt(midnight + 10 * 60_000)
  justBefore = await placeAt(midnight - 10 * 60_000)
})

describe('the back office on India’s clock', () => {
  it('counts an order from 00:10 IST as today’s, and one from 23:50 IST the day before as not', async () => {
    const dash = await admin(owner, '/api/dashboard')
    expect(dash.json.result.ordersToday).toBe(1)
  })

  it('filters the order list by IST days', async () => {
    const today = zonedDate(midnight + 1, IST)
    const yesterday = zonedDate(midnight - 1, IST)
    const list = async (day: string) =>
      (
        (await admin(owner, `/api/orders?from=${day}&to=${day}`)).json.result as { increment_id: string }[]
      ).map((r) => r.increment_id)
    expect(await list(today)).toEqual([justAfter])
    expect(await list(yesterday)).toEqual([justBefore])
  })

  it('shows and exports times on the IST clock', async () => {
    const page = await admin(owner, '/orders')
    expect(page.text).toContain(`${zonedDate(midnight + 1, IST)} 00:10`)
    expect(page.text).toContain(`${zonedDate(midnight - 1, IST)} 23:50`)
    const csv = await admin(owner, `/api/orders.csv?q=${justAfter}`)
    expect(csv.text.split('\r\n')[0]).toContain('"created_at (Asia/Kolkata)"')
    expect(csv.text).toContain(`"${zonedDate(midnight + 1, IST)} 00:10"`)
  })

  it('reads a coupon window entered by the operator on the IST clock', async () => {
    const code = `IST${Date.now().toString(36).toUpperCase()}`
    const created = await admin(owner, '/api/coupons', {
      body: {
        code,
        kind: 'percent',
        amount: 10,
        label: 'IST',
        starts_at: '2027-01-01T09:30',
        expires_at: '2027-01-31',
      },
    })
    expect(created.status, JSON.stringify(created.json)).toBe(200)
    const row = await env.DB.prepare('SELECT starts_at, expires_at FROM coupons WHERE code = ?')
      .bind(code)
      .first<{ starts_at: string; expires_at: string }>()
    // 09:30 IST is 04:00 UTC; a date as the end covers that whole IST day.
    expect(row).toEqual({ starts_at: '2027-01-01T04:00:00.000Z', expires_at: '2027-01-31T18:29:59.999Z' })
    const bad = await admin(owner, '/api/coupons', {
      body: { code: `${code}X`, kind: 'percent', amount: 10, label: 'x', starts_at: '2027-02-30' },
    })
    expect(bad.status).toBe(400)
    expect(bad.json.result).toMatch(/starts_at: 2027-02-30 is not a date/)
  })

  it('groups amounts the Indian way', async () => {
    // One piece at ₹1,02,000 (many pieces would meet the cap on what unpaid orders may hold).
    await env.DB.prepare(
      "UPDATE products SET doc = json_set(doc, '$.price', 102000, '$.final_price', 102000) WHERE sku = 'FX-LEHENGA'",
    ).run()
    // By card: cash on delivery has a cap on what it collects.
    const number = await placeAt(Date.now(), 1, 'FX-LEHENGA', 'card')
    const page = await admin(owner, `/orders/${number}`)
    expect(page.text).toContain('₹1,02,000.00')
    expect(page.text).not.toContain('₹102,000')
  })
})
