// A set's tile says what its page starts at: a grouped set's tile "from" its cheapest piece, priced
// as the set's page prices that piece; a bundle's tile the price of the choices its page starts at.
// In the shopper's currency and tax, on the category page and in search results alike.
import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { firstListedDemoProduct } from '../../helpers/cart-fixtures'
import { decodeEntities } from '../../helpers/html'

interface SetDoc {
  sku: string
  slug: string
  name: string
  category: Array<{ slug: string }>
  product_links: Array<{ linked_product_sku: string }>
  bundle_options: Array<{ product_links: Array<{ sku: string; is_default: boolean }> }>
}

async function html(path: string, cookie: string): Promise<string> {
  const res = await SELF.fetch(`https://shop.test${path}`, { headers: { cookie } })
  expect(res.status, path).toBe(200)
  return decodeEntities(await res.text())
}

/** The price paragraph of the tile of `sku` in a listing ('' when the listing does not show it). */
function tilePriceText(page: string, sku: string): string {
  const at = page.indexOf(`class="tile" data-sku="${sku}"`)
  const tile = at < 0 ? '' : page.slice(at, page.indexOf('</article>', at))
  return /<p class="tile__price"[^>]*>([\s\S]*?)<\/p>/.exec(tile)?.[1]?.replace(/<[^>]+>/g, '') ?? ''
}

/** The prices a grouped page shows beside its pieces. */
function piecePrices(page: string): string[] {
  return [
    ...page.matchAll(/<tr[^>]*data-testid="grouped-piece"[\s\S]*?<td class="price">([^<]*)<\/td>/g),
  ].map((m) => m[1] as string)
}

const minor = (shown: string) => Math.round(Number(shown.replace(/[^\d.]/g, '')) * 100)

/** The listings a set is found on: its category and the search for its name. */
const listings = (doc: SetDoc) => [
  `/c/${doc.category.at(-1)?.slug}`,
  `/search?q=${encodeURIComponent(doc.name)}`,
]

for (const shopper of [
  { cookie: 'currency=INR; country=IN', symbol: '₹' },
  { cookie: 'currency=GBP; country=GB', symbol: '£' },
]) {
  describe(`a set's tile (${shopper.symbol})`, () => {
    it('a grouped set: "from" the cheapest piece its page shows', async () => {
      const doc = await firstListedDemoProduct<SetDoc>('grouped')
      const page = await html(`/p/${encodeURIComponent(doc.sku)}/${doc.slug}`, shopper.cookie)
      const pieces = piecePrices(page)
      expect(pieces.length).toBe(doc.product_links.length)
      const cheapest = pieces.reduce((a, b) => (minor(b) < minor(a) ? b : a))
      expect(cheapest.startsWith(shopper.symbol)).toBe(true)
      for (const path of listings(doc)) {
        const shown = tilePriceText(await html(path, shopper.cookie), doc.sku)
        expect(shown, path).toBe(`from ${cheapest}`)
      }
    })

    it('a bundle: the price its page starts at', async () => {
      const doc = await firstListedDemoProduct<SetDoc>('bundle')
      // The page starts from the default pieces when they are in stock.
      const defaults = doc.bundle_options.flatMap((o) => o.product_links.filter((l) => l.is_default))
      await env.DB.batch(
        defaults.map((l) =>
          env.DB.prepare('UPDATE inventory SET qty = 5, is_in_stock = 1 WHERE sku = ?').bind(l.sku),
        ),
      )
      const page = await html(`/p/${encodeURIComponent(doc.sku)}/${doc.slug}`, shopper.cookie)
      const headline = /data-testid="price-final">([^<]+)</.exec(page)?.[1] ?? ''
      expect(headline.startsWith(shopper.symbol)).toBe(true)
      for (const path of listings(doc)) {
        expect(tilePriceText(await html(path, shopper.cookie), doc.sku), path).toMatch(
          new RegExp(`^${headline.replace(/[$.]/g, '\\$&')}`),
        )
      }
    })
  })
}
