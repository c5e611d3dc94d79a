// The prepaid discount on a payment link: fixed when the link is made, written to the order only
// with the move that marks it paid (total, lines, invoice), once; none when the setting is off.
import { env } from 'cloudflare:test'
import { formatMinor } from '@shared/domain/currency'
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { grantStoreCredit } from '../../../worker/api/giftcard/routes'
import { parseOrderDocument } from '../../../worker/api/order/document'
import { findOrderByClientId } from '../../../worker/api/order/repo'
import { enqueueShipment } from '../../../worker/fulfilment/book'
import { whatsappNumber } from '../../../worker/messages/phone'
import { SCARF, seedCartFixtures } from '../../helpers/cart-fixtures'
import { registerAndLogin } from '../../helpers/user'
import { held, sandbox } from '../api/payment/harness'
import {
  browserReturn,
  deliver,
  freshPhone,
  linkPaidHook,
  placeFor,
  routeStandIns,
  shopCall,
  wa,
} from './harness'

beforeAll(() => routeStandIns())
beforeEach(async () => {
  held.length = 0
  await seedCartFixtures()
  await env.DB.prepare('DELETE FROM prepaid_discount').run()
})

type Placed = Awaited<ReturnType<typeof placeFor>>

const inr = (minor: number) => formatMinor(minor, 'INR')

const orderOf = (orderId: string) => findOrderByClientId(env.DB, orderId)

const setDiscount = (
  kind: 'off' | 'percent' | 'fixed',
  percent: number,
  capMinor: number,
  fixedMinor: number,
) =>
  env.DB.prepare(
    `INSERT INTO prepaid_discount (id, kind, percent, cap_minor, fixed_minor, updated_at) VALUES (1, ?, ?, ?, ?, '')
     ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, percent = excluded.percent,
       cap_minor = excluded.cap_minor, fixed_minor = excluded.fixed_minor`,
  )
    .bind(kind, percent, capMinor, fixedMinor)
    .run()

/** What the order page is given: the order's total and what paying by link asks. */
const orderView = async (o: Placed) =>
  (await shopCall('/api/payment/order', { body: { orderNumber: o.orderNumber, accessKey: o.accessKey } }))
    .json.result as { grandTotalMinor: number; prepaidAmountMinor: number }

const pageAsks = async (o: Placed) => (await orderView(o)).prepaidAmountMinor

async function offer(o: Placed) {
  const res = await shopCall('/api/payment/link', {
    body: { orderNumber: o.orderNumber, accessKey: o.accessKey },
  })
  expect(res.status).toBe(200)
  return res.json.result as { url: string; amountMinor: number; discountMinor: number }
}

async function pay(url: string) {
  const paid = await sandbox.payLink(new URL(url).pathname.split('/').pop() as string)
  if ('error' in paid) throw new Error(paid.error)
  return paid
}

/** What the order's lines were charged (paise), gift cards included: the goods a discount can come off. */
const goodsOf = (doc: string) =>
  parseOrderDocument(doc).items.reduce((s, it) => s + it.row_total_minor - (it.discount_minor ?? 0), 0)

const lineDiscounts = (doc: string) => parseOrderDocument(doc).items.map((it) => it.discount_minor ?? 0)

/** Every record of the money once paid: the order, the link's row, the payment, the invoice. */
async function moneyOf(orderId: string) {
  return env.DB.prepare(
    `SELECT o.grand_total_minor AS total, o.paid_minor AS paid,
       (SELECT amount_minor FROM payments WHERE client_order_id = ?1) AS link,
       (SELECT amount_minor FROM provider_payments WHERE client_order_id = ?1) AS payment,
       (SELECT total_minor FROM tax_documents WHERE client_order_id = ?1 AND kind = 'invoice') AS invoice
     FROM orders o WHERE o.client_order_id = ?1`,
  )
    .bind(orderId)
    .first<{ total: number; paid: number; link: number; payment: number; invoice: number | null }>()
}

/**
 * Checks a paid order's stored figures against its invoice: each line's value and tax, the order's
 * tax, its total (what is left after `creditMinor` of store credit, a payment the invoice shows
 * apart) in every column and field, and the link, payment and ledger at that total. The document.
 */
