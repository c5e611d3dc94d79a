// One price, to the paisa: for every product type (simple, configurable, custom options fixed and
// percent, bundle, grouped, virtual gift card) with a percent coupon, each cart line is unit × qty,
// the lines sum to the subtotal, the discount split sums to the discount, and subtotal − discount +
// shipping is the grand total; the order charges exactly that, in the currency the payment method
// charges; the shipping country changes the prices; cash on delivery only where the courier serves.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { notifyOrder } from '../../../../worker/api/mail/notify'
import { readConfig } from '../../../../worker/platform/env'
import { guestOrder, onePieceEach, seedCartFixtures, stockOf } from '../../../helpers/cart-fixtures'
import { freshEmail, newOrderId, orderBody, testAddress } from '../../../helpers/orders'
import { api, type Json } from '../../../helpers/user'

beforeEach(seedCartFixtures)

const orderId = () => newOrderId('prices')
const indianAddress = testAddress('asha.prices@example.com')
const ukAddress = { ...indianAddress, city: 'London', postcode: 'SW1A 1AA', country_id: 'GB' }

const engraving = (finish: number | null) => ({
  extension_attributes: {
    configurable_item_options: [],
    custom_options: [
      { option_id: 99031, option_value: 'A & R' },
      ...(finish ? [{ option_id: 99032, option_value: String(finish) }] : []),
    ],
    bundle_options: [],
  },
})
const earBBagA = onePieceEach(9902102, 9902201)
/** One line of every product type; quantities chosen so a 10 % discount does not divide evenly. */
const EVERY_TYPE = [
  { sku: 'FX-SCARF', qty: 3 },
  { sku: 'FX-KURTA-S', qty: 1 },
  { sku: 'FX-ENGRAVED', qty: 3, product_option: engraving(9903202) },
  { sku: 'FX-BUNDLE', qty: 1, product_option: earBBagA },
  { sku: 'FX-GROUPED', qty: 1 },
  { sku: 'FX-GIFT', qty: 1 },
]

const cookieFor = (currency: string, country = 'IN') => ({
  cookie: `currency=${currency}; country=${country}`,
})

async function cartWith(lines: Record<string, unknown>[], headers: Record<string, string> = {}) {
  const cartId = (await api('/cart/create?token=', { method: 'POST', headers })).json.result as string
  for (const cartItem of lines) {
    const res = await api(`/cart/update?token=&cartId=${cartId}`, { body: { cartItem }, headers })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
  }
  return cartId
}

const totalsOf = async (cartId: string, headers: Record<string, string> = {}) =>
  (await api(`/cart/totals?token=&cartId=${cartId}`, { headers })).json.result

const minor = (x: number) => Math.round(x * 100)

/** Every reconciliation a shopper can check on the totals, in whole minor units. */
function expectReconciled(t: Json) {
  const ext = t.extension_attributes
  let rows = 0
  let discounts = 0
  let taxes = 0
  for (const item of t.items) {
    // Each line charges its unit price × qty, exactly.
    expect(minor(item.row_total_incl_tax)).toBe(minor(item.price_incl_tax) * item.qty)
    expect(Number.isInteger(item.extension_attributes.row_total_minor)).toBe(true)
    rows += item.extension_attributes.row_total_minor
    discounts += item.extension_attributes.discount_minor
    taxes += item.extension_attributes.tax_minor
  }
  expect(rows).toBe(ext.subtotal_minor)
  expect(minor(t.subtotal_incl_tax)).toBe(ext.subtotal_minor)
  expect(discounts).toBe(ext.discount_minor)
  expect(minor(-t.discount_amount)).toBe(ext.discount_minor)
  expect(taxes).toBe(ext.tax_minor)
  expect(ext.subtotal_minor - ext.discount_minor + ext.shipping_minor).toBe(ext.grand_total_minor)
  expect(minor(t.grand_total)).toBe(ext.grand_total_minor)
  const seg = (code: string) => t.total_segments.find((s: { code: string }) => s.code === code)?.value
  expect(minor(seg('subtotal')) - minor(-(seg('discount') ?? 0)) + minor(seg('shipping'))).toBe(
    minor(seg('grand_total')),
  )
}

