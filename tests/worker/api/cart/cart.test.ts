// /api/cart/* on the embedded backend: Magento shapes, ownership, stock, coupons, tax, methods.
import { beforeAll, describe, expect, it } from 'vitest'
import { computeTotals, TotalsError } from '../../../../worker/api/cart/totals'
import { seedCartFixtures } from '../../../helpers/cart-fixtures'
import { api, registerAndLogin } from '../../../helpers/user'

beforeAll(seedCartFixtures)

async function guestCart(): Promise<string> {
  const res = await api('/cart/create?token=', { method: 'POST' })
  expect(res.status).toBe(200)
  return res.json.result as string
}

const add = (cartId: string, cartItem: Record<string, unknown>, token = '') =>
  api(`/cart/update?token=${token}&cartId=${cartId}`, { body: { cartItem } })

const seg = (totals: { total_segments: { code: string; value: number }[] }, code: string) =>
  totals.total_segments.find((s) => s.code === code)?.value

describe('guest cart', () => {
  it('creates an opaque 32-hex cart and keeps one line per sku with absolute quantities', async () => {
    const cartId = await guestCart()
    expect(cartId).toMatch(/^[0-9a-f]{32}$/)
    const empty = await api(`/cart/pull?token=&cartId=${cartId}`)
    expect(empty.json.result).toEqual([])
    expect(empty.headers.get('cache-control')).toBe('no-store')
    const first = await add(cartId, { sku: 'FX-SCARF', qty: '2', quoteId: cartId })
    expect(first.status).toBe(200)
    expect(first.json.result).toMatchObject({
      sku: 'FX-SCARF',
      qty: 2,
      quote_id: cartId,
      name: 'Silk Scarf',
      product_type: 'simple',
    })
    expect(typeof first.json.result.item_id).toBe('number')
    // A replayed add (no item_id yet) must not double the quantity or add a second line.
    const replay = await add(cartId, { sku: 'FX-SCARF', qty: 2 })
    expect(replay.json.result.item_id).toBe(first.json.result.item_id)
    expect(replay.json.result.qty).toBe(2)
    const bumped = await add(cartId, { sku: 'FX-SCARF', qty: 3, item_id: first.json.result.item_id })
    expect(bumped.json.result.qty).toBe(3)
    const pulled = await api(`/cart/pull?token=&cartId=${cartId}`)
    expect(pulled.json.result).toHaveLength(1)
    expect(pulled.json.result[0]).toMatchObject({
      item_id: first.json.result.item_id,
      qty: 3,
      quote_id: cartId,
    })
  })

  it('resolves a configurable parent sku with configurable_item_options to the child and checks stock', async () => {
    const cartId = await guestCart()
    const option = {
      extension_attributes: { configurable_item_options: [{ option_id: '142', option_value: 1 }] },
    }
    const res = await add(cartId, { sku: 'FX-KURTA', qty: 1, product_option: option })
    expect(res.status).toBe(200)
    // The stored options are rebuilt from the catalogue (labels included), in the page's shape.
    expect(res.json.result).toMatchObject({
      sku: 'FX-KURTA-S',
      product_type: 'configurable',
      product_option: {
        extension_attributes: {
          configurable_item_options: [{ option_id: '142', option_value: '1', label: 'Size', value: 'S' }],
          custom_options: [],
          bundle_options: [],
        },
      },
    })
    const tooMany = await add(cartId, { sku: 'FX-KURTA-S', qty: 4 })
    expect(tooMany.status).toBe(400)
    expect(tooMany.json.result).toBe('The requested qty is not available')
    const soldOut = await add(cartId, { sku: 'FX-KURTA-M', qty: 1 })
    expect(soldOut.status).toBe(400)
    const noOptions = await add(cartId, { sku: 'FX-KURTA', qty: 1 })
    expect(noOptions.status).toBe(400)
    const unknown = await add(cartId, { sku: 'NOPE-404', qty: 1 })
    expect(unknown.status).toBe(400)
  })

  it('rejects bad bodies with clear 400 messages', async () => {
    const cartId = await guestCart()
    const noItem = await api(`/cart/update?token=&cartId=${cartId}`, { body: {} })
    expect(noItem.status).toBe(400)
    expect(noItem.json.result).toContain('cartItem')
    const zero = await add(cartId, { sku: 'FX-SCARF', qty: 0 })
    expect(zero.json.result).toContain('qty must be at least 1')
    const fraction = await add(cartId, { sku: 'FX-SCARF', qty: 1.5 })
    expect(fraction.status).toBe(400)
    const noCart = await api('/cart/pull?token=')
    expect(noCart.status).toBe(400)
    expect((await api('/cart/pull?token=&cartId=not-a-cart')).status).toBe(400)
    expect((await api(`/cart/pull?token=&cartId=${'0'.repeat(32)}`)).status).toBe(404)
  })

  it('deletes items idempotently', async () => {
    const cartId = await guestCart()
    const item = (await add(cartId, { sku: 'FX-SCARF', qty: 1 })).json.result
    const del = await api(`/cart/delete?token=&cartId=${cartId}`, {
      body: { cartItem: { sku: 'FX-SCARF', item_id: item.item_id } },
    })
    expect(del.json.result).toBe(true)
    const again = await api(`/cart/delete?token=&cartId=${cartId}`, {
      body: { cartItem: { item_id: item.item_id } },
    })
    expect(again.status).toBe(200)
    expect((await api(`/cart/pull?token=&cartId=${cartId}`)).json.result).toEqual([])
  })
})