async function expectAgreesWithInvoice(orderId: string, paid: number, creditMinor: number) {
  const row = await env.DB.prepare(
    'SELECT doc, grand_total, grand_total_minor, base_grand_total_minor, paid_minor FROM orders WHERE client_order_id = ?',
  )
    .bind(orderId)
    .first<{
      doc: string
      grand_total: number
      grand_total_minor: number
      base_grand_total_minor: number
      paid_minor: number
    }>()
  const doc = parseOrderDocument(row?.doc as string)
  const invoice = await env.DB.prepare(
    `SELECT id, total_minor, cgst_minor + sgst_minor + igst_minor + other_tax_minor AS tax, data
     FROM tax_documents WHERE client_order_id = ? AND kind = 'invoice'`,
  )
    .bind(orderId)
    .first<{ id: number; total_minor: number; tax: number; data: string }>()
  const lines = (
    await env.DB.prepare(
      `SELECT value_minor AS value, cgst_minor + sgst_minor + igst_minor + other_tax_minor AS tax
       FROM tax_document_lines WHERE document_id = ? ORDER BY line_no`,
    )
      .bind(invoice?.id)
      .all<{ value: number; tax: number }>()
  ).results
  // The goods lines of the invoice are the order's lines; the last is shipping (COD fee with it).
  expect(lines).toHaveLength(doc.items.length + 1)
  doc.items.forEach((it, i) => {
    expect(it.row_total_minor - (it.discount_minor ?? 0), it.sku).toBe(lines[i]?.value)
    expect(it.tax_minor, it.sku).toBe(lines[i]?.tax)
    expect(Math.round(it.tax_amount * 100), it.sku).toBe(lines[i]?.tax)
  })
  expect(doc.extension_attributes.shipping_assignments[0]?.items).toEqual(doc.items)
  expect(doc.extension_attributes.tax_amount_minor).toBe(invoice?.tax)
  expect(Math.round(doc.tax_amount * 100)).toBe(invoice?.tax)
  expect(invoice?.total_minor).toBe(paid + creditMinor)
  expect(JSON.parse(invoice?.data as string).figures.storeCreditMinor).toBe(creditMinor)
  expect(Math.round((doc.customer_balance_amount ?? 0) * 100)).toBe(creditMinor)
  expect(row).toMatchObject({ grand_total_minor: paid, base_grand_total_minor: paid, paid_minor: paid })
  expect(Math.round((row?.grand_total as number) * 100)).toBe(paid)
  expect(doc.grand_total_minor).toBe(paid)
  expect(Math.round(doc.grand_total * 100)).toBe(paid)
  expect(Math.round(doc.base_grand_total * 100)).toBe(paid)
  expect(await moneyOf(orderId)).toMatchObject({ total: paid, paid, link: paid, payment: paid })
  return doc
}

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

/** A tax class of its own taxed as India's apparel: 5 % for a piece up to ₹2,500 before GST, 18 % above. */
const SLAB_CLASS = 9941
const piece = (id: number, sku: string, price: number) => ({
  ...SCARF,
  id,
  sku,
  name: sku,
  price,
  tax_class_id: SLAB_CLASS,
  hsn_code: '6204',
})
/** ₹2,700 with GST (₹2,571 before it: 18 %); a tenth off leaves ₹2,430 (₹2,314 before it: 5 %). */
const GOWN = piece(990941, 'FX-SLAB-GOWN', 2700)
/** ₹3,500 with GST; a tenth off leaves ₹3,150 (₹2,669 before 18 %): still above the bound. */
const COAT = piece(990942, 'FX-SLAB-COAT', 3500)

async function seedSlabPieces() {
  const db = env.DB
  await db.batch([
    db.prepare('INSERT OR REPLACE INTO tax_rules (id, code, doc) VALUES (?, ?, ?)').bind(
      SLAB_CLASS,
      'FX-GST-SLAB',
      JSON.stringify({
        id: SLAB_CLASS,
        code: 'FX-GST-SLAB',
        priority: 0,
        product_tax_class_ids: [SLAB_CLASS],
        customer_tax_class_ids: [3],
        rates: [
          { rate: 5, code: 'IN-GST-5', tax_country_id: 'IN', max_value: 2500 },
          { rate: 18, code: 'IN-GST-18', tax_country_id: 'IN' },
        ],
      }),
    ),
    ...[GOWN, COAT].flatMap((p) => [
      db
        .prepare(
          `INSERT OR REPLACE INTO products (id, sku, type_id, name, price, created_at, updated_at, url_path, slug, doc)
           VALUES (?, ?, 'simple', ?, ?, '2026-01-01 00:00:00', '2026-01-01 00:00:00', ?, ?, ?)`,
        )
        .bind(p.id, p.sku, p.name, p.price, p.sku.toLowerCase(), p.sku.toLowerCase(), JSON.stringify(p)),
      db
        .prepare(
          'INSERT OR REPLACE INTO inventory (sku, product_id, parent_sku, qty, is_in_stock) VALUES (?, ?, NULL, 5, 1)',
        )
        .bind(p.sku, p.id),
    ]),
  ])
}

