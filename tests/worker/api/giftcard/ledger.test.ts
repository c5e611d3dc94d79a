// Gift cards and store credit as a ledger: a card is worth what was paid for it (a coupon's share
// included, whatever paid it: a provider, store credit or both), a card in any currency becomes
// base-currency credit rounded down, and refunds or a cancel never give back what a redeemed card
// is worth while they take back what they reach of unredeemed ones. Credit never comes from nothing.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { moveOrder } from '../../../../worker/admin/orders'
import { readConfig } from '../../../../worker/platform/env'
import { decodeEntities } from '../../../helpers/html'
import { newOrderId, orderBody, testAddress } from '../../../helpers/orders'
import { registerAndLogin } from '../../../helpers/user'
import { admin, operator } from '../../admin/operator'
import {
  call,
  held,
  mailedCodes,
  orderRow,
  payEnv,
  refund,
  sandbox,
  seedPaymentFixtures,
  setUpPaymentSandbox,
} from '../payment/harness'

setUpPaymentSandbox(async () => {
  await seedPaymentFixtures()
  await env.DB.prepare(
    `INSERT OR REPLACE INTO coupons (code, kind, amount, min_subtotal, is_active, label)
     VALUES ('FX-TENOFF', 'percent', 10, 0, 1, '10 % off')`,
  ).run()
})

type Shopper = Awaited<ReturnType<typeof registerAndLogin>>

const balanceOf = async (customerId: number) =>
  (
    await env.DB.prepare('SELECT balance_minor FROM store_credit WHERE customer_id = ?')
      .bind(customerId)
      .first<{ balance_minor: number }>()
  )?.balance_minor ?? 0

const redeem = (who: Shopper, code: string) =>
  call('/api/giftcard/redeem', { body: { code }, bearer: who.token })

/**
 * A signed-in shopper's order of `qty` gift cards through their cart (a coupon if asked, their
 * store credit if asked), paid through Razorpay for whatever is left to pay.
 */
async function buyCards(
  who: Shopper,
  opts: { qty?: number; coupon?: string; credit?: boolean; payment?: string } = {},
) {
  const cartId = (await call(`/api/cart/create?token=${who.token}`, { body: {} })).json.result as string
  await call(`/api/cart/update?token=${who.token}&cartId=${cartId}`, {
    body: { cartItem: { sku: 'FX-GIFT', qty: opts.qty ?? 1 } },
  })
  if (opts.coupon) {
    const applied = await call(
      `/api/cart/apply-coupon?token=${who.token}&cartId=${cartId}&coupon=${opts.coupon}`,
      {
        body: {},
      },
    )
    expect(applied.status, JSON.stringify(applied.json)).toBe(200)
  }
  const orderId = newOrderId('card')
  const placed = await call('/api/order', {
    bearer: who.token,
    // PayPal charges the currency shown: dollars for the shopper who pays with it here.
    ...(opts.payment === 'paypal_standard' ? { headers: { cookie: 'currency=USD' } } : {}),
    body: orderBody(orderId, [{ sku: 'FX-GIFT', qty: opts.qty ?? 1, price: 1 }], testAddress(who.email), {
      payment: opts.payment ?? 'card',
      user_id: String(who.id),
      cart_id: cartId,
      ...(opts.credit ? { store_credit_applied: true } : {}),
    }),
  })
  expect(placed.status, JSON.stringify(placed.json)).toBe(200)
  const r = placed.json.result
  const o = { orderId, orderNumber: r.orderNumber as string, accessKey: r.accessKey as string }
  if (r.paymentPending) {
    const started = await call('/api/payment/start', {
      body: { orderNumber: o.orderNumber, accessKey: o.accessKey },
    })
    expect(started.status, JSON.stringify(started.json)).toBe(200)
    if (started.json.result.provider === 'paypal') {
      sandbox.paypalApprove(started.json.result.providerOrderId)
      const captured = await call('/api/payment/paypal/capture', {
        body: { orderNumber: o.orderNumber, accessKey: o.accessKey },
      })
      expect(captured.json.result).toMatchObject({ status: 'processing' })
    } else {
      const answer = (await sandbox.razorpayPay(
        started.json.result.options.order_id,
        'succeed',
      )) as unknown as Record<string, string>
      const verified = await call('/api/payment/razorpay/verify', {
        body: { orderNumber: o.orderNumber, ...answer },
      })
      expect(verified.json.result).toMatchObject({ status: 'processing' })
    }
  }
  held.length = 0
  return { ...o, row: await orderRow(orderId), codes: await mailedCodes(o.orderNumber) }
}