describe('totals, tax and coupons', () => {
  it('computes totals with tax from the tax rules and Magento total_segments', async () => {
    const cartId = await guestCart()
    await add(cartId, { sku: 'FX-SCARF', qty: 2 })
    await add(cartId, { sku: 'FX-KURTA-S', qty: 1 })
    const res = await api(`/cart/totals?token=&cartId=${cartId}`)
    expect(res.status).toBe(200)
    const t = res.json.result
    // Catalogue prices include GST (12 %): 2 × 1000 + 1 × 1500 (special) is what India pays.
    expect(t.subtotal_incl_tax).toBe(3500)
    expect(t.grand_total).toBe(3500)
    // The GST inside each row, rounded to the paisa: 2000 × 12/112 and 1500 × 12/112.
    const gst = Math.round((200_000 * 12) / 112) + Math.round((150_000 * 12) / 112)
    expect(t.tax_amount).toBe(gst / 100)
    expect(t.subtotal).toBe((350_000 - gst) / 100)
    expect(seg(t, 'tax')).toBe(gst / 100)
    expect(t.total_segments.find((x: { code: string }) => x.code === 'tax').title).toBe('Includes GST')
    expect(t.shipping_amount).toBe(0)
    expect(t.items_qty).toBe(3)
    expect(t.base_currency_code).toBe('INR')
    expect(t.total_segments.map((s: { code: string }) => s.code)).toEqual([
      'subtotal',
      'shipping',
      'tax',
      'grand_total',
    ])
    const kurta = t.items.find((i: { sku: string }) => i.sku === 'FX-KURTA-S')
    expect(kurta).toMatchObject({ price_incl_tax: 1500, row_total_incl_tax: 1500, tax_percent: 12, qty: 1 })
    expect(kurta.price).toBe((150_000 - Math.round((150_000 * 12) / 112)) / 100)
    expect(JSON.parse(kurta.options)).toEqual([{ label: 'Size', value: 'S' }])
  })

  it('applies WELCOME10, refuses expired, unknown and below-minimum coupons, and removes coupons', async () => {
    const cartId = await guestCart()
    await add(cartId, { sku: 'FX-SCARF', qty: 2 })
    await add(cartId, { sku: 'FX-KURTA-S', qty: 1 })
    const expired = await api(`/cart/apply-coupon?token=&cartId=${cartId}&coupon=MONSOON25`, {
      method: 'POST',
    })
    expect(expired.status).toBe(400)
    expect(expired.json.result).toContain('has expired')
    const unknown = await api(`/cart/apply-coupon?token=&cartId=${cartId}&coupon=FREESTUFF`, {
      method: 'POST',
    })
    expect(unknown.json.result).toBe('The coupon code "FREESTUFF" is not valid.')
    const minimum = await api(`/cart/apply-coupon?token=&cartId=${cartId}&coupon=FLAT500`, { method: 'POST' })
    expect(minimum.status).toBe(400)
    expect(minimum.json.result).toContain('at least ₹5,000')
    const applied = await api(`/cart/apply-coupon?token=&cartId=${cartId}&coupon=welcome10`, {
      method: 'POST',
    })
    expect(applied.json.result).toBe(true)
    const t = (await api(`/cart/totals?token=&cartId=${cartId}`)).json.result
    expect(t.coupon_code).toBe('WELCOME10')
    expect(t.discount_amount).toBe(-350)
    expect(seg(t, 'discount')).toBe(-350)
    expect(t.grand_total).toBe(3150)
    // Tax is what the discounted rows contain (the discount split 2000 : 1500).
    expect(t.tax_amount).toBe((Math.round((180_000 * 12) / 112) + Math.round((135_000 * 12) / 112)) / 100)
    expect((await api(`/cart/coupon?token=&cartId=${cartId}`)).json.result).toBe('WELCOME10')
    await api(`/cart/delete-coupon?token=&cartId=${cartId}`, { method: 'POST' })
    const after = (await api(`/cart/totals?token=&cartId=${cartId}`)).json.result
    expect(after.grand_total).toBe(3500)
    expect(after.coupon_code).toBeUndefined()
  })

  it('applies FLAT500 above ₹5000', async () => {
    const cartId = await guestCart()
    await add(cartId, { sku: 'FX-LEHENGA', qty: 1 })
    expect(
      (await api(`/cart/apply-coupon?token=&cartId=${cartId}&coupon=FLAT500`, { method: 'POST' })).status,
    ).toBe(200)
    const t = (await api(`/cart/totals?token=&cartId=${cartId}`)).json.result
    expect(t.subtotal_incl_tax).toBe(6000)
    expect(t.grand_total).toBe(5500)
  })

  it('prices for the shipping country: GST out, no US tax in, and no cash on delivery', async () => {
    const cartId = await guestCart()
    await add(cartId, { sku: 'FX-SCARF', qty: 1 })
    const res = await api(`/cart/shipping-information?token=&cartId=${cartId}`, {
      body: {
        addressInformation: {
          shippingAddress: {
            countryId: 'US',
            street: ['1 Main St'],
            city: 'Austin',
            postcode: '73301',
            firstname: 'A',
            lastname: 'B',
          },
          billingAddress: {
            countryId: 'US',
            street: ['1 Main St'],
            city: 'Austin',
            firstname: 'A',
            lastname: 'B',
          },
          shippingCarrierCode: 'flatrate',
          shippingMethodCode: 'flatrate',
        },
      },
    })
    expect(res.status).toBe(200)
    // 1000 / 1.12 = 892.86 → ₹893 (whole rupees); the US price includes no tax; shipping to the
    // United States is ₹2,499 below the threshold, and carries no Indian tax either.
    expect(res.json.result.totals).toMatchObject({
      subtotal_incl_tax: 893,
      tax_amount: 0,
      shipping_amount: 2499,
      grand_total: 893 + 2499,
    })
    expect(res.json.result.payment_methods.map((m: { code: string }) => m.code)).not.toContain(
      'cashondelivery',
    )
    const bad = await api(`/cart/shipping-information?token=&cartId=${cartId}`, {
      body: { addressInformation: { shippingAddress: {} } },
    })
    expect(bad.status).toBe(400)
    expect(bad.json.result).toContain('country_id')
  })

  it("refuses to compute totals without a country (spec's message)", () => {
    expect(() =>
      computeTotals({
        lines: [],
        coupon: null,
        shipping: { ships: false },
        currency: 'INR',
        country: null,
        now: 0,
      }),
    ).toThrow(new TotalsError('Please do set the tax.defaultCountry in order to calculate totals.'))
  })
})

