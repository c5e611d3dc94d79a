// The money matrix: for shoppers in India, the UK, the US and elsewhere (France), seeing rupees,
// dollars or pounds, buying a simple piece of jewellery, a configurable kurta, a bundle, a grouped
// set and a gift card from the demo catalogue, with cards (Razorpay, here also configured for
// dollars and pounds), PayPal, cash on delivery or store credit:
// - the price the catalogue answers for the shopper's country (what tiles and the product page
//   show) = the cart line = the review line, in the currency shown; the lines sum to the totals;
// - each method the shop offers for that currency and address is offered, and the amount the shop
//   asks of the provider (recorded where the request leaves the worker) = the total the review
//   states (less the store credit spent) = the order's total, in the same currency;
// - a method that cannot be offered is not, and an order asking for it anyway is refused with the
//   reason the checkout shows, before anything is written.
import { env } from 'cloudflare:test'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { SHIPPING_RULES } from '../../../../shared/config/shipping'
import { formatMinor, formatUnitPrice } from '../../../../shared/domain/currency'
import { grantStoreCredit } from '../../../../worker/api/giftcard/routes'
import { freshEmail, newOrderId, orderBody, testAddress } from '../../../helpers/orders'
import { registerAndLogin } from '../../../helpers/user'
import { type AskedOfProvider, call, type Json, payEnv, recordProviderCalls } from '../payment/harness'

/** The shop with Razorpay's international currencies switched on. */
const shopEnv = { ...payEnv, PAYMENT_CURRENCIES: 'card=INR USD GBP' } as Env

const COUNTRIES = {
  IN: { city: 'Bengaluru', postcode: '560001' },
  GB: { city: 'London', postcode: 'SW1A 1AA' },
  US: { city: 'New York', postcode: '10001' },
  FR: { city: 'Paris', postcode: '75001' },
} as const
type Country = keyof typeof COUNTRIES
const CURRENCIES = ['INR', 'USD', 'GBP'] as const
type Currency = (typeof CURRENCIES)[number]

interface Line {
  kind: string
  sku: string
  /** The document the catalogue answers, and the variant of it the line is. */
  doc: string
  child?: string
  product_option?: unknown
}

/** What the shop asked of a provider: every order it opened there. */
const asked: AskedOfProvider[] = []

const lines: Line[] = []

beforeAll(async () => {
  recordProviderCalls(asked)
  const pick = async (where: string) => {
    const row = await env.DB.prepare(
      `SELECT sku, doc FROM products WHERE ${where} AND status = 1 ORDER BY id LIMIT 1`,
    ).first<{ sku: string; doc: string }>()
    if (!row) throw new Error(`no demo product where ${where}`)
    return { sku: row.sku, doc: JSON.parse(row.doc) as Json }
  }
  const jewel = await pick("type_id = 'simple' AND json_extract(doc, '$.hsn_code') LIKE '71%'")
  const kurta = await pick("type_id = 'configurable' AND json_extract(doc, '$.hsn_code') LIKE '62%'")
  const child = kurta.doc.configurable_children.find((c: Json) => c.status !== 2)
  const bundle = await pick("type_id = 'bundle'")
  const grouped = await pick("type_id = 'grouped'")
  const gift = await pick("type_id = 'virtual' AND json_extract(doc, '$.tax_class_id') = 5")
  lines.push(
    { kind: 'simple', sku: jewel.sku, doc: jewel.sku },
    { kind: 'configurable', sku: child.sku, doc: kurta.sku, child: child.sku },
    {
      kind: 'bundle',
      sku: bundle.sku,
      doc: bundle.sku,
      product_option: {
        extension_attributes: {
          bundle_options: bundle.doc.bundle_options.map((o: Json) => ({
            option_id: o.option_id,
            option_qty: 1,
            option_selections: [o.product_links.find((l: Json) => l.is_default)?.id ?? o.product_links[0].id],
          })),
        },
      },
    },
    { kind: 'grouped', sku: grouped.sku, doc: grouped.sku },
    { kind: 'gift card', sku: gift.sku, doc: gift.sku },
  )
  // Enough stock for every order the matrix places.
  await env.DB.prepare(
    'UPDATE inventory SET qty = 10000, is_in_stock = 1 WHERE qty < 10000 OR is_in_stock = 0',
  ).run()
})

afterAll(() => {
  vi.unstubAllGlobals()
})

const address = (country: Country, email: string) =>
  testAddress(email, { country_id: country, ...COUNTRIES[country] })
const minor = (x: number) => Math.round(x * 100)

/** The highest total cash on delivery collects, in paise (the operator's rule). */
const COD_CAP_MINOR = SHIPPING_RULES.cod.maxOrderValue * 100

