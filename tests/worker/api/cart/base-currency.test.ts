// A shop whose catalogue is in US dollars (BASE_CURRENCY = USD, INR at a configured rate): an
// imported $39 product shows $39.00, a cart charges 3900 cents in USD, and the rupee amount at the
// configured rate to a shopper who sees rupees; carts, totals and orders record USD as their base.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseImportFile } from '../../../../scripts/catalogue/import/transform'
import {
  clearCatalogueStatements,
  importStatements,
  importUrlMappings,
} from '../../../../scripts/catalogue/import/write'
import { putUrlMappings } from '../../../../scripts/catalogue/seed/apply'
import app from '../../../../worker/app'
import { readConfig } from '../../../../worker/platform/env'
import sdkCategories from '../../../fixtures/vsf-export/sdk-categories.json?raw'
import sdkProducts from '../../../fixtures/vsf-export/sdk-products.json?raw'
import { orderBody } from '../../../helpers/orders'
import type { Json } from '../../../helpers/user'

/** Rupees one dollar buys in this shop's configuration (not the default table's rate). */
const INR_PER_USD = 83
const usdEnv = { ...env, BASE_CURRENCY: 'USD', DEFAULT_CURRENCY: 'USD', CURRENCY_RATES: `INR=${INR_PER_USD}` }

async function call(path: string, init: RequestInit & { cookie?: string } = {}) {
  const headers = new Headers(init.headers)
  headers.set('cf-connecting-ip', '198.51.100.7')
  if (init.body) headers.set('content-type', 'application/json')
  if (init.cookie) headers.set('cookie', init.cookie)
  const ctx = createExecutionContext()
  const res = await app.fetch(new Request(`https://shop.test${path}`, { ...init, headers }), usdEnv, ctx)
  await waitOnExecutionContext(ctx)
  return res
}
const json = async (path: string, init: RequestInit & { cookie?: string } = {}) =>
  (await (await call(path, init)).json()) as Json

const address = {
  firstname: 'Nia',
  lastname: 'Ford',
  street: ['12 MG Road'],
  city: 'Bengaluru',
  postcode: '560001',
  country_id: 'IN',
  telephone: '9876543210',
  email: 'nia.usd@example.com',
}

describe('a catalogue imported in US dollars', () => {
  beforeAll(async () => {
    const parsed = [
      parseImportFile(sdkCategories, 'sdk-categories.json', { type: 'category' }),
      parseImportFile(sdkProducts, 'sdk-products.json', { type: 'product' }),
    ]
    for (const p of parsed) expect(p.errors).toEqual([])
    const records = parsed.flatMap((p) => p.records)
    await env.DB.batch([...clearCatalogueStatements(env.DB), ...importStatements(env.DB, records)])
    await putUrlMappings(env.URL_MAPPINGS, importUrlMappings(records))
  })
  // The rates are module state of the isolate: the next file starts from the shop's own env.
  afterAll(() => {
    readConfig(env)
  })

  it('shows $39.00 on the product page, sellable', async () => {
    const page = await call('/coastal-tops/breakwater-hoodie-8201.html', { cookie: 'country=US' })
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain('$39.00')
    expect(html).not.toContain('$0.56')
    // Its stock is not counted by Magento (in stock at quantity 0): sellable, so no out-of-stock badge.
    expect(html).not.toContain('data-testid="out-of-stock"')
  })

  it('charges 3900 cents in USD, and the configured rupee amount to a shopper shown rupees', async () => {
    const cartId = (await json('/api/cart/create?token=', { method: 'POST' })).result as string
    const added = await call(`/api/cart/update?token=&cartId=${cartId}`, {
      method: 'POST',
      body: JSON.stringify({ cartItem: { sku: 'BWH-S', qty: 1 } }),
    })
    expect(added.status).toBe(200)
    const info = await json(`/api/cart/shipping-information?token=&cartId=${cartId}`, {
      method: 'POST',
      body: JSON.stringify({ addressInformation: { shippingAddress: address, billingAddress: address } }),
    })
    const totals = info.result.totals
    expect(totals.quote_currency_code).toBe('USD')
    expect(totals.grand_total).toBe(39)
    expect(totals.extension_attributes.grand_total_minor).toBe(3900)
    expect(totals).toMatchObject({ base_currency_code: 'USD', base_grand_total: 39 })
    const rupees = await json(`/api/cart/totals?token=&cartId=${cartId}`, { cookie: 'currency=INR' })
    expect(rupees.result).toMatchObject({
      quote_currency_code: 'INR',
      grand_total: 39 * INR_PER_USD,
      base_currency_code: 'USD',
      base_grand_total: 39,
    })
    // A guest's cart id is its token.
    const cart = await env.DB.prepare('SELECT base_currency FROM carts WHERE guest_token = ?')
      .bind(cartId)
      .first<{ base_currency: string }>()
    expect(cart?.base_currency).toBe('USD')
  })

  it('an order charged in rupees records USD as its base, converted back at the same rate', async () => {
    const orderId = `usd-base-${Math.random().toString(16).slice(2, 10)}`
    const res = await call('/api/order', {
      method: 'POST',
      body: JSON.stringify(
        orderBody(orderId, [{ sku: 'BWH-M', qty: 2, price: 39, parentSku: 'BWH' }], address, {
          payment: 'card',
        }),
      ),
      cookie: 'currency=INR',
    })
    expect(res.status, await res.clone().text()).toBe(200)
    const row = await env.DB.prepare(
      'SELECT currency, grand_total_minor, base_currency, base_grand_total_minor, doc FROM orders WHERE client_order_id = ?',
    )
      .bind(orderId)
      .first<{
        currency: string
        grand_total_minor: number
        base_currency: string
        base_grand_total_minor: number
        doc: string
      }>()
    expect(row).toMatchObject({
      currency: 'INR',
      grand_total_minor: 2 * 39 * INR_PER_USD * 100,
      base_currency: 'USD',
      base_grand_total_minor: 2 * 3900,
    })
    expect(JSON.parse(row?.doc ?? '{}')).toMatchObject({
      order_currency_code: 'INR',
      base_currency_code: 'USD',
      base_grand_total: 78,
      grand_total: 2 * 39 * INR_PER_USD,
    })
  })
})
