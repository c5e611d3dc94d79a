// A whole catalogue in US dollars (BASE_CURRENCY = USD) end to end, for a shopper in the United
// States shown dollars and one in India shown rupees: the listing tile = the product page = the
// cart line = the review line = what PayPal (or Razorpay) is asked for = the order's total, in one
// currency, to the cent; a $0.49 accessory keeps its cents (nothing rounds to zero); and the
// listing offers a price filter whose bands come from the catalogue's own dollar prices.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { parseImportFile } from '../../../../scripts/catalogue/import/transform'
import {
  clearCatalogueStatements,
  importStatements,
  importUrlMappings,
} from '../../../../scripts/catalogue/import/write'
import { putUrlMappings } from '../../../../scripts/catalogue/seed/apply'
import { formatMinor } from '../../../../shared/domain/currency'
import app from '../../../../worker/app'
import { readConfig } from '../../../../worker/platform/env'
import sdkCategories from '../../../fixtures/vsf-export/sdk-categories.json?raw'
import sdkProducts from '../../../fixtures/vsf-export/sdk-products.json?raw'
import { freshEmail, newOrderId, orderBody, testAddress } from '../../../helpers/orders'
import { type AskedOfProvider, call, type Json, payEnv, recordProviderCalls } from '../payment/harness'

/** Rupees one dollar buys in this shop's configuration. */
const INR_PER_USD = 83
const usdEnv = {
  ...payEnv,
  BASE_CURRENCY: 'USD',
  DEFAULT_CURRENCY: 'USD',
  CURRENCY_RATES: `INR=${INR_PER_USD}`,
} as Env

/** What the shop asked of a provider (recorded where the request leaves the worker). */
const asked: AskedOfProvider[] = []

const CATEGORY_ID = 820
const CATEGORY_PAGE = '/harbour-edit/harbour-edit-820'

/** The sample export's $39 hoodie, and a $0.49 pin made from it, both listed in the Harbour Edit. */
function catalogue(): string {
  const [hoodie] = JSON.parse(sdkProducts) as Json[]
  hoodie.category_ids = [String(CATEGORY_ID)]
  const pin = structuredClone(hoodie)
  Object.assign(pin, {
    id: 8301,
    name: 'Anchor Pin',
    sku: 'PIN',
    url_key: 'anchor-pin',
    url_path: 'coastal-tops/anchor-pin-8301.html',
    price: 0.49,
  })
  pin.configurable_children = pin.configurable_children.map((c: Json, i: number) => ({
    ...c,
    id: 83011 + i,
    sku: c.sku.replace('BWH', 'PIN'),
    name: c.name.replace('Breakwater Hoodie', 'Anchor Pin'),
    url_key: c.url_key.replace('breakwater-hoodie', 'anchor-pin'),
    price: 0.49,
  }))
  return JSON.stringify([hoodie, pin])
}

beforeAll(async () => {
  const parsed = [
    parseImportFile(sdkCategories, 'sdk-categories.json', { type: 'category' }),
    parseImportFile(catalogue(), 'sdk-products.json', { type: 'product' }),
  ]
  for (const p of parsed) expect(p.errors).toEqual([])
  const records = parsed.flatMap((p) => p.records)
  await env.DB.batch([...clearCatalogueStatements(env.DB), ...importStatements(env.DB, records)])
  await putUrlMappings(env.URL_MAPPINGS, importUrlMappings(records))
  await env.DB.prepare(
    "UPDATE inventory SET qty = 1000, is_in_stock = 1 WHERE sku LIKE 'BWH-%' OR sku LIKE 'PIN-%'",
  ).run()
  recordProviderCalls(asked)
})

afterAll(() => {
  vi.unstubAllGlobals()
  // The rates are module state of the isolate: the next file starts from the shop's own env.
  readConfig(env)
})

/** The text of a page's elements carrying `testid`, in page order. */
function texts(html: string, testid: string): string[] {
  const out: string[] = []
  const re = new RegExp(`data-testid="${testid}"[^>]*>([\\s\\S]*?)</(?:p|span)>`, 'g')
  for (const m of html.matchAll(re)) out.push((m[1] ?? '').replace(/<[^>]+>/g, '').trim())
  return out
}

async function page(path: string, cookie: string): Promise<string> {
  const ctx = createExecutionContext()
  const res = await app.fetch(new Request(`https://shop.test${path}`, { headers: { cookie } }), usdEnv, ctx)
  const html = await res.text()
  await waitOnExecutionContext(ctx)
  expect(res.status, `${path}: ${html.slice(0, 200)}`).toBe(200)
  return html
}

/** The price filter's options on a listing page: id and label. */
function priceOptions(html: string): { id: string; label: string }[] {
  const out: { id: string; label: string }[] = []
  const re = /data-attr="price" data-id="([^"]+)"[\s\S]*?class="filter__label">([^<]*)</g
  for (const m of html.matchAll(re)) out.push({ id: m[1] as string, label: m[2] as string })
  return out
}

const SHOPPERS = [
  {
    who: 'a shopper in the United States shown dollars',
    country: 'US',
    currency: 'USD',
    method: 'paypal_standard',
    city: 'New York',
    postcode: '10001',
    hoodie: 3900,
    pin: 49,
  },
  {
    who: 'a shopper in India shown rupees',
    country: 'IN',
    currency: 'INR',
    method: 'card',
    city: 'Bengaluru',
    postcode: '560001',
    hoodie: 39 * INR_PER_USD * 100,
    pin: 4100,
  },
] as const