describe('payment and shipping methods', () => {
  it('offers the methods that charge the currency shown (card and cash on delivery in rupees, PayPal in dollars), and one courier at the rules’ rate for the address', async () => {
    const cartId = await guestCart()
    await add(cartId, { sku: 'FX-SCARF', qty: 1 })
    const pay = await api(`/cart/payment-methods?token=&cartId=${cartId}`)
    expect(pay.json.result.map((m: { code: string }) => m.code)).toEqual(['card', 'cashondelivery'])
    const dollars = await api(`/cart/payment-methods?token=&cartId=${cartId}`, {
      headers: { cookie: 'currency=USD' },
    })
    expect(dollars.json.result.map((m: { code: string }) => m.code)).toEqual(['paypal_standard'])
    const ship = await api(`/cart/shipping-methods?token=&cartId=${cartId}`, {
      body: { address: { country_id: 'IN' } },
    })
    expect(ship.json.result).toEqual([
      expect.objectContaining({
        carrier_code: 'flatrate',
        method_code: 'flatrate',
        method_title: 'Courier within India',
        amount: 149,
        available: true,
      }),
    ])
    // The address asked about decides the rate: the north-east's zone, and abroad the country's.
    const east = await api(`/cart/shipping-methods?token=&cartId=${cartId}`, {
      body: { address: { country_id: 'IN', postcode: '781001' } },
    })
    expect(east.json.result[0]).toMatchObject({ amount: 249 })
    const uk = await api(`/cart/shipping-methods?token=&cartId=${cartId}`, {
      body: { address: { country_id: 'GB', postcode: 'SW1A 1AA' } },
    })
    expect(uk.json.result[0]).toMatchObject({
      amount: 1999,
      method_title: 'International courier to the United Kingdom',
    })
    expect((await api(`/cart/shipping-methods?token=&cartId=${cartId}`, { body: {} })).status).toBe(400)
  })

  it('hides cash on delivery (and shipping) for a virtual-only cart', async () => {
    const cartId = await guestCart()
    await add(cartId, { sku: 'FX-GIFT', qty: 1 })
    const pay = await api(`/cart/payment-methods?token=&cartId=${cartId}`)
    expect(pay.json.result.map((m: { code: string }) => m.code)).toEqual(['card'])
    expect((await api(`/cart/shipping-methods?token=&cartId=${cartId}`)).json.result).toEqual([])
  })
})