describe('cart lines sum to the totals for every product type', () => {
  it('in INR for India, with a percent coupon whose split does not divide evenly', async () => {
    const cartId = await cartWith(EVERY_TYPE)
    expect(
      (await api(`/cart/apply-coupon?token=&cartId=${cartId}&coupon=WELCOME10`, { method: 'POST' })).status,
    ).toBe(200)
    const t = await totalsOf(cartId)
    expectReconciled(t)
    expect(t.quote_currency_code).toBe('INR')
    const by = (sku: string) => t.items.find((i: { sku: string }) => i.sku === sku)
    // The catalogue prices, GST inside: scarf 1000, kurta S special 1500, cuff 1000 + 100 + 10 % of
    // 1000 = 1200, bundle 3000 + 1500, grouped 2000 + 1500, gift card at face value 500.
    expect(by('FX-SCARF').price_incl_tax).toBe(1000)
    expect(by('FX-KURTA-S').price_incl_tax).toBe(1500)
    expect(by('FX-ENGRAVED').price_incl_tax).toBe(1200)
    expect(by('FX-BUNDLE').price_incl_tax).toBe(4500)
    expect(by('FX-GROUPED').price_incl_tax).toBe(3500)
    expect(by('FX-GIFT')).toMatchObject({ price_incl_tax: 500, tax_amount: 0, tax_percent: 0 })
    expect(t.subtotal_incl_tax).toBe(3000 + 1500 + 3600 + 4500 + 3500 + 500)
    expect(t.extension_attributes.discount_minor).toBe(Math.round(1_660_000 * 0.1))
    // The tax segment states the GST inside the total; it is not added on top.
    const tax = t.total_segments.find((s: { code: string }) => s.code === 'tax')
    expect(tax.title).toBe('Includes GST')
    expect(t.grand_total).toBe(16_600 - 1_660)
  })

  it('in GBP for a UK address: GST out, VAT in, whole pounds per unit, still exact', async () => {
    const headers = cookieFor('GBP', 'GB')
    const cartId = await cartWith(EVERY_TYPE, headers)
    await api(`/cart/apply-coupon?token=&cartId=${cartId}&coupon=WELCOME10`, { method: 'POST', headers })
    const res = await api(`/cart/shipping-information?token=&cartId=${cartId}`, {
      headers,
      body: { addressInformation: { shippingAddress: ukAddress, billingAddress: ukAddress } },
    })
    expect(res.status).toBe(200)
    const t = res.json.result.totals
    expectReconciled(t)
    expect(t.quote_currency_code).toBe('GBP')
    for (const item of t.items) expect(minor(item.price_incl_tax) % 100).toBe(0)
    const scarf = t.items.find((i: { sku: string }) => i.sku === 'FX-SCARF')
    // 1000 / 1.12 × 1.2 = 1071.43 INR × 0.01111 = 11.90 → £12, 20 % VAT inside.
    expect(scarf.price_incl_tax).toBe(12)
    expect(scarf.tax_percent).toBe(20)
    // The gift card stays at face value: 500 × 0.01111 = 5.56 → £6.
    expect(t.items.find((i: { sku: string }) => i.sku === 'FX-GIFT').price_incl_tax).toBe(6)
    expect(t.extension_attributes.country_sentence).toBe(
      'Shipping to the United Kingdom: Indian GST is removed and UK VAT is included.',
    )
    expect(res.json.result.payment_methods.map((m: { code: string }) => m.code)).not.toContain(
      'cashondelivery',
    )
  })

  it('the cart line (pull) shows what the totals charge', async () => {
    const cartId = await cartWith(EVERY_TYPE)
    const pulled = (await api(`/cart/pull?token=&cartId=${cartId}`)).json.result as Json[]
    const t = await totalsOf(cartId)
    for (const line of pulled) {
      const item = t.items.find((i: { item_id: number }) => i.item_id === line.item_id)
      expect(line.price).toBe(item.price_incl_tax)
    }
  })
})

