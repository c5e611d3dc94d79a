/**
 * A grouped set is found by the price its tile shows: "from" its cheapest piece. The price filter
 * and the price facet of a listing read that same price, at home in rupees (where the index's own
 * price field is used) and abroad alike: the band holding the cheapest piece lists the set, the
 * band holding the whole set's price does not, and each band's count is the number it lists.
 */
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { listingPriceView } from '../../../shared/components/catalog/tile-price'
import { PRICE_RANGES } from '../../../shared/config/catalog'
import { type ChosenFilters, filtersFromAggregations } from '../../../shared/domain/filters'
import { priceView } from '../../../shared/domain/price'
import type { TaxRuleFields } from '../../../shared/domain/tax-rules'
import { firstListedDemoProduct } from '../../helpers/cart-fixtures'
import { listingPage } from '../../helpers/search-fixtures'

/** The listing of `categoryIds` with the price band `id` chosen (null: none), as the island asks. */
async function listing(categoryIds: number[], id: string | null, headers: Record<string, string>) {
  const chosen: ChosenFilters = id ? { price: [{ id, label: id }] } : {}
  const body = await listingPage(categoryIds, chosen, 0, 48, headers)
  return {
    total: body.hits.total,
    skus: body.hits.hits.map((h) => h._source.sku),
    aggregations: body.aggregations,
  }
}

/** The id of the fine price bucket holding `minor` (minor units of the shopper's currency). */
function bucketOf(minor: number): string {
  const major = minor / 100
  const r = PRICE_RANGES.find((b) => major >= b.from && (b.to === undefined || major < b.to))
  if (!r) throw new Error(`no bucket holds ${major}`)
  return r.to === undefined ? `${r.from}-` : `${r.from}-${r.to}`
}

const SHOPPERS = [
  { who: 'at home, in rupees', headers: { 'cf-ipcountry': 'IN' }, country: 'IN', currency: 'INR' },
  { who: 'in the UK, in pounds', headers: { 'cf-ipcountry': 'GB' }, country: 'GB', currency: 'GBP' },
] as const

describe('a grouped set in the price filter', () => {
  for (const shopper of SHOPPERS) {
    it(`${shopper.who}: is in the band of its cheapest piece, not of its whole price`, async () => {
      const doc = await firstListedDemoProduct<
        Parameters<typeof priceView>[0] & { sku: string; category_ids: number[] }
      >('grouped')
      const taxRules = (await env.DB.prepare('SELECT doc FROM tax_rules').all<{ doc: string }>()).results.map(
        (r) => JSON.parse(r.doc) as TaxRuleFields,
      )
      const opts = { now: Date.now(), currency: shopper.currency, taxRules, country: shopper.country }
      const from = listingPriceView(doc, opts)
      expect(from.from).toBe(true)
      const cheap = bucketOf(from.view.unitMinor)
      const whole = bucketOf(priceView(doc, opts).unitMinor)
      expect(cheap, 'the demo set costs more whole than its cheapest piece, a bucket apart').not.toBe(whole)

      const ids = doc.category_ids.map(Number)
      const all = await listing(ids, null, shopper.headers)
      expect(all.skus).toContain(doc.sku)

      const inCheap = await listing(ids, cheap, shopper.headers)
      expect(inCheap.skus, `the ${cheap} band`).toContain(doc.sku)
      const inWhole = await listing(ids, whole, shopper.headers)
      expect(inWhole.skus, `the ${whole} band`).not.toContain(doc.sku)

      // The facet's bands count what choosing each of them lists.
      const bands = filtersFromAggregations(all.aggregations, [], shopper.currency, ['price']).price ?? []
      let counted = 0
      for (const band of bands) {
        const chosen = await listing(ids, band.id, shopper.headers)
        expect(band.count, band.label).toBe(chosen.total)
        counted += chosen.total
        if (chosen.skus.includes(doc.sku)) {
          const [lo, hi] = band.id.split('-').map((x) => (x === '' ? Number.POSITIVE_INFINITY : Number(x)))
          expect(from.view.unitMinor / 100).toBeGreaterThanOrEqual(lo as number)
          expect(from.view.unitMinor / 100).toBeLessThan(hi as number)
        }
      }
      expect(counted).toBe(all.total)
    })
  }
})
