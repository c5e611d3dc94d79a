// The shopper's pricing country is decided before the first tile: the country they chose (cookie),
// else the platform's country of the request (Cloudflare's CF-IPCountry), else the home country of
// the currency they chose, else the store's default — and a shopper abroad sees their own currency
// from the first page. Before this, a UK shopper saw ₹ prices "inclusive of all taxes" (India's)
// until the address step re-priced them.
import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { decodeEntities } from '../../helpers/html'

async function firstPage(headers: Record<string, string>) {
  const res = await SELF.fetch('https://shop.test/c/women', { headers })
  expect(res.status).toBe(200)
  const html = decodeEntities(await res.text())
  const root = /<html([^>]*)>/.exec(html)?.[1] ?? ''
  return {
    country: /data-country="([^"]*)"/.exec(root)?.[1],
    currency: /data-currency="([^"]*)"/.exec(root)?.[1],
    firstPrice: /class="price(?: price--special)?">([^<]+)</.exec(html)?.[1],
    html,
  }
}

describe('the pricing country before the first tile', () => {
  it('a UK visitor with no cookie sees pounds, UK VAT included, on the first tile', async () => {
    const uk = await firstPage({ 'cf-ipcountry': 'GB' })
    expect(uk).toMatchObject({ country: 'GB', currency: 'GBP' })
    expect(uk.firstPrice).toMatch(/^£[\d,]+\.00$/)
    // UK VAT in, not India's GST: the same tile priced for India in pounds differs.
    const indiaInPounds = await firstPage({ cookie: 'country=IN; currency=GBP' })
    expect(uk.firstPrice).not.toBe(indiaInPounds.firstPrice)
    // The same tile for the same visitor with the choice made explicit: identical.
    const chosen = await firstPage({ cookie: 'country=GB; currency=GBP' })
    expect(chosen.firstPrice).toBe(uk.firstPrice)
  })

  it('a US visitor sees dollars; a visitor from a country the shop has no currency for sees dollars too', async () => {
    expect(await firstPage({ 'cf-ipcountry': 'US' })).toMatchObject({ country: 'US', currency: 'USD' })
    expect(await firstPage({ 'cf-ipcountry': 'FR' })).toMatchObject({ country: 'FR', currency: 'USD' })
  })

  it("the shopper's own choices win: a chosen country over the platform's, a chosen currency over the country's", async () => {
    expect(await firstPage({ 'cf-ipcountry': 'GB', cookie: 'country=IN' })).toMatchObject({
      country: 'IN',
      currency: 'INR',
    })
    expect(await firstPage({ 'cf-ipcountry': 'GB', cookie: 'currency=INR' })).toMatchObject({
      country: 'GB',
      currency: 'INR',
    })
  })

  it("without a platform country, a chosen currency's home country prices the page", async () => {
    expect(await firstPage({ cookie: 'currency=GBP' })).toMatchObject({ country: 'GB', currency: 'GBP' })
    expect(await firstPage({})).toMatchObject({ country: 'IN', currency: 'INR' })
  })

  it("ignores the platform's no-country codes and anything that is not a country code", async () => {
    for (const value of ['XX', 'T1', 'GBR', '<b>', '', 'g1']) {
      expect(await firstPage({ 'cf-ipcountry': value }), value).toMatchObject({
        country: 'IN',
        currency: 'INR',
      })
    }
  })
})