describe('orders charge what the cart said, in the charge currency', () => {
  // A shopper of its own per order: what unpaid orders may hold is tested elsewhere.
  const place = (
    products: unknown[],
    over: Record<string, unknown> = {},
    headers = {},
    shopper = { ...indianAddress, email: freshEmail('asha.prices') },
  ) =>
    api('/order', {
      headers,
      body: orderBody(orderId(), products, shopper, { flatRate: false, ...over }),
    })
  const row = (id: string) =>
    env.DB.prepare('SELECT currency, grand_total, grand_total_minor FROM orders WHERE client_order_id = ?')
      .bind(id)
      .first<{ currency: string; grand_total: number; grand_total_minor: number }>()

  it('cash on delivery: INR, the cart total to the paisa, options on every item', async () => {
    const cartId = await cartWith(EVERY_TYPE)
    await api(`/cart/apply-coupon?token=&cartId=${cartId}&coupon=WELCOME10`, { method: 'POST' })
    // The review's totals: the address and the payment method chosen (cash on delivery adds its fee).
    const review = await api(`/cart/shipping-information?token=&cartId=${cartId}`, {
      body: {
        addressInformation: {
          shippingAddress: indianAddress,
          billingAddress: indianAddress,
          payment_method_code: 'cashondelivery',
        },
      },
    })
    const cart = review.json.result.totals
    expect(cart.extension_attributes.cod_fee_minor).toBe(4900)
    expect(cart.total_segments.map((s: Json) => s.code)).toContain('cod_fee')
    const body = EVERY_TYPE.map((l) => ({ ...l, price: 1 }))
    const res = await place(body, { cart_id: cartId })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    const doc = (await guestOrder(res.json.result.orderNumber, res.json.result.accessKey)).json.result
    expect(doc.order_currency_code).toBe('INR')
    expect(doc.grand_total_minor).toBe(cart.extension_attributes.grand_total_minor)
    const stored = await env.DB.prepare(
      'SELECT client_order_id FROM orders ORDER BY entity_id DESC LIMIT 1',
    ).first<{
      client_order_id: string
    }>()
    expect(await row(stored?.client_order_id as string)).toMatchObject({
      currency: 'INR',
      grand_total_minor: cart.extension_attributes.grand_total_minor,
    })
    const opts = (sku: string) => doc.items.find((i: { sku: string }) => i.sku === sku).options
    expect(opts('FX-KURTA-S')).toEqual([{ label: 'Size', value: 'S' }])
    expect(opts('FX-ENGRAVED')).toEqual([
      { label: 'Engraving', value: 'A & R' },
      { label: 'Finish', value: 'Gloss' },
    ])
    expect(opts('FX-BUNDLE')).toEqual([
      { label: 'Earrings', value: '1 × Jhumka B' },
      { label: 'Bag', value: '1 × Potli A' },
    ])
    expect(opts('FX-GROUPED')).toEqual([
      { label: 'Includes', value: '1 × Jhumka A' },
      { label: 'Includes', value: '1 × Potli A' },
    ])
    expect(opts('FX-SCARF')).toEqual([])
  })

  it('PayPal charges the shopper’s GBP amount: currency and minor units stored as charged', async () => {
    const headers = cookieFor('GBP', 'GB')
    const id = orderId()
    const res = await place(
      [{ sku: 'FX-SCARF', qty: 2, price: 1 }],
      { order_id: id, payment: 'paypal_standard' },
      headers,
      ukAddress,
    )
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    // £12 a scarf in the UK (see above), × 2, and shipping to the UK: ₹1,999 at 0.01111 = £22.21 → £22.
    expect(await row(id)).toMatchObject({ currency: 'GBP', grand_total: 46, grand_total_minor: 4600 })
    // The order e-mail states the item and the total in the charge currency.
    await notifyOrder(env, readConfig(env), 'placed', id, Date.now())
    const mail = await env.DB.prepare(
      "SELECT body FROM mail_outbox WHERE kind = 'order-placed' AND target_address = ? ORDER BY id DESC",
    )
      .bind(ukAddress.email)
      .first<{ body: string }>()
    expect(mail?.body).toContain('2 × Silk Scarf — £24.00')
    expect(mail?.body).toContain('Total: £46.00')
  })

  it('a method that cannot charge the currency shown is refused, saying which would, and nothing is written', async () => {
    // Before: the card path charged ₹4,731 to a shopper whose review said $68.00.
    const id = orderId()
    const stock = await stockOf('FX-SCARF')
    const res = await place(
      [{ sku: 'FX-SCARF', qty: 1, price: 1 }],
      { order_id: id, payment: 'card' },
      cookieFor('USD'),
      indianAddress,
    )
    expect(res.status).toBe(400)
    expect(res.json.result).toBe(
      'Invalid order: addressInformation.payment_method_code: UPI, cards, netbanking or wallets: charged in INR, not USD. Choose INR as your currency to pay this way. (offered: paypal_standard)',
    )
    expect(await row(id)).toBeNull()
    expect(await stockOf('FX-SCARF')).toBe(stock)
  })

  it('an all-virtual order needs no shipping address and costs face value', async () => {
    const id = orderId()
    const res = await place([{ sku: 'FX-GIFT', qty: 2, price: 1 }], {
      order_id: id,
      addressInformation: { billingAddress: indianAddress, payment_method_code: 'card' },
    })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    expect(await row(id)).toMatchObject({ currency: 'INR', grand_total_minor: 100_000 })
  })
})

