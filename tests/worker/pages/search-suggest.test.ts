import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { MSG, msgShowingResultsFor } from '../../../shared/i18n/messages'
import { decodeEntities } from '../../helpers/html'

interface Doc {
  sku: string
  designer?: number | null
  designer_name?: string | null
  status: number
}

interface Suggestions {
  query: string
  correction: string | null
  designer: { id: string; label: string } | null
  items: { sku: string; name: string; url: string; image: string; price: string }[]
  total: number
  allUrl: string
}

async function docs(): Promise<Doc[]> {
  const rows = await env.DB.prepare('SELECT doc FROM products').all<{ doc: string }>()
  return rows.results.map((r) => JSON.parse(r.doc) as Doc)
}

async function suggest(q: string, init?: RequestInit): Promise<Suggestions> {
  const res = await SELF.fetch(`https://shop.test/search/suggest?q=${encodeURIComponent(q)}`, {
    redirect: 'manual',
    ...init,
  })
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toContain('application/json')
  const body = (await res.json()) as { code: number; result: Suggestions }
  expect(body.code).toBe(200)
  return body.result
}

async function page(path: string): Promise<string> {
  const res = await SELF.fetch(`https://shop.test${path}`)
  expect(res.status).toBe(200)
  return decodeEntities(await res.text())
}

const pageSkus = (html: string) =>
  [...html.matchAll(/<article class="tile" data-sku="([^"]+)"/g)].map((m) => m[1] as string)

/** Each tile's first price as the page prints it, by sku. */
const pagePrices = (html: string) =>
  new Map(
    [
      ...html.matchAll(/<article class="tile" data-sku="([^"]+)"[\s\S]*?<span class="price[^"]*">([^<]+)</g),
    ].map((m) => [m[1] as string, m[2] as string]),
  )

describe('the search panel’s suggestions (GET /search/suggest)', () => {
  it('lists a designer’s own products for their name, as the results page does', async () => {
    const withDesigner = (await docs()).filter((d) => d.designer_name && d.designer != null)
    const pick = withDesigner[0] as Doc
    const theirs = new Set(
      withDesigner.filter((d) => d.designer === pick.designer && d.status < 2).map((d) => d.sku),
    )
    // Case and spacing do not matter, as on the page.
    const got = await suggest(`  ${pick.designer_name?.toUpperCase()}  `)
    expect(got.designer).toEqual({ id: String(pick.designer), label: pick.designer_name })
    expect(got.correction).toBeNull()
    expect(got.items.length).toBeGreaterThan(0)
    expect(got.items.length).toBeLessThanOrEqual(8)
    for (const t of got.items) expect(theirs.has(t.sku), t.sku).toBe(true)
    // The panel's link leads to the page listing the same products first.
    expect(got.allUrl).toBe(`/search?designer=${pick.designer}`)
    const listed = pageSkus(await page(got.allUrl))
    expect(got.items.map((t) => t.sku)).toEqual(listed.slice(0, got.items.length))
  })

  it('names the same correction as the results page for a misspelt query, none for a right one', async () => {
    const typo = await suggest('banarasi sareee')
    expect(typo.correction).toBe('banarasi saree')
    expect(typo.designer).toBeNull()
    expect(typo.items.some((t) => /banarasi/i.test(t.name))).toBe(true)
    expect(typo.allUrl).toBe('/search?q=banarasi%20sareee')
    const html = await page(typo.allUrl)
    expect(html).toContain(msgShowingResultsFor(typo.correction as string))
    expect(typo.items.map((t) => t.sku)).toEqual(pageSkus(html).slice(0, typo.items.length))
    const right = await suggest('banarasi saree')
    expect(right.correction).toBeNull()
    expect(right.items.length).toBeGreaterThan(0)
  })

  it('answers nothing for a query too short to search, and no results for gibberish', async () => {
    for (const q of ['', ' ', 'a', '  b ']) {
      const got = await suggest(q)
      expect(got.items, JSON.stringify(q)).toEqual([])
      expect(got.total).toBe(0)
    }
    const none = await suggest('zzzzqqqqxxxx')
    expect(none.items).toEqual([])
    expect(none.correction).toBeNull()
  })

  it('answers hostile queries with suggestions, never an error', async () => {
    for (const q of [
      'a'.repeat(5000),
      '\u0000\uffff',
      "1' OR '1'='1",
      '<script>alert(1)</script>',
      '%%%',
      '*:*',
    ]) {
      const got = await suggest(q)
      expect(got.query.length).toBeLessThanOrEqual(100)
    }
    // Repeated parameters: the first one is searched.
    const res = await SELF.fetch('https://shop.test/search/suggest?q=silk&q=zzzz')
    expect(res.status).toBe(200)
    expect(((await res.json()) as { result: Suggestions }).result.query).toBe('silk')
  })

  it('lists and prices in the shopper’s currency as the page does', async () => {
    const headers = { cookie: 'currency=GBP' }
    const got = await suggest('saree', { headers })
    expect(got.items.length).toBeGreaterThan(0)
    const res = await SELF.fetch('https://shop.test/search?q=saree', { headers })
    const html = decodeEntities(await res.text())
    expect(got.items.map((t) => t.sku)).toEqual(pageSkus(html).slice(0, got.items.length))
    // Each result in stock shows the price its tile on the results page shows, in pounds.
    const prices = pagePrices(html)
    let compared = 0
    for (const t of got.items) {
      if (t.price === MSG.showInterest) continue
      compared++
      expect(t.price, t.sku).toBe(prices.get(t.sku))
      expect(t.price).toMatch(/^£/)
    }
    expect(compared).toBeGreaterThan(0)
  })
})