/**
 * What the shop must offer: the methods that charge the currency shown and serve the address (cash
 * on delivery up to the highest total it collects; `totalMinor` is the order's before its fee).
 */
function expectedMethods(country: Country, currency: Currency, totalMinor: number): string[] {
  const out = ['card']
  if (currency !== 'INR') out.unshift('paypal_standard')
  if (currency === 'INR' && country === 'IN' && totalMinor <= COD_CAP_MINOR) out.push('cashondelivery')
  return out
}

/** Why a method is not offered, in the words the checkout shows (null: offered). */
function refusal(method: string, country: Country, currency: Currency, totalMinor: number): string | null {
  if (method === 'paypal_standard' && currency === 'INR')
    return 'PayPal: charged in USD or GBP, not INR. Choose USD or GBP as your currency to pay this way.'
  if (method === 'cashondelivery' && currency !== 'INR')
    return `Cash On Delivery: charged in INR, not ${currency}. Choose INR as your currency to pay this way.`
  if (method === 'cashondelivery' && country !== 'IN')
    return 'Cash on delivery is available only for addresses in India.'
  if (method === 'cashondelivery' && totalMinor > COD_CAP_MINOR)
    return `Cash on delivery is available for orders up to ${formatMinor(COD_CAP_MINOR, 'INR')}. Please choose another way to pay.`
  return null
}