describe('cash on delivery only where the courier serves the PIN code', () => {
  it('GET /api/checkout/cod answers a well-formed PIN code and refuses every other shape', async () => {
    const served = await api('/checkout/cod?postcode=560001')
    expect(served.status).toBe(200)
    expect(served.json.result).toMatchObject({ postcode: '560001', available: true, message: null })
    const notServed = await api('/checkout/cod?postcode=110099')
    expect(notServed.json.result).toMatchObject({
      available: false,
      message: 'Cash on delivery is not available for PIN 110099.',
    })
    const abroad = await api('/checkout/cod?postcode=560001&country=GB')
    expect(abroad.json.result).toMatchObject({
      available: false,
      message: 'Cash on delivery is available only for addresses in India.',
    })
    for (const bad of [
      '',
      '12345',
      '1234567',
      '012345',
      '56000a',
      '5600%31',
      "560001' OR 1=1",
      '５６０００１',
    ]) {
      const res = await api(`/checkout/cod?postcode=${encodeURIComponent(bad)}`)
      expect(res.status, bad).toBe(400)
      expect(res.json.result).toContain('postcode')
    }
    expect((await api('/checkout/cod?postcode=560001&country=GBR')).status).toBe(400)
  })

  it('an order asking COD for a PIN code not served, or for a foreign address, is a 400 that takes nothing', async () => {
    const before = await env.DB.prepare('SELECT COUNT(*) AS n FROM orders').first<{ n: number }>()
    const stock = await stockOf('FX-SCARF')
    for (const [address, message] of [
      [{ ...indianAddress, postcode: '110099' }, 'Cash on delivery is not available for PIN 110099.'],
      [ukAddress, 'Cash on delivery is available only for addresses in India.'],
      [{ ...indianAddress, postcode: '' }, 'Cash on delivery needs the PIN code of the shipping address.'],
    ] as const) {
      const res = await api('/order', {
        body: orderBody(orderId(), [{ sku: 'FX-SCARF', qty: 1, price: 1 }], address, { flatRate: false }),
      })
      expect(res.status).toBe(400)
      expect(res.json.result).toBe(`Invalid order: addressInformation.payment_method_code: ${message}`)
    }
    expect((await env.DB.prepare('SELECT COUNT(*) AS n FROM orders').first<{ n: number }>())?.n).toBe(
      before?.n,
    )
    expect(await stockOf('FX-SCARF')).toBe(stock)
  })

  it('the cart offers COD only once its Indian address has a served PIN code', async () => {
    const cartId = await cartWith([{ sku: 'FX-SCARF', qty: 1 }])
    const methods = async (postcode: string) => {
      const res = await api(`/cart/shipping-information?token=&cartId=${cartId}`, {
        body: { addressInformation: { shippingAddress: { ...indianAddress, postcode } } },
      })
      return res.json.result.payment_methods.map((m: { code: string }) => m.code)
    }
    expect(await methods('560001')).toContain('cashondelivery')
    expect(await methods('110099')).not.toContain('cashondelivery')
  })
})