async function cancel(orderNumber: string) {
  const ctx = createExecutionContext()
  const moved = await moveOrder(
    { env: payEnv, config: readConfig(payEnv), executionCtx: ctx, actor: 'ops@example.com' },
    orderNumber,
    { to: 'canceled', reason: 'shopper asked' },
    Date.now(),
  )
  await waitOnExecutionContext(ctx)
  return moved
}

describe('a gift card is worth what was paid for it', () => {
  it('the compounding loop: cards bought with a coupon and with their own credit never make credit from nothing', async () => {
    const who = await registerAndLogin('loop')
    let cash = 0
    for (let round = 1; round <= 3; round++) {
      const bought = await buyCards(who, { coupon: 'FX-TENOFF', credit: round > 1 })
      cash += bought.row?.grand_total_minor ?? 0
      // Every round issues a code, the rounds paid with store credit alone included.
      expect(bought.codes, `round ${round}`).toHaveLength(1)
      const redeemed = await redeem(who, bought.codes[0] as string)
      expect(redeemed.status, JSON.stringify(redeemed.json)).toBe(200)
      expect(await balanceOf(who.id), `round ${round}`).toBe(cash)
    }
    // ₹500 with 10 % off is ₹450 of cash once; the two cards bought with that credit are worth it again.
    expect(cash).toBe(45_000)
    expect(await balanceOf(who.id)).toBe(45_000)
  })

  it('splits a line with a coupon over its cards so they add up to what the line cost', async () => {
    const who = await registerAndLogin('split')
    const bought = await buyCards(who, { qty: 3, coupon: 'FX-TENOFF' })
    const { results } = await env.DB.prepare(
      'SELECT paid_minor, amount_minor, currency FROM gift_cards WHERE client_order_id = ? ORDER BY unit_no',
    )
      .bind(bought.orderId)
      .all<{ paid_minor: number; amount_minor: number; currency: string }>()
    expect(results.map((r) => r.paid_minor)).toEqual([45_000, 45_000, 45_000])
    expect(results.reduce((s, r) => s + r.paid_minor, 0)).toBe(bought.row?.grand_total_minor)
  })

  it('a card bought through PayPal in USD becomes rupee credit, rounded down', async () => {
    const who = await registerAndLogin('usd')
    const bought = await buyCards(who, { payment: 'paypal_standard' })
    expect(bought.row).toMatchObject({ currency: 'USD', payment_state: 'paid' })
    const usd = bought.row?.grand_total_minor as number
    const redeemed = await redeem(who, bought.codes[0] as string)
    expect(redeemed.status, JSON.stringify(redeemed.json)).toBe(200)
    expect(await balanceOf(who.id)).toBe(Math.floor(usd / 0.01429))
  })
})