for (const country of Object.keys(COUNTRIES) as Country[]) {
  for (const currency of CURRENCIES) {
    describe(`a shopper in ${country} shown ${currency}`, () => {
      const cookie = `currency=${currency}; country=${country}`
      const shopper = (path: string, body?: unknown, bearer?: string) =>
        call(path, { body, headers: { cookie }, ...(bearer ? { bearer } : {}) }, shopEnv)

      it('sees one price from the catalogue to the review, and is charged what the review says, by every method offered', async () => {
        // The catalogue's answer for the shopper (tiles and the product page are built from it).
        const search = await call(
          `/api/catalog/vue_storefront_catalog/product/_search?size=10&request=${encodeURIComponent(
            JSON.stringify({ query: { bool: { filter: { terms: { sku: lines.map((l) => l.doc) } } } } }),
          )}`,
          { headers: { cookie } },
          shopEnv,
        )
        expect(search.status).toBe(200)
        const docs = new Map<string, Json>(search.json.hits.hits.map((h: Json) => [h._source.sku, h._source]))
        const shown = (l: Line) => {
          const doc = docs.get(l.doc)
          const priced = l.child ? doc.configurable_children.find((c: Json) => c.sku === l.child) : doc
          return formatUnitPrice(priced.final_price_incl_tax, currency)
        }

        // The cart, and the review: the totals for the shipping address in that country.
        const cartId = (await shopper('/api/cart/create?token=', {})).json.result as string
        for (const l of lines) {
          const added = await shopper(`/api/cart/update?token=&cartId=${cartId}`, {
            cartItem: {
              sku: l.sku,
              qty: 1,
              ...(l.product_option ? { product_option: l.product_option } : {}),
            },
          })
          expect(added.status, `${l.kind}: ${JSON.stringify(added.json)}`).toBe(200)
        }
        const ship = address(country, `matrix.${country}.${currency}@example.com`.toLowerCase())
        const info = await shopper(`/api/cart/shipping-information?token=&cartId=${cartId}`, {
          addressInformation: { shippingAddress: ship, billingAddress: ship },
        })
        expect(info.status, JSON.stringify(info.json)).toBe(200)
        const review = info.json.result.totals
        expect(review.quote_currency_code).toBe(currency)
        const pulled = (await shopper(`/api/cart/pull?token=&cartId=${cartId}`)).json.result as Json[]
        for (const l of lines) {
          const item = review.items.find((i: Json) => i.sku === l.sku)
          const cartLine = pulled.find((p) => p.sku === l.sku)
          const seen = {
            catalogue: shown(l),
            cartLine: formatMinor(minor(cartLine.price), currency),
            review: formatMinor(minor(item.price_incl_tax), currency),
          }
          expect(seen, l.kind).toEqual({ catalogue: seen.review, cartLine: seen.review, review: seen.review })
        }
        // The lines sum to the subtotal and the totals reconcile, to the minor unit.
        const ext = review.extension_attributes
        const rows = review.items.reduce(
          (s: number, i: Json) => s + i.extension_attributes.row_total_minor,
          0,
        )
        expect(rows).toBe(ext.subtotal_minor)
        expect(ext.subtotal_minor - ext.discount_minor + ext.shipping_minor).toBe(ext.grand_total_minor)
        expect(minor(review.grand_total)).toBe(ext.grand_total_minor)

        // The methods offered are exactly those that charge the currency and serve the address.
        const offered = info.json.result.payment_methods.map((m: Json) => m.code)
        expect(offered).toEqual(expectedMethods(country, currency, ext.grand_total_minor))

        const products = lines.map((l) => ({
          sku: l.sku,
          qty: 1,
          price: 1,
          ...(l.product_option ? { product_option: l.product_option } : {}),
        }))
        // Each order for a shopper of its own: what unpaid orders may hold per shopper is tested elsewhere.
        const placeWith = (
          method: string,
          over: Record<string, unknown> = {},
          signedIn?: { id: number; token: string },
        ) => {
          const to = { ...ship, email: freshEmail(`matrix.${country}.${currency}`.toLowerCase()) }
          return shopper(
            '/api/order',
            {
              order_id: newOrderId(`matrix-${country}-${currency}`),
              user_id: signedIn ? String(signedIn.id) : '',
              cart_id: '',
              products,
              addressInformation: {
                shippingAddress: to,
                billingAddress: to,
                payment_method_code: method,
              },
              ...over,
            },
            signedIn?.token,
          )
        }
        const orderRow = (number: string) =>
          env.DB.prepare('SELECT currency, grand_total_minor FROM orders WHERE increment_id = ?')
            .bind(number)
            .first<{ currency: string; grand_total_minor: number }>()

        for (const method of ['card', 'paypal_standard', 'cashondelivery']) {
          const why = refusal(method, country, currency, ext.grand_total_minor)
          const placed = await placeWith(method)
          if (why) {
            expect(offered).not.toContain(method)
            expect(placed.status, method).toBe(400)
            expect(placed.json.result).toContain(why)
            continue
          }
          expect(placed.status, `${method}: ${JSON.stringify(placed.json)}`).toBe(200)
          const number = placed.json.result.orderNumber as string
          // Paid on delivery, the order carries the fee the review states once the method is chosen.
          const fee = method === 'cashondelivery' ? SHIPPING_RULES.cod.fee * 100 : 0
          expect(await orderRow(number), method).toEqual({
            currency,
            grand_total_minor: ext.grand_total_minor + fee,
          })
          if (method === 'cashondelivery') continue
          const before = asked.length
          const started = await call(
            '/api/payment/start',
            { body: { orderNumber: number, accessKey: placed.json.result.accessKey } },
            shopEnv,
          )
          expect(started.status, `${method}: ${JSON.stringify(started.json)}`).toBe(200)
          expect(asked.slice(before), method).toEqual([
            {
              provider: method === 'card' ? 'razorpay' : 'paypal',
              amountMinor: ext.grand_total_minor,
              currency,
            },
          ])
        }

        // Store credit is kept in rupees: spent on an order in rupees (the card pays the rest), and
        // refused, saying so, in any other currency.
        // A customer of its own per cell, with ₹1,000 of credit: what one account may place an hour and
        // hold unpaid is limited.
        const user = await registerAndLogin('matrix')
        const customer = { id: user.id, token: user.token }
        await grantStoreCredit(env.DB, customer.id, 1000, 'matrix credit', Date.now())
        const credited = await placeWith('card', { store_credit_applied: true }, customer)
        if (currency !== 'INR') {
          expect(credited.status).toBe(400)
          expect(credited.json.result).toContain('store credit is in INR')
          return
        }
        expect(credited.status, JSON.stringify(credited.json)).toBe(200)
        const creditMinor = Math.min(100_000, ext.grand_total_minor)
        const number = credited.json.result.orderNumber as string
        expect(await orderRow(number)).toEqual({
          currency,
          grand_total_minor: ext.grand_total_minor - creditMinor,
        })
        if (ext.grand_total_minor === creditMinor) return
        const before = asked.length
        const started = await call(
          '/api/payment/start',
          { body: { orderNumber: number }, headers: { 'x-order-link': credited.json.result.orderLinkToken } },
          shopEnv,
        )
        expect(started.status, JSON.stringify(started.json)).toBe(200)
        expect(asked.slice(before)).toEqual([
          { provider: 'razorpay', amountMinor: ext.grand_total_minor - creditMinor, currency },
        ])
      })
    })
  }
}