describe('a catalogue whose prices are in US dollars', () => {
  for (const s of SHOPPERS) {
    it(`${s.who}: tile = product page = cart = review = charged = order total`, async () => {
      const cookie = `currency=${s.currency}; country=${s.country}`
      const expected = { BWH: formatMinor(s.hoodie, s.currency), PIN: formatMinor(s.pin, s.currency) }
      expect(s.pin, 'nothing rounds to zero').toBeGreaterThan(0)

      // The listing's tiles, in its default order (newest first: both were imported together).
      const listing = await page(CATEGORY_PAGE, cookie)
      const tiles = texts(listing, 'tile-price')
      expect(tiles.sort()).toEqual([expected.BWH, expected.PIN].sort())
      // A price filter from the listing's own prices (fixed rupee bands put both products in one
      // band, and a filter that cannot narrow is not offered): a band is of the prices the tiles
      // show, in the shopper's currency, and choosing it lists exactly the products shown in it.
      const bands = priceOptions(listing)
      expect(bands.length).toBeGreaterThanOrEqual(2)
      for (const band of bands) {
        const [from, to] = band.id.split('-').map((x) => (x === '' ? Number.POSITIVE_INFINITY : Number(x)))
        const inBand = (['BWH', 'PIN'] as const).filter((sku) => {
          const shown = (sku === 'BWH' ? s.hoodie : s.pin) / 100
          return shown >= (from as number) && shown < (to as number)
        })
        const chosen = await page(`${CATEGORY_PAGE}?price=${band.id}`, cookie)
        expect(texts(chosen, 'tile-price').sort(), band.label).toEqual(
          inBand.map((sku) => expected[sku]).sort(),
        )
      }

      // Each product page.
      for (const [sku, path] of [
        ['BWH', '/coastal-tops/breakwater-hoodie-8201.html'],
        ['PIN', '/coastal-tops/anchor-pin-8301.html'],
      ] as const) {
        const html = await page(path, cookie)
        expect(texts(html, 'price-final')[0], sku).toBe(expected[sku])
      }

      // The cart and its review for an address in the shopper's country.
      const shopper = (path: string, body?: unknown) => call(path, { body, headers: { cookie } }, usdEnv)
      const cartId = (await shopper('/api/cart/create?token=', {})).json.result as string
      for (const sku of ['BWH-S', 'PIN-S']) {
        const added = await shopper(`/api/cart/update?token=&cartId=${cartId}`, { cartItem: { sku, qty: 1 } })
        expect(added.status, JSON.stringify(added.json)).toBe(200)
      }
      const email = freshEmail('usd-catalogue')
      const ship = testAddress(email, { country_id: s.country, city: s.city, postcode: s.postcode })
      const info = await shopper(`/api/cart/shipping-information?token=&cartId=${cartId}`, {
        addressInformation: { shippingAddress: ship, billingAddress: ship },
      })
      expect(info.status, JSON.stringify(info.json)).toBe(200)
      const review = info.json.result.totals
      expect(review.quote_currency_code).toBe(s.currency)
      expect(review.base_currency_code).toBe('USD')
      const pulled = (await shopper(`/api/cart/pull?token=&cartId=${cartId}`)).json.result as Json[]
      for (const sku of ['BWH-S', 'PIN-S']) {
        const want = sku.startsWith('BWH') ? s.hoodie : s.pin
        const item = review.items.find((i: Json) => i.sku === sku)
        expect(item.extension_attributes.row_total_minor, sku).toBe(want)
        expect(Math.round(item.price_incl_tax * 100), sku).toBe(want)
        expect(Math.round(pulled.find((p) => p.sku === sku).price * 100), sku).toBe(want)
      }
      const ext = review.extension_attributes
      expect(ext.subtotal_minor).toBe(s.hoodie + s.pin)
      expect(ext.subtotal_minor - ext.discount_minor + ext.shipping_minor).toBe(ext.grand_total_minor)

      // The order, and what the provider is asked for.
      const placed = await shopper(
        '/api/order',
        orderBody(
          newOrderId('usd-catalogue'),
          [
            { sku: 'BWH-S', qty: 1, price: 1, parentSku: 'BWH' },
            { sku: 'PIN-S', qty: 1, price: 1, parentSku: 'PIN' },
          ],
          ship,
          { payment: s.method, flatRate: false },
        ),
      )
      expect(placed.status, JSON.stringify(placed.json)).toBe(200)
      const number = placed.json.result.orderNumber as string
      const row = await env.DB.prepare(
        'SELECT currency, grand_total_minor, base_currency FROM orders WHERE increment_id = ?',
      )
        .bind(number)
        .first()
      expect(row).toEqual({
        currency: s.currency,
        grand_total_minor: ext.grand_total_minor,
        base_currency: 'USD',
      })
      const before = asked.length
      const started = await call(
        '/api/payment/start',
        { body: { orderNumber: number, accessKey: placed.json.result.accessKey } },
        usdEnv,
      )
      expect(started.status, JSON.stringify(started.json)).toBe(200)
      expect(asked.slice(before)).toEqual([
        {
          provider: s.method === 'card' ? 'razorpay' : 'paypal',
          amountMinor: ext.grand_total_minor,
          currency: s.currency,
        },
      ])
    })
  }
})