describe('store credit spent on an order is a row everywhere the order shows its money', () => {
  it('the order page, the order document, the mail and the back office show the credit row and what was left to pay', async () => {
    const who = await registerAndLogin('rows')
    const seed = await buyCards(who)
    await redeem(who, seed.codes[0] as string)
    // A ₹1,000 scarf and ₹149 shipping with ₹500 of credit (the redeemed card): ₹649 left to pay.
    const cartId = (await call(`/api/cart/create?token=${who.token}`, { body: {} })).json.result as string
    await call(`/api/cart/update?token=${who.token}&cartId=${cartId}`, {
      body: { cartItem: { sku: 'FX-SCARF', qty: 1 } },
    })
    const orderId = newOrderId('rows')
    const placed = await call('/api/order', {
      bearer: who.token,
      body: orderBody(orderId, [{ sku: 'FX-SCARF', qty: 1, price: 1 }], testAddress(who.email), {
        payment: 'card',
        user_id: String(who.id),
        cart_id: cartId,
        store_credit_applied: true,
      }),
    })
    expect(placed.status, JSON.stringify(placed.json)).toBe(200)
    const number = placed.json.result.orderNumber as string
    const expected = [
      { code: 'items', title: 'Items', minor: 100_000 },
      { code: 'shipping', title: 'Shipping', minor: 14_900 },
      { code: 'store_credit', title: 'Store credit', minor: -50_000 },
      { code: 'to_pay', title: 'To pay', minor: 64_900 },
    ]
    const view = await call('/api/payment/order', {
      body: { orderNumber: number, accessKey: placed.json.result.accessKey },
    })
    expect(view.json.result.moneyRows).toEqual(expected)
    // What the provider is asked for is the row's amount.
    const started = await call('/api/payment/start', {
      body: { orderNumber: number, accessKey: placed.json.result.accessKey },
    })
    expect(started.json.result.options.amount).toBe(64_900)
    const doc = await call('/api/order/get', {
      body: { orderId: number, accessKey: placed.json.result.accessKey },
    })
    expect(doc.json.result).toMatchObject({
      customer_balance_amount: 500,
      grand_total: 649,
      subtotal_incl_tax: 1000,
    })
    // An order paid online is mailed as received once its payment arrives: the paid mail.
    const answer = (await sandbox.razorpayPay(
      started.json.result.options.order_id,
      'succeed',
    )) as unknown as Record<string, string>
    held.length = 0
    await call('/api/payment/razorpay/verify', { body: { orderNumber: number, ...answer } })
    const mail = await env.DB.prepare(
      "SELECT body FROM mail_outbox WHERE kind = 'order-paid' AND subject LIKE '%' || ? || '%'",
    )
      .bind(number)
      .first<{ body: string }>()
    expect(mail?.body).toMatch(/^Items: ₹1,000$/m)
    expect(mail?.body).toMatch(/^Store credit: −₹500$/m)
    expect(mail?.body).toMatch(/^To pay: ₹649$/m)
    const staff = await operator('staff')
    const screen = await admin(staff, `/orders/${number}`)
    expect(screen.status).toBe(200)
    expect(decodeEntities(screen.text)).toMatch(
      // The back office writes amounts the Indian way, always with paise.
      /data-row="store_credit"><th scope="row">Store credit<\/th><td>−₹500\.00<\/td>/,
    )
    expect(decodeEntities(screen.text)).toMatch(
      /data-row="to_pay"><th scope="row">To pay<\/th><td>₹649\.00<\/td>/,
    )
  })
})

