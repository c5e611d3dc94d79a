// The prepaid discount and India's GST slabs: settling a discounted payment link decides each
// piece's rate again on its value as charged (one piece a line, or each piece of a bundle), so the
// stored order and its invoice agree; an order placed before lines stored their slabs keeps its rate.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { inventoryStatement, taxRuleStatement } from '../../../scripts/catalogue/seed/write'
import { parseOrderDocument } from '../../../worker/api/order/document'
import { fixtureProductStatement, SCARF } from '../../helpers/cart-fixtures'
import { deliver, freshPhone, linkPaidHook, placeFor, withMessageStandIns } from './harness'
import { expectAgreesWithInvoice, offer, orderOf, pay, setDiscount } from './prepaid'

withMessageStandIns()
beforeEach(() => env.DB.prepare('DELETE FROM prepaid_discount').run())

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

/** ₹1,000 with GST: 5 % at any share of a discount. */
const STOLE = piece(990943, 'FX-SLAB-STOLE', 1000)
const bundleLink = (id: number, p: typeof GOWN) => ({
  id,
  sku: p.sku,
  qty: 1,
  is_default: true,
  price: p.price,
  product: { name: p.name, price: p.price, tax_class_id: SLAB_CLASS, hsn_code: '6204' },
})
/**
 * A bundle of the gown and the stole (₹3,700): placed, the gown's ₹2,700 pays 18 % and the
 * stole's ₹1,000 5 %; a tenth off takes the gown to ₹2,430, under the bound, so both pay 5 %.
 */
const SET = {
  ...piece(990944, 'FX-SLAB-SET', 3700),
  type_id: 'bundle',
  bundle_options: [
    {
      option_id: 99441,
      title: 'Gown',
      required: true,
      type: 'radio',
      sku: 'FX-SLAB-SET',
      product_links: [bundleLink(9944101, GOWN)],
    },
    {
      option_id: 99442,
      title: 'Stole',
      required: true,
      type: 'radio',
      sku: 'FX-SLAB-SET',
      product_links: [bundleLink(9944201, STOLE)],
    },
  ],
}

/** The set with both its pieces chosen, one each. */
const SET_LINE = {
  sku: SET.sku,
  qty: 1,
  product_option: {
    extension_attributes: {
      bundle_options: [
        { option_id: 99441, option_qty: 1, option_selections: [9944101] },
        { option_id: 99442, option_qty: 1, option_selections: [9944201] },
      ],
    },
  },
}

async function seedSlabPieces() {
  const db = env.DB
  await db.batch([
    taxRuleStatement(db, {
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
    ...[GOWN, COAT, STOLE, SET].flatMap((p) => [
      fixtureProductStatement(db, p),
      inventoryStatement(db, { sku: p.sku, product_id: p.id, parent_sku: null, qty: 5, is_in_stock: true }),
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

/** Makes a placed order look like one placed before its lines stored `field`. */
const storedWithout = (field: 'gst_slabs' | 'gst_pieces') => async (orderId: string) => {
  const older = parseOrderDocument((await orderOf(orderId))?.doc as string)
  for (const it of older.items) delete it[field]
  for (const it of older.extension_attributes.shipping_assignments[0]?.items ?? []) delete it[field]
  await env.DB.prepare('UPDATE orders SET doc = ? WHERE client_order_id = ?')
    .bind(JSON.stringify(older), orderId)
    .run()
}

/** Places a COD order of the slab pieces, pays its link with a tenth off, and returns it placed and paid. */
async function settleWithTenthOff(
  products: { sku: string; qty: number; product_option?: unknown }[],
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

/**
 * Expects the paid order's one line to have `discountMinor` off and `taxMinor` of 5 % GST inside,
 * on the line, in the order and on the invoice, with shipping and the COD fee at 5 % too.
 */
function expectLineAtFivePercent(
  { doc, rates, discount }: Awaited<ReturnType<typeof settleWithTenthOff>>,
  discountMinor: number,
  taxMinor: number,
) {
  expect(discount).toBe(discountMinor)
  expect(doc.items[0]).toMatchObject({
    gst_rate: 5,
    tax_percent: 5,
    discount_minor: discountMinor,
    tax_minor: taxMinor,
  })
  expect(rates).toEqual([5, 5])
}

describe('prepaid discount and GST slabs', () => {
  it('taxes a piece the discount takes under ₹2,500 at 5 %: line, order, shipping and invoice', async () => {
    const settled = await settleWithTenthOff([{ sku: GOWN.sku, qty: 1 }])
    expect(settled.placed.items[0]).toMatchObject({
      gst_rate: 18,
      tax_percent: 18,
      tax_minor: 41_186,
      gst_slabs: [{ rate: 5, max_value: 2500 }, { rate: 18 }],
    })
    // ₹2,430 with 5 % GST inside: ₹115.71; shipping and the COD fee at the highest rate of the
    // goods, now 5 %.
    expectLineAtFivePercent(settled, 27_000, 11_571)
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
    const { placed, doc, rates } = await settleWithTenthOff(
      [{ sku: GOWN.sku, qty: 1 }],
      storedWithout('gst_slabs'),
    )
    expect(placed.items[0]?.gst_slabs).toBeUndefined()
    expect(doc.items[0]).toMatchObject({ gst_rate: 18, tax_percent: 18 })
    expect(rates).toEqual([18, 18])
  })

  it("decides each piece of a bundle again: the gown's share falls under the bound, the line pays 5 %", async () => {
    const settled = await settleWithTenthOff([SET_LINE])
    const { placed } = settled
    const slabs = [{ rate: 5, max_value: 2500 }, { rate: 18 }]
    expect(placed.items[0]?.gst_pieces).toEqual([
      { minor: 270_000, count: 1, slabs },
      { minor: 100_000, count: 1, slabs },
    ])
    // As placed: ₹411.86 of 18 % in the gown and ₹47.62 of 5 % in the stole, one combined rate.
    expect(placed.items[0]?.tax_minor).toBe(41_186 + 4_762)
    expect(placed.items[0]?.gst_rate).toBeGreaterThan(5)
    // ₹3,330 with 5 % inside: ₹158.57.
    expectLineAtFivePercent(settled, 37_000, 15_857)
  })

  it("keeps a bundle's placement rate when its line stored no pieces (placed before lines stored them)", async () => {
    const { placed, doc, rates } = await settleWithTenthOff([SET_LINE], storedWithout('gst_pieces'))
    const kept = placed.items[0]?.gst_rate as number
    expect(kept).toBeGreaterThan(5)
    expect(doc.items[0]).toMatchObject({ gst_rate: kept, tax_percent: kept })
    expect(rates).toEqual([kept, kept])
  })
})
