import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'

let ipCounter = 0
/** A fresh client address per call unless one is given (the per-address limit is tested on its own). */
function post(body: unknown, ip = `198.51.100.${++ipCounter}`, raw?: string) {
  return SELF.fetch('https://shop.test/api/stock-alerts', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': ip },
    body: raw ?? JSON.stringify(body),
  })
}

async function skuWhere(inStock: boolean): Promise<string> {
  const row = await env.DB.prepare(
    `SELECT sku FROM inventory WHERE ${inStock ? 'qty > 0 AND is_in_stock = 1' : 'qty = 0'} ORDER BY sku LIMIT 1`,
  ).first<{ sku: string }>()
  if (!row) throw new Error('no such sku in the demo catalogue')
  return row.sku
}

async function alerts(sku: string) {
  const rows = await env.DB.prepare('SELECT email, sku, parent_sku FROM stock_alerts WHERE sku = ?')
    .bind(sku)
    .all<{ email: string; sku: string; parent_sku: string | null }>()
  return rows.results
}

describe('POST /api/stock-alerts ("Notify me")', () => {
  it('stores an address once for an out-of-stock sku; asking again is the same answer', async () => {
    const sku = await skuWhere(false)
    const first = await post({ email: 'Asha@Example.com ', sku })
    expect(first.status).toBe(200)
    expect(await first.json()).toMatchObject({ code: 200, result: { sku, subscribed: true } })
    const again = await post({ email: 'asha@example.com', sku })
    expect(again.status).toBe(200)
    const rows = await alerts(sku)
    expect(rows).toHaveLength(1)
    expect(rows[0]?.email).toBe('asha@example.com')
  })

  it('refuses a sku that is in stock (it can be ordered) and an unknown one, writing nothing', async () => {
    const inStock = await skuWhere(true)
    const res = await post({ email: 'b@example.com', sku: inStock })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { result: string }).result).toBe(
      `Invalid stock alert: sku: ${inStock} is in stock, so it can be ordered now`,
    )
    expect(await alerts(inStock)).toHaveLength(0)
    const unknown = await post({ email: 'b@example.com', sku: 'NO-SUCH-SKU' })
    expect(unknown.status).toBe(404)
    expect(await alerts('NO-SUCH-SKU')).toHaveLength(0)
  })

  it('answers bad input with a 400 naming the field', async () => {
    const sku = await skuWhere(false)
    const cases: Array<[unknown, RegExp]> = [
      [{ email: 'not-an-address', sku }, /^Invalid stock alert: email: /],
      [{ email: 'a@example.com' }, /^Invalid stock alert: sku: /],
      [{ email: 'a@example.com', sku: "X' OR '1'='1" }, /^Invalid stock alert: sku: /],
      [{ email: `${'a'.repeat(250)}@example.com`, sku }, /^Invalid stock alert: email: email is too long/],
      [{ email: ['a@example.com'], sku }, /^Invalid stock alert: email: /],
    ]
    for (const [body, message] of cases) {
      const res = await post(body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(((await res.json()) as { result: string }).result).toMatch(message)
    }
    const malformed = await post(null, undefined, '{"email":')
    expect(malformed.status).toBe(400)
    expect(((await malformed.json()) as { result: string }).result).toBe(
      'Invalid stock alert: malformed JSON',
    )
  })

  it('limits requests per network address before writing anything (429 naming the limit)', async () => {
    const sku = await skuWhere(false)
    const ip = '203.0.113.77'
    for (let i = 0; i < 10; i++)
      expect((await post({ email: `n${i}@example.com`, sku }, ip)).status).toBe(200)
    const over = await post({ email: 'late@example.com', sku }, ip)
    expect(over.status).toBe(429)
    expect(((await over.json()) as { result: string }).result).toMatch(/at most 10 per network address/)
    expect((await alerts(sku)).some((r) => r.email === 'late@example.com')).toBe(false)
  })
})