describe('refunds and cancels of a gift-card order', () => {
  it('take back what they reach of unredeemed cards and refuse what a redeemed card is worth', async () => {
    const who = await registerAndLogin('claw')
    const bought = await buyCards(who, { qty: 2 })
    const [first, second] = bought.codes as [string, string]
    expect((await redeem(who, first)).status).toBe(200)
    expect(await balanceOf(who.id)).toBe(50_000)
    const tooMuch = await refund(bought.orderId, 60_000)
    expect(tooMuch).toMatchObject({ ok: false, status: 409 })
    expect(!tooMuch.ok && tooMuch.message).toMatch(
      /already redeemed as store credit\. At most ₹500\.00 can be refunded/,
    )
    const part = await refund(bought.orderId, 30_000)
    expect(part).toMatchObject({ ok: true, refundedMinor: 30_000 })
    // The second card is worth what the refund left of it.
    expect((await redeem(who, second)).status).toBe(200)
    expect(await balanceOf(who.id)).toBe(70_000)
    // Cash back plus credit never exceed what was paid.
    expect(30_000 + (await balanceOf(who.id))).toBe(bought.row?.grand_total_minor)
    expect(await refund(bought.orderId, 1)).toMatchObject({ ok: false, status: 409 })
  })

  it('a refund of a whole unredeemed card voids it', async () => {
    const who = await registerAndLogin('void')
    const bought = await buyCards(who)
    expect(await refund(bought.orderId, 50_000)).toMatchObject({ ok: true, paymentState: 'refunded' })
    const res = await redeem(who, bought.codes[0] as string)
    expect(res.status).toBe(409)
    expect(res.json.result).toMatch(/no longer valid/)
    expect(await balanceOf(who.id)).toBe(0)
  })

  it('cancelling after the code was redeemed gives back nothing of it, and says so in the history', async () => {
    const who = await registerAndLogin('cancel')
    const bought = await buyCards(who)
    expect((await redeem(who, bought.codes[0] as string)).status).toBe(200)
    const moved = await cancel(bought.orderNumber)
    expect(moved.refund).toBeNull()
    expect(await orderRow(bought.orderId)).toMatchObject({ status: 'canceled', refunded_minor: 0 })
    expect(await balanceOf(who.id)).toBe(50_000)
    const note = await env.DB.prepare(
      "SELECT detail FROM order_events WHERE client_order_id = ? AND kind = 'note' AND actor = 'system'",
    )
      .bind(bought.orderId)
      .first<{ detail: string }>()
    expect(JSON.parse(note?.detail ?? '{}').text).toMatch(
      /₹500\.00 .* already redeemed as store credit: it was not given back/,
    )
  })

  it('cancelling a card bought with store credit after redeeming it returns no credit', async () => {
    const who = await registerAndLogin('credit-cancel')
    const seed = await buyCards(who)
    await redeem(who, seed.codes[0] as string)
    const bought = await buyCards(who, { credit: true })
    expect(bought.row).toMatchObject({ grand_total_minor: 0, status: 'processing' })
    expect(await balanceOf(who.id)).toBe(0)
    await redeem(who, bought.codes[0] as string)
    expect(await balanceOf(who.id)).toBe(50_000)
    await cancel(bought.orderNumber)
    expect(await balanceOf(who.id)).toBe(50_000)
  })

  it('cancelling before the code was redeemed voids it and refunds in full', async () => {
    const who = await registerAndLogin('cancel-unused')
    const bought = await buyCards(who)
    const moved = await cancel(bought.orderNumber)
    expect(moved.refund).toMatchObject({ ok: true, refundedMinor: 50_000 })
    expect((await redeem(who, bought.codes[0] as string)).status).toBe(409)
    // One refund, one mail about it, naming the amount.
    const { results } = await env.DB.prepare(
      "SELECT body FROM mail_outbox WHERE kind = 'order-refunded' AND subject LIKE '%' || ? || '%'",
    )
      .bind(bought.orderNumber)
      .all<{ body: string }>()
    expect(results).toHaveLength(1)
    expect(results[0]?.body).toContain('Amount refunded: ₹500')
  })

  it('a refund racing a redemption of the same card: never both', async () => {
    const who = await registerAndLogin('race')
    const bought = await buyCards(who)
    const [refunded, redeemed] = await Promise.all([
      refund(bought.orderId, 50_000),
      redeem(who, bought.codes[0] as string),
    ])
    const cashBack = refunded.ok ? 50_000 : 0
    const credit = await balanceOf(who.id)
    expect(cashBack + credit).toBeLessThanOrEqual(50_000)
    expect(refunded.ok || redeemed.status === 200).toBe(true)
  })
})