// The shipping cell: one inexpensive piece, a bag below the free-shipping threshold, for a
// shopper at home (the zone of the PIN code, cash on delivery with its fee) and abroad (the
// country's zone in the currency shown). The shipping line and the COD fee are money like the
// lines: the review states them, the order total carries them, and the provider is asked for
// exactly that total, in one currency.
const SMALL_BAG: {
  country: Country
  currency: Currency
  postcode?: string
  shipping: number
  cod?: false
}[] = [
  { country: 'IN', currency: 'INR', shipping: 14_900 },
  // Guwahati: the north-east's zone; the demo's PIN table collects no cash there.
  { country: 'IN', currency: 'INR', postcode: '781001', shipping: 24_900, cod: false },
  // ₹1,999 × 0.01111 = £22.21 → £22; ₹2,499 × 0.01429 = $35.71 → $36; ₹2,999 → $43.
  { country: 'GB', currency: 'GBP', shipping: 2200 },
  { country: 'US', currency: 'USD', shipping: 3600 },
  { country: 'FR', currency: 'USD', shipping: 4300 },
]

describe('a bag below the free-shipping threshold', () => {
  for (const cell of SMALL_BAG) {
    it(`${cell.country}${cell.postcode ? ` (PIN ${cell.postcode})` : ''} in ${cell.currency}: shipping is charged as reviewed, by every method offered`, async () => {
      const cookie = `currency=${cell.currency}; country=${cell.country}`
      const shopper = (path: string, body?: unknown) => call(path, { body, headers: { cookie } }, shopEnv)
      // The demo's cheapest simple piece (below the threshold at home and abroad).
      const jewel = (await env.DB.prepare(
        "SELECT sku FROM products WHERE type_id = 'simple' AND status = 1 AND price BETWEEN 500 AND 2500 ORDER BY price, id LIMIT 1",
      ).first<{ sku: string }>()) as { sku: string }
      const cartId = (await shopper('/api/cart/create?token=', {})).json.result as string
      expect(
        (await shopper(`/api/cart/update?token=&cartId=${cartId}`, { cartItem: { sku: jewel.sku, qty: 1 } }))
          .status,
      ).toBe(200)
      const ship = {
        ...address(cell.country, `bag.${cell.country}.${cell.currency}@example.com`.toLowerCase()),
        ...(cell.postcode ? { postcode: cell.postcode } : {}),
      }
      const reviewFor = async (method: string) => {
        const info = await shopper(`/api/cart/shipping-information?token=&cartId=${cartId}`, {
          addressInformation: { shippingAddress: ship, billingAddress: ship, payment_method_code: method },
        })
        expect(info.status, JSON.stringify(info.json)).toBe(200)
        return info.json.result
      }
      const card = await reviewFor('card')
      const ext = card.totals.extension_attributes
      expect(ext.shipping_minor).toBe(cell.shipping)
      expect(ext.subtotal_minor - ext.discount_minor + ext.shipping_minor + ext.cod_fee_minor).toBe(
        ext.grand_total_minor,
      )
      const offered = card.payment_methods.map((m: Json) => m.code) as string[]
      expect(offered).toEqual(
        expectedMethods(cell.country, cell.currency, ext.grand_total_minor).filter(
          (m) => cell.cod !== false || m !== 'cashondelivery',
        ),
      )
      for (const method of offered) {
        const review = method === 'card' ? card : await reviewFor(method)
        const total = review.totals.extension_attributes.grand_total_minor as number
        // The fee is a line of its own, only for cash on delivery.
        expect(review.totals.extension_attributes.cod_fee_minor).toBe(method === 'cashondelivery' ? 4900 : 0)
        const to = { ...ship, email: freshEmail(`bag.${cell.country}`.toLowerCase()) }
        const placed = await shopper(
          '/api/order',
          orderBody(
            newOrderId(`bag-${cell.country}-${cell.currency}`),
            [{ sku: jewel.sku, qty: 1, price: 1 }],
            to,
            {
              payment: method,
              flatRate: false,
            },
          ),
        )
        expect(placed.status, `${method}: ${JSON.stringify(placed.json)}`).toBe(200)
        const row = await env.DB.prepare(
          'SELECT currency, grand_total_minor FROM orders WHERE increment_id = ?',
        )
          .bind(placed.json.result.orderNumber)
          .first()
        expect(row, method).toEqual({ currency: cell.currency, grand_total_minor: total })
        if (method === 'cashondelivery') continue
        const before = asked.length
        const started = await call(
          '/api/payment/start',
          { body: { orderNumber: placed.json.result.orderNumber, accessKey: placed.json.result.accessKey } },
          shopEnv,
        )
        expect(started.status, JSON.stringify(started.json)).toBe(200)
        expect(asked.slice(before)).toEqual([
          {
            provider: method === 'card' ? 'razorpay' : 'paypal',
            amountMinor: total,
            currency: cell.currency,
          },
        ])
      }
    })
  }
})
