// Gift cards: a paid order's gift card units each get a code, mailed once and stored only as a
// hash; a signed-in shopper redeems a code into store credit exactly once.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { registerAndLogin } from '../../../helpers/user'
import {
  call,
  deliverWebhooks,
  mailedCodes,
  orderRow,
  payAtProvider,
  place,
  setUpPaymentSandbox,
  verify,
} from './harness'

setUpPaymentSandbox()

async function paidGiftCardOrder(qty: number) {
  const o = await place('card', [{ sku: 'FX-GIFT', qty, price: 1 }])
  const res = await verify(o, await payAtProvider(o))
  expect(res.json.result.status).toBe('processing')
  return o
}

const redeem = (bearer: string, code: string) => call('/api/giftcard/redeem', { body: { code }, bearer })

describe('gift cards', () => {
  it('issues one code per unit on payment, once, and keeps only its hash', async () => {
    const o = await paidGiftCardOrder(2)
    const codes = await mailedCodes(o.orderNumber)
    expect(codes).toHaveLength(2)
    expect(new Set(codes).size).toBe(2)
    // The webhooks arriving afterwards issue nothing more.
    await deliverWebhooks()
    expect(await mailedCodes(o.orderNumber)).toHaveLength(2)
    const { results } = await env.DB.prepare('SELECT * FROM gift_cards WHERE client_order_id = ?')
      .bind(o.orderId)
      .all<Record<string, unknown>>()
    expect(results).toHaveLength(2)
    for (const code of codes) expect(JSON.stringify(results)).not.toContain(code.replace(/-/g, ''))
    const row = await orderRow(o.orderId)
    expect(results.map((r) => r.amount_minor)).toEqual([
      (row?.grand_total_minor as number) / 2,
      (row?.grand_total_minor as number) / 2,
    ])
  })

  it('issues nothing for an unpaid order', async () => {
    const o = await place('card', [{ sku: 'FX-GIFT', qty: 1, price: 1 }])
    expect(await mailedCodes(o.orderNumber)).toEqual([])
  })

  it('a code becomes store credit once; a replay, another shopper and a race get nothing more', async () => {
    const o = await paidGiftCardOrder(2)
    const [first, second] = await mailedCodes(o.orderNumber)
    const alice = await registerAndLogin('gift')
    const bob = await registerAndLogin('gift')
    const typed = (first as string).toLowerCase().replace(/-/g, ' ')
    const ok1 = await redeem(alice.token, typed)
    expect(ok1.status, JSON.stringify(ok1.json)).toBe(200)
    const face = (
      await env.DB.prepare('SELECT amount_minor FROM gift_cards WHERE client_order_id = ? LIMIT 1')
        .bind(o.orderId)
        .first<{ amount_minor: number }>()
    )?.amount_minor as number
    expect(ok1.json.result).toMatchObject({ credited: face / 100, total_balance: face / 100 })
    expect((await redeem(alice.token, first as string)).status).toBe(409)
    // Another shopper learns nothing of a code someone redeemed: it is answered as unknown.
    expect((await redeem(bob.token, first as string)).status).toBe(404)
    const race = await Promise.all([
      redeem(alice.token, second as string),
      redeem(bob.token, second as string),
    ])
    expect(race.map((r) => r.status).sort()).toEqual([200, 404])
    const balances = await env.DB.prepare(
      'SELECT SUM(balance_minor) AS total FROM store_credit WHERE customer_id IN (?, ?)',
    )
      .bind(alice.id, bob.id)
      .first<{ total: number }>()
    expect(balances?.total).toBe(face * 2)
  })

  it('refuses malformed and unknown codes, and guests', async () => {
    const alice = await registerAndLogin('gift')
    const malformed = await redeem(alice.token, 'ABCD-1234')
    expect(malformed.status).toBe(400)
    expect(malformed.json.result).toMatch(/^Invalid gift card: code/)
    expect((await redeem(alice.token, 'AAAA-BBBB-CCCC-DDDD')).status).toBe(404)
    expect((await call('/api/giftcard/redeem', { body: { code: 'AAAA-BBBB-CCCC-DDDD' } })).status).toBe(401)
  })

  it('limits code guessing per account: the 11th try within 15 minutes is refused, even with a real code', async () => {
    const o = await paidGiftCardOrder(1)
    const [real] = await mailedCodes(o.orderNumber)
    const guesser = await registerAndLogin('gift')
    for (let i = 0; i < 10; i++)
      expect((await redeem(guesser.token, `AAAA-BBBB-CCCC-DDD${'ABCDEFGHJK'[i]}`)).status).toBe(404)
    const blocked = await redeem(guesser.token, real as string)
    expect(blocked.status).toBe(429)
    expect(blocked.json.result).toMatch(/Too many gift card codes tried/)
    // Another account is not affected, and the code is still unspent.
    const other = await registerAndLogin('gift')
    expect((await redeem(other.token, real as string)).status).toBe(200)
  })
})
