/**
 * A price band lists exactly the products whose tile shows a price inside it, for a shopper abroad
 * too. Abroad a tile's price is the catalogue price with India's GST (5 % or 18 % by the piece's
 * slab, 3 % jewellery, 18 % accessories) taken out and the destination's tax put in, converted and
 * rounded to whole pounds or dollars; bands counted on the catalogue price put a £30 tile in a band
 * labelled "£22.00 - £55.00" or left it out of the one it shows in. Checked the way a shopper meets
 * it: the listing's bands (the labels the filter panel shows, from the page and from the request
 * the listing island sends), each band chosen in turn, and every product of the listing's tile price
 * (the shop's price function for that shopper).
 */
import { env, SELF } from 'cloudflare:test'
import { MAX_LISTING_PAGE_SIZE } from '@shared/config/catalog'
import { describe, expect, it } from 'vitest'
import { convertPrice } from '../../../shared/domain/currency'
import {
  type Aggregations,
  type ChosenFilters,
  filtersFromAggregations,
} from '../../../shared/domain/filters'
import { priceView } from '../../../shared/domain/price'
import type { TaxRuleFields } from '../../../shared/domain/tax-rules'
import { indexProductStatements } from '../../../worker/search'
import { fillShownPrices } from '../../../worker/search/builds/shown-prices'
import { countRows } from '../../helpers/d1-rows'
import { decodeEntities } from '../../helpers/html'
import { listingPage } from '../../helpers/search-fixtures'

const WOMEN = '/c/women'
/** Hits per request: the most a listing request (with aggregations) may ask for. */
const PAGE = MAX_LISTING_PAGE_SIZE

interface Hit {
  _source: Record<string, unknown> & { sku: string }
}

/** Every product of a listing (page by page) and its aggregations, as the listing island asks. */
async function search(
  categoryIds: number[],
  price: { id: string; label: string } | null,
  headers: Record<string, string>,
) {
  const chosen: ChosenFilters = price ? { price: [price] } : {}
  const hits: Hit[] = []
  let aggregations: Aggregations = {}
  for (let from = 0; ; from += PAGE) {
    const body = await listingPage(categoryIds, chosen, from, PAGE, headers)
    if (from === 0) aggregations = body.aggregations
    hits.push(...body.hits.hits)
    if (hits.length >= body.hits.total || body.hits.hits.length === 0) return { hits, aggregations }
  }
}

/** The category ids of the women's listing (the category and its descendants), as the page asks. */
async function womenIds(): Promise<number[]> {
  const rows = await env.DB.prepare('SELECT id, parent_id, slug FROM categories').all<{
    id: number
    parent_id: number
    slug: string
  }>()
  const root = rows.results.find((r) => r.slug === 'women')
  expect(root).toBeDefined()
  const ids = [root?.id as number]
  for (let i = 0; i < ids.length; i++)
    for (const r of rows.results) if (r.parent_id === ids[i] && !ids.includes(r.id)) ids.push(r.id)
  return ids
}

/** A label's two ends in minor units ('£22.00 - £55.00' → [2200, 5500]; '£500.00+' → [50000, ∞]). */
function labelEnds(label: string): [number, number] {
  const amounts = [...label.matchAll(/[\d,]+(?:\.\d+)?/g)].map((m) =>
    Math.round(Number(m[0].replace(/,/g, '')) * 100),
  )
  return [amounts[0] as number, amounts[1] ?? Number.POSITIVE_INFINITY]
}

const SHOPPERS = [
  { who: 'a UK shopper (UK VAT, pounds)', headers: { 'cf-ipcountry': 'GB' }, country: 'GB', currency: 'GBP' },
  {
    who: 'a US shopper (no tax, dollars)',
    headers: { 'cf-ipcountry': 'US' },
    country: 'US',
    currency: 'USD',
  },
] as const

describe('price bands abroad select exactly the products whose tile price lies in them', () => {
  for (const shopper of SHOPPERS) {
    it(shopper.who, async () => {
      const taxRules = (await env.DB.prepare('SELECT doc FROM tax_rules').all<{ doc: string }>()).results.map(
        (r) => JSON.parse(r.doc) as TaxRuleFields,
      )
      const now = Date.now()
      const tile = (doc: Record<string, unknown>) =>
        priceView(doc as Parameters<typeof priceView>[0], {
          now,
          currency: shopper.currency,
          taxRules,
          country: shopper.country,
        }).unitMinor
      const ids = await womenIds()
      const all = await search(ids, null, shopper.headers)
      const prices = new Map(all.hits.map((h) => [h._source.sku, tile(h._source)]))
      const bands = filtersFromAggregations(all.aggregations, [], shopper.currency, ['price']).price ?? []
      expect(bands.length).toBeGreaterThanOrEqual(3)

      // The page's filter panel offers the same bands, labelled in the shopper's currency.
      const page = decodeEntities(
        await (await SELF.fetch(`https://shop.test${WOMEN}`, { headers: shopper.headers })).text(),
      )
      const offered = [
        ...page.matchAll(/data-attr="price" data-id="([^"]+)"[\s\S]*?class="filter__label">([^<]*)</g),
      ]
      expect(offered.map((m) => [m[1], m[2]])).toEqual(bands.map((b) => [b.id, b.label]))

      let listed = 0
      for (const band of bands) {
        const [low, high] = labelEnds(band.label)
        const chosen = await search(ids, band, shopper.headers)
        const skus = chosen.hits.map((h) => h._source.sku).sort()
        const shown = [...prices].filter(([, minor]) => minor >= low && minor <= high).map(([sku]) => sku)
        // Every product listed shows a price inside the label, and none that does is missing.
        expect(skus, `${band.label}: listed = shown inside it`).toEqual(shown.sort())
        expect(band.count, band.label).toBe(skus.length)
        listed += skus.length
      }
      // Each product is in exactly one band.
      expect(listed).toBe(prices.size)
    })
  }
})

describe('a product written without the tax rules (a back-office edit)', () => {
  it('is listed by its catalogue price until the scheduled build indexes its shown prices; old digests go', async () => {
    const row = await env.DB.prepare(
      "SELECT p.doc AS doc FROM products p JOIN search_docs d ON d.product_id = p.id WHERE d.type_id = 'simple' AND p.visibility = 4 LIMIT 1",
    ).first<{ doc: string }>()
    const doc = JSON.parse(row?.doc as string) as Record<string, unknown> & { id: number; sku: string }
    const shownRows = () =>
      countRows(
        "SELECT COUNT(*) AS n FROM search_numbers WHERE product_id = ?1 AND field LIKE 'sp.%'",
        doc.id,
      )
    const before = await shownRows()
    expect(before).toBeGreaterThan(0)
    await env.DB.batch([
      ...indexProductStatements(env.DB, doc),
      // A number of another digest (rules or rates that changed since).
      env.DB.prepare(
        "INSERT INTO search_numbers (field, value, product_id) VALUES ('sp.rold.GB.GBP', 1, ?1)",
      ).bind(doc.id),
    ])
    expect(await shownRows()).toBe(1)
    // Listed in the band its catalogue price falls in, converted into pounds (not rounded).
    const pounds = Math.floor(convertPrice(doc.final_price as number, 'GBP'))
    const band = { id: `${pounds}-${pounds + 1}`, label: '' }
    const listed = await search([], band, { 'cf-ipcountry': 'GB' })
    expect(listed.hits.map((h) => h._source.sku)).toContain(doc.sku)

    expect(await fillShownPrices(env.DB)).toBe(1)
    expect(await shownRows()).toBe(before)
    expect(await fillShownPrices(env.DB)).toBe(0)
  })
})
