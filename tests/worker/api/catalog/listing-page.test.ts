// A listing request (products with aggregations) is bounded before any work: the reload that brings a
// returning shopper back to the product they left asks in pieces of at most MAX_LISTING_PAGE_SIZE,
// and a larger page is a 400 in words (the seeded demo catalogue, real D1).
import { SELF } from 'cloudflare:test'
import { catalogSearchQuery, listingSearchRequest } from '@shared/components/catalog/listing-query'
import { EMPTY_LISTING_STATE } from '@shared/components/catalog/listing-state'
import { MAX_LISTING_PAGE_SIZE } from '@shared/config/catalog'
import { describe, expect, it } from 'vitest'
import { restoreFetch } from '../../../../client/islands/category/scroll-restore'
import { generateCatalogue } from '../../../../scripts/catalogue/seed/generate'

const cat = generateCatalogue()
/** The category most demo products are in. */
const categoryId = (() => {
  const counts = new Map<number, number>()
  for (const p of cat.products)
    for (const id of p.category_ids ?? []) counts.set(id, (counts.get(id) ?? 0) + 1)
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0]
})()

/** The shop's own listing request for `from`/`size` (as the listing island sends it). */
async function listingPage(from: number, size: number) {
  const { path, query } = catalogSearchQuery(
    listingSearchRequest([categoryId], EMPTY_LISTING_STATE, from, size),
  )
  const qs = new URLSearchParams(
    Object.entries(query).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])),
  )
  const res = await SELF.fetch(`https://shop.test${path}?${qs}`)
  // biome-ignore lint/suspicious/noExplicitAny: the raw search answer
  return { status: res.status, json: (await res.json()) as any }
}

describe('the listing page bound', () => {
  it('refuses a listing request for more than MAX_LISTING_PAGE_SIZE products with a 400 in words', async () => {
    const res = await listingPage(24, MAX_LISTING_PAGE_SIZE + 1)
    expect(res.status).toBe(400)
    expect(String(res.json.result)).toBe(
      `A page with aggregations holds at most ${MAX_LISTING_PAGE_SIZE} products, ${MAX_LISTING_PAGE_SIZE + 1} were asked: ask for fewer at a time (a smaller size)`,
    )
    const huge = await listingPage(0, 4000)
    expect(huge.status).toBe(400)
  })

  it('the restore reload of more than one listing page asks in pieces the server answers', async () => {
    // A shopper had loaded 2.5 listing pages' worth; the page comes back with its first 24.
    const target = Math.floor(2.5 * MAX_LISTING_PAGE_SIZE)
    const sizes: number[] = []
    for (let loaded = 24, step = restoreFetch(loaded, target); step; step = restoreFetch(loaded, target)) {
      expect(step.from).toBe(loaded)
      const page = await listingPage(step.from, step.size)
      expect(page.status, JSON.stringify(page.json).slice(0, 200)).toBe(200)
      sizes.push(step.size)
      loaded += step.size
    }
    expect(sizes).toEqual([
      MAX_LISTING_PAGE_SIZE,
      MAX_LISTING_PAGE_SIZE,
      target - 24 - 2 * MAX_LISTING_PAGE_SIZE,
    ])
  })
})
