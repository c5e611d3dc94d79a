// The prepaid discount on a payment link: fixed when the link is made, written to the order only
// with the move that marks it paid (total, lines, invoice), once; none when the setting is off.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { grantStoreCredit } from '../../../worker/api/giftcard/routes'
import { parseOrderDocument } from '../../../worker/api/order/document'
import { enqueueShipment } from '../../../worker/fulfilment/book'
import { whatsappNumber } from '../../../worker/messages/phone'
import { registerAndLogin } from '../../helpers/user'
import {
  browserReturn,
  deliver,
  freshPhone,
  linkPaidHook,
  placeFor,
  wa,
  withMessageStandIns,
} from './harness'
import {
  expectAgreesWithInvoice,
  goodsOf,
  inr,
  lineDiscounts,
  moneyOf,
  offer,
  orderOf,
  orderView,
  pageAsks,
  pay,
  setDiscount,
} from './prepaid'

withMessageStandIns()
beforeEach(() => env.DB.prepare('DELETE FROM prepaid_discount').run())

describe('prepaid discount on a payment link', () => {
  it('is none while the setting is off: the link asks the order total, no saving is claimed', async () => {
    const phone = freshPhone()
    const o = await placeFor(phone, { optIn: true })
    const total = (await orderOf(o.orderId))?.grand_total_minor as number
    const offered = await offer(o)
    expect(offered).toMatchObject({ amountMinor: total, discountMinor: 0 })
    const sent = wa.inbox(whatsappNumber(phone) as string).filter((m) => m.template.startsWith('pay_now'))
    expect(sent.map((m) => m.template)).toEqual(['pay_now_link'])
    expect(sent[0]?.text).toContain(`Pay ${inr(total)} for order ${o.orderNumber}`)
    expect(sent[0]?.text).not.toContain('save')
    await pay(offered.url)
    await deliver(linkPaidHook())
    expect(await moneyOf(o.orderId)).toMatchObject({ total, paid: total, link: total, payment: total })
  })

  it('takes the percent off the goods up to its cap, once under duplicate webhooks and the return', async () => {
    await setDiscount('percent', 10, 500, 0)
    const phone = freshPhone()
    const o = await placeFor(phone, { optIn: true })
    const before = await orderOf(o.orderId)
    const total = before?.grand_total_minor as number
    // The cap binds for this order: 10 % of its goods is more than ₹5.
    expect(Math.floor(goodsOf(before?.doc as string) / 10)).toBeGreaterThan(500)
    // The order page shows what the link will ask, and opens a link only for that amount; its
    // saving is the view's total less that amount.
    const view = await orderView(o)
    expect(view.prepaidAmountMinor).toBe(total - 500)
    expect(view.grandTotalMinor - view.prepaidAmountMinor).toBe(500)
    const offered = await offer(o)
    expect(offered).toMatchObject({ amountMinor: total - 500, discountMinor: 500 })
    // The WhatsApp message asks what the link asks, and says what paying now saves: the order's
    // total less the link's amount.
    const sent = wa.inbox(whatsappNumber(phone) as string).find((m) => m.template === 'pay_now_link_saving')
    expect(sent?.text).toContain(`Pay ${inr(total - 500)} for order ${o.orderNumber}`)
    expect(sent?.text).toContain(`You save ${inr(total - offered.amountMinor)}.`)
    expect(inr(total - offered.amountMinor)).toBe(inr(500))
    const paid = await pay(offered.url)
    const hook = linkPaidHook()
    await Promise.all([
      deliver(hook),
      deliver({ ...hook, headers: { ...hook.headers, 'x-razorpay-event-id': 'evt_copy' } }),
      browserReturn(paid.redirect as string),
    ])
    await deliver(hook)
    const money = await moneyOf(o.orderId)
    expect(money).toMatchObject({
      total: total - 500,
      paid: total - 500,
      link: total - 500,
      payment: total - 500,
    })
    const after = await orderOf(o.orderId)
    expect(after).toMatchObject({ status: 'processing', payment_state: 'paid' })
    // The discount is the order's, spread over its lines: each line's share, adding up to it once.
    const was = lineDiscounts(before?.doc as string)
    const now = lineDiscounts(after?.doc as string)
    expect(now.reduce((s, d) => s + d, 0) - was.reduce((s, d) => s + d, 0)).toBe(500)
    const doc = parseOrderDocument(after?.doc as string)
    expect(doc.grand_total_minor).toBe(total - 500)
    expect(doc.payment.paid_with).toBe('upi')
    expect(money?.invoice).toBe(total - 500)
  })

  it("leaves the stored order agreeing with its invoice: every line's tax, the order's tax and total", async () => {
    await setDiscount('percent', 10, 1_000_000, 0)
    // Lines at two GST rates (12 % and 10 %), one of them two pieces.
    const o = await placeFor(freshPhone(), {
      optIn: false,
      products: [
        { sku: 'FX-SCARF', qty: 1 },
        { sku: 'FX-LEHENGA', qty: 2 },
        { sku: 'FX-ENGRAVED', qty: 1 },
      ],
    })
    const before = await orderOf(o.orderId)
    const total = before?.grand_total_minor as number
    const offered = await offer(o)
    expect(offered.discountMinor).toBe(Math.floor(goodsOf(before?.doc as string) / 10))
    await pay(offered.url)
    await deliver(linkPaidHook())
    const paid = total - offered.discountMinor
    const doc = await expectAgreesWithInvoice(o.orderId, paid, 0)
    expect(new Set(doc.items.map((it) => it.gst_rate))).toEqual(new Set([12, 10]))
    // Some line's tax did move with its discount (the figures are not the placed ones).
    const placed = parseOrderDocument(before?.doc as string)
    expect(doc.items.some((it, i) => it.tax_minor !== placed.items[i]?.tax_minor)).toBe(true)
  })

  it('stops at ₹1: a discount that would take the order below it leaves the link asking ₹1, all agreeing', async () => {
    await setDiscount('percent', 10, 1_000_000, 0)
    // The scarf, shipping and the COD fee less ₹1,150 of store credit leaves less to pay than a
    // tenth of the goods.
    const user = await registerAndLogin('prepaid-floor')
    await grantStoreCredit(env.DB, user.id, 1150, 'Refund', Date.now())
    const o = await placeFor(freshPhone(), { optIn: false, token: user.token, storeCredit: true })
    const before = await orderOf(o.orderId)
    const total = before?.grand_total_minor as number
    expect(Math.floor(goodsOf(before?.doc as string) / 10)).toBeGreaterThan(total - 100)
    expect(await pageAsks(o)).toBe(100)
    const offered = await offer(o)
    expect(offered).toMatchObject({ amountMinor: 100, discountMinor: total - 100 })
    await pay(offered.url)
    await deliver(linkPaidHook())
    await expectAgreesWithInvoice(o.orderId, 100, 115_000)
  })

  it('takes no more than the goods: a fixed discount above the total leaves shipping and the COD fee', async () => {
    const o = await placeFor(freshPhone(), { optIn: false })
    const before = await orderOf(o.orderId)
    const total = before?.grand_total_minor as number
    await setDiscount('fixed', 0, 0, total + 10_000)
    const offered = await offer(o)
    const expected = Math.min(goodsOf(before?.doc as string), total - 100)
    expect(offered).toMatchObject({ discountMinor: expected, amountMinor: total - expected })
    expect(offered.amountMinor).toBeGreaterThanOrEqual(100)
    await pay(offered.url)
    await deliver(linkPaidHook())
    expect(await moneyOf(o.orderId)).toMatchObject({ total: total - expected, paid: total - expected })
  })

  it('stands as the link was made when the setting changes after', async () => {
    await setDiscount('fixed', 0, 0, 300)
    const o = await placeFor(freshPhone(), { optIn: false })
    const total = (await orderOf(o.orderId))?.grand_total_minor as number
    const offered = await offer(o)
    expect(offered.amountMinor).toBe(total - 300)
    await setDiscount('off', 0, 0, 0)
    expect(await pageAsks(o)).toBe(total - 300)
    // Offered again while open: the same link, the same discount.
    expect(await offer(o)).toMatchObject({ url: offered.url, amountMinor: total - 300, discountMinor: 300 })
    await pay(offered.url)
    await deliver(linkPaidHook())
    expect(await moneyOf(o.orderId)).toMatchObject({
      total: total - 300,
      paid: total - 300,
      payment: total - 300,
    })
  })

  it('leaves the order as it was and refunds when "ready to ship" wins the race', async () => {
    await setDiscount('fixed', 0, 0, 300)
    const o = await placeFor(freshPhone(), { optIn: false })
    const before = await orderOf(o.orderId)
    const total = before?.grand_total_minor as number
    const offered = await offer(o)
    await pay(offered.url)
    await enqueueShipment(
      env.DB,
      { orderId: o.orderId, kind: 'forward', ref: `${o.orderId}-S`, codMinor: total },
      Date.now(),
    )
    expect((await deliver(linkPaidHook())).status).toBe(200)
    const after = await orderOf(o.orderId)
    expect(after).toMatchObject({ grand_total_minor: total, doc: before?.doc, paid_minor: 0 })
    const kept = await env.DB.prepare('SELECT status FROM provider_payments WHERE client_order_id = ?')
      .bind(o.orderId)
      .all<{ status: string }>()
    expect(kept.results).toEqual([{ status: 'refunded_late' }])
  })
})