describe('customer carts and ownership', () => {
  it('gives a customer one numeric cart; another customer or a guest cannot touch it (403/401) on any endpoint', async () => {
    const a = await registerAndLogin('cart-a')
    const b = await registerAndLogin('cart-b')
    const created = await api(`/cart/create?token=${a.token}`, { method: 'POST' })
    const cartId = created.json.result as string
    expect(cartId).toMatch(/^\d+$/)
    expect((await api(`/cart/create?token=${a.token}`, { method: 'POST' })).json.result).toBe(cartId)
    expect((await add(cartId, { sku: 'FX-SCARF', qty: 1 }, a.token)).status).toBe(200)
    const calls: [string, string, unknown?][] = [
      ['GET', '/cart/pull'],
      ['POST', '/cart/update', { cartItem: { sku: 'FX-SCARF', qty: 5 } }],
      ['POST', '/cart/delete', { cartItem: { sku: 'FX-SCARF' } }],
      ['GET', '/cart/totals'],
      ['GET', '/cart/payment-methods'],
      ['GET', '/cart/shipping-methods'],
      ['POST', '/cart/shipping-methods', { address: { country_id: 'IN' } }],
      [
        'POST',
        '/cart/shipping-information',
        { addressInformation: { shippingAddress: { countryId: 'IN' } } },
      ],
      ['POST', '/cart/collect-totals', {}],
      ['POST', '/cart/apply-coupon', {}],
      ['POST', '/cart/delete-coupon', {}],
      ['GET', '/cart/coupon'],
    ]
    for (const [method, path, body] of calls) {
      const other = await api(`${path}?token=${b.token}&cartId=${cartId}&coupon=WELCOME10`, { method, body })
      expect(other.status, `${method} ${path} as B`).toBe(403)
      const guest = await api(`${path}?token=&cartId=${cartId}&coupon=WELCOME10`, { method, body })
      expect(guest.status, `${method} ${path} as guest`).toBe(401)
    }
    const mine = await api(`/cart/pull?token=${a.token}&cartId=${cartId}`)
    expect(mine.json.result).toEqual([expect.objectContaining({ sku: 'FX-SCARF', qty: 1, quote_id: cartId })])
    const viaHeader = await api(`/cart/pull?cartId=${cartId}`, { bearer: a.token })
    expect(viaHeader.status).toBe(200)
  })
})