/** The invoice's rate on each line, the shipping line (with the COD fee) last. */
const invoiceRates = async (orderId: string) =>
  (
    await env.DB.prepare(
      `SELECT l.rate FROM tax_document_lines l JOIN tax_documents d ON d.id = l.document_id
       WHERE d.client_order_id = ? AND d.kind = 'invoice' ORDER BY l.line_no`,
    )
      .bind(orderId)
      .all<{ rate: number }>()
  ).results.map((r) => r.rate)

/** Places a COD order of the slab pieces, pays its link with a tenth off, and returns it placed and paid. */
async function settleWithTenthOff(
  products: { sku: string; qty: number }[],
  before?: (orderId: string) => Promise<void>,
) {
  await seedSlabPieces()
  await setDiscount('percent', 10, 1_000_000, 0)
  const o = await placeFor(freshPhone(), { optIn: false, products })
  await before?.(o.orderId)
  const placed = parseOrderDocument((await orderOf(o.orderId))?.doc as string)
  const total = (await orderOf(o.orderId))?.grand_total_minor as number
  const offered = await offer(o)
  await pay(offered.url)
  await deliver(linkPaidHook())
  const doc = await expectAgreesWithInvoice(o.orderId, total - offered.discountMinor, 0)
  return { placed, doc, rates: await invoiceRates(o.orderId), discount: offered.discountMinor }
}

describe('prepaid discount and GST slabs', () => {
  it('taxes a piece the discount takes under ₹2,500 at 5 %: line, order, shipping and invoice', async () => {
    const { placed, doc, rates, discount } = await settleWithTenthOff([{ sku: GOWN.sku, qty: 1 }])
    expect(placed.items[0]).toMatchObject({
      gst_rate: 18,
      tax_percent: 18,
      tax_minor: 41_186,
      gst_slabs: [{ rate: 5, max_value: 2500 }, { rate: 18 }],
    })
    expect(discount).toBe(27_000)
    // ₹2,430 with 5 % GST inside: ₹115.71.
    expect(doc.items[0]).toMatchObject({
      gst_rate: 5,
      tax_percent: 5,
      discount_minor: 27_000,
      tax_minor: 11_571,
    })
    // Shipping and the COD fee at the highest rate of the goods, now 5 %.
    expect(rates).toEqual([5, 5])
  })

  it('keeps 18 % on a piece still above the bound, and on shipping with it', async () => {
    const { doc, rates } = await settleWithTenthOff([
      { sku: GOWN.sku, qty: 1 },
      { sku: COAT.sku, qty: 1 },
    ])
    expect(doc.items.map((it) => [it.sku, it.gst_rate, it.tax_percent])).toEqual([
      [GOWN.sku, 5, 5],
      [COAT.sku, 18, 18],
    ])
    expect(rates).toEqual([5, 18, 18])
  })

  it('keeps the placement rate on a line that stored no slabs (an order placed before lines stored them)', async () => {
    const { placed, doc, rates } = await settleWithTenthOff([{ sku: GOWN.sku, qty: 1 }], async (orderId) => {
      const row = await orderOf(orderId)
      const older = parseOrderDocument(row?.doc as string)
      for (const it of older.items) delete it.gst_slabs
      for (const it of older.extension_attributes.shipping_assignments[0]?.items ?? []) delete it.gst_slabs
      await env.DB.prepare('UPDATE orders SET doc = ? WHERE client_order_id = ?')
        .bind(JSON.stringify(older), orderId)
        .run()
    })
    expect(placed.items[0]?.gst_slabs).toBeUndefined()
    expect(doc.items[0]).toMatchObject({ gst_rate: 18, tax_percent: 18 })
    expect(rates).toEqual([18, 18])
  })
})
