// One product, one price string on every server surface: search tile, category tile, product page,
// AMP page, JSON-LD offer, the price-sync API, the cart line and the order item all show what the
// cart charges — in INR for India, in GBP for a UK shopper (GST out, VAT in, whole pounds) and in
// USD for a US shopper (GST out, nothing added).
import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { tilePrice as tileAmounts } from '../../../shared/components/catalog/tile-price'
import { formatMinor, formatUnitPrice } from '../../../shared/domain/currency'
import { priceView } from '../../../shared/domain/price'
import type { Product } from '../../../shared/schemas/catalog'
import { decodeEntities, tilePrice } from '../../helpers/html'
import { testAddress } from '../../helpers/orders'
import { api } from '../../helpers/user'

const indianAddress = testAddress('asha.surfaces@example.com')

async function page(path: string, cookie: string) {
  const res = await SELF.fetch(`https://shop.test${path}`, { headers: { cookie } })
  expect(res.status, path).toBe(200)
  return decodeEntities(await res.text())
}

/** The first product tile of a category page, and its product (a configurable's cheapest child is what the cart takes). */
async function pickListedProduct(
  cookie: string,
): Promise<{ product: Product; category: string; html: string }> {
  const { results } = await env.DB.prepare('SELECT slug FROM categories ORDER BY id').all<{ slug: string }>()
  for (const { slug } of results) {
    if (!slug) continue
    const res = await SELF.fetch(`https://shop.test/c/${slug}`, { headers: { cookie } })
    if (res.status !== 200) continue
    const html = decodeEntities(await res.text())
    for (const m of html.matchAll(/data-sku="([^"]+)"/g)) {
      const row = await env.DB.prepare(
        "SELECT doc FROM products WHERE sku = ? AND type_id IN ('simple', 'configurable')",
      )
        .bind(m[1])
        .first<{ doc: string }>()
      if (row && tilePrice(html, m[1] as string))
        return { product: JSON.parse(row.doc), category: slug, html }
    }
  }
  throw new Error('no product listed on a category page')
}

for (const shopper of [
  { currency: 'INR', country: 'IN', note: 'Inclusive of all taxes' },
  { currency: 'GBP', country: 'GB', note: 'Includes UK VAT' },
  { currency: 'USD', country: 'US', note: 'Import duties and sales tax not included' },
]) {
  describe(`one product on every surface (${shopper.currency}, ${shopper.country})`, () => {
    it('shows the same price string everywhere, equal to what the cart and the order charge', async () => {
      const cookie = `currency=${shopper.currency}; country=${shopper.country}`
      const { product, html } = await pickListedProduct(cookie)
      const sku = product.sku
      // The line a shopper adds: the product, or the configurable child its listed price comes from.
      const lineSku =
        priceView(product, { now: Date.now(), currency: shopper.currency, country: shopper.country })
          .variantSku ?? sku
      const seen: Record<string, string | null> = {}
      seen.category = tilePrice(html, sku)
      // A tile the browser builds on any page (search overlay): the browsing country with the tax
      // rules the page's <html data-tax-rules> carries for a shopper abroad (none in India).
      const rules = /<html[^>]* data-tax-rules="(\[.*?\])" data-/.exec(await page('/', cookie))?.[1]
      if (shopper.country === 'IN') expect(rules).toBeUndefined()
      else expect(rules).toBeDefined()
      const browserPricing = { country: shopper.country, taxRules: rules ? JSON.parse(rules) : undefined }
      seen.browserTile = formatUnitPrice(
        tileAmounts(product, Date.now(), browserPricing).finalPrice,
        shopper.currency,
      )
      seen.search = tilePrice(await page(`/search?q=${encodeURIComponent(product.name)}`, cookie), sku)
      const productHtml = await page(`/p/${encodeURIComponent(sku)}/${product.slug}`, cookie)
      seen.product = /data-testid="price-final">([^<]+)</.exec(productHtml)?.[1] ?? null
      expect(productHtml).toContain(shopper.note)
      const amp = await page(`/amp/p/${encodeURIComponent(sku)}/${product.slug}`, cookie)
      seen.amp = /<p class="price">(?:<span(?: class="sale")?>)([^<]+)</.exec(amp)?.[1] ?? null
      expect(amp).toContain(shopper.note)
      const offer = /"priceCurrency":"([A-Z]{3})","price":"([\d.]+)"/.exec(productHtml)
      expect(offer?.[1]).toBe(shopper.currency)
      seen.jsonLd = offer ? formatMinor(Math.round(Number(offer[2]) * 100), shopper.currency) : null
      const sync = await api(
        `/product/render-list?skus=${encodeURIComponent(sku)}&currencyCode=${shopper.currency}`,
        {
          headers: { cookie, 'country-id': shopper.country },
        },
      )
      seen.priceSync =
        sync.json.result?.items?.[0]?.price_info?.extension_attributes?.tax_adjustments?.formatted_prices
          ?.final_price ?? null

      // The cart, for a shipping address in the same country, charges exactly that.
      const cartId = (await api('/cart/create?token=', { method: 'POST', headers: { cookie } })).json.result
      await api(`/cart/update?token=&cartId=${cartId}`, {
        headers: { cookie },
        body: { cartItem: { sku: lineSku, qty: 1 } },
      })
      const address =
        shopper.country === 'IN'
          ? indianAddress
          : {
              ...indianAddress,
              country_id: shopper.country,
              postcode: shopper.country === 'GB' ? 'SW1A 1AA' : '10001',
            }
      const shipped = await api(`/cart/shipping-information?token=&cartId=${cartId}`, {
        headers: { cookie },
        body: { addressInformation: { shippingAddress: address } },
      })
      const line = shipped.json.result.totals.items[0]
      seen.cart = formatMinor(Math.round(line.price_incl_tax * 100), shopper.currency)

      for (const [surface, text] of Object.entries(seen)) expect(text, surface).toBe(seen.product)
      expect(seen.product).toMatch(
        { INR: /^₹[\d,]+$/, GBP: /^£[\d,]+\.00$/, USD: /^\$[\d,]+\.00$/ }[shopper.currency] as RegExp,
      )

      if (shopper.country === 'IN') {
        const placed = await api('/order', {
          headers: { cookie },
          body: {
            order_id: `surfaces-${Date.now()}-${Math.random().toString(16).slice(2, 8)}`,
            user_id: '',
            cart_id: cartId,
            products: [{ sku: lineSku, qty: 1, price: 1 }],
            addressInformation: {
              shippingAddress: address,
              billingAddress: address,
              payment_method_code: 'cashondelivery',
            },
          },
        })
        expect(placed.status, JSON.stringify(placed.json)).toBe(200)
        const doc = (
          await api('/order/get', {
            body: { orderId: placed.json.result.orderNumber, accessKey: placed.json.result.accessKey },
          })
        ).json.result
        expect(formatMinor(Math.round(doc.items[0].price_incl_tax * 100), doc.order_currency_code)).toBe(
          seen.product,
        )
      }
    })
  })
}
