import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { msgShowingResultsFor } from '../../../shared/i18n/messages'
import { decodeEntities } from '../../helpers/html'

interface Doc {
  sku: string
  name: string
  designer?: number | null
  designer_name?: string | null
  final_price?: number | null
  price: number
  status: number
  visibility: number
}

async function docs(): Promise<Doc[]> {
  const rows = await env.DB.prepare('SELECT doc FROM products').all<{ doc: string }>()
  return rows.results.map((r) => JSON.parse(r.doc) as Doc)
}

async function get(path: string, init?: RequestInit) {
  const res = await SELF.fetch(`https://shop.test${path}`, { redirect: 'manual', ...init })
  return { res, html: decodeEntities(await res.text()) }
}

const skus = (html: string) =>
  [...html.matchAll(/<article class="tile" data-sku="([^"]+)"/g)].map((m) => m[1])

describe('the search page as a listing', () => {
  it('names the corrected query when a word was misspelt, and nothing when it was not', async () => {
    const typo = await get('/search?q=banarasi%20sareee')
    expect(typo.res.status).toBe(200)
    expect(typo.html).toContain(msgShowingResultsFor('banarasi saree'))
    const right = await get('/search?q=banarasi%20saree')
    expect(right.html).not.toContain('data-testid="search-correction"')
  })

  it('has the filter panel and the sort control, best match first by default', async () => {
    const { html } = await get('/search?q=saree')
    expect(html).toContain('data-testid="filters"')
    expect(html).toContain('data-filter="color"')
    expect(html).toMatch(/<option value="relevance" selected="">Relevance<\/option>/)
    // Every filter link keeps the search text and names its sort.
    const hrefs = [...html.matchAll(/data-testid="filter-option"[^>]*/g)].map((m) => m[0])
    expect(hrefs.length).toBeGreaterThan(0)
    const filterLinks = [...html.matchAll(/<a href="([^"]+)" rel="nofollow" role="checkbox"/g)].map(
      (m) => m[1],
    )
    for (const href of filterLinks) expect(href).toMatch(/^\?q=saree&.*sort=relevance/)
  })

  it('applies filters and a price sort to the matching products', async () => {
    const all = await get('/search?q=saree&sort=price-asc')
    const { html } = await get('/search?q=saree&color=49&sort=price-asc')
    const found = skus(html)
    expect(found.length).toBeGreaterThan(0)
    expect(found.length).toBeLessThan(skus(all.html).length + 1)
    expect(html).toContain('data-testid="filter-chip"')
    for (const m of html.matchAll(/<article class="tile"[^>]*>/g))
      expect(m[0]).toContain('data-shown-color="49"')
    const prices = [...html.matchAll(/data-testid="tile-price" data-price="(\d+)"/g)].map((m) => Number(m[1]))
    expect(prices).toEqual([...prices].sort((a, b) => a - b))
  })

  it('takes a query naming a designer to that designer’s products', async () => {
    const withDesigner = (await docs()).filter((d) => d.designer_name && d.designer != null)
    const pick = withDesigner[0] as Doc
    const { res } = await get(`/search?q=${encodeURIComponent(`  ${pick.designer_name?.toUpperCase()} `)}`)
    expect(res.status).toBe(302)
    const location = res.headers.get('location') ?? ''
    expect(location).toBe(`/search?designer=${pick.designer}`)
    const { html } = await get(location)
    expect(html).toContain(`<h1>${pick.designer_name}</h1>`)
    const listed = skus(html)
    const theirs = new Set(
      withDesigner.filter((d) => d.designer === pick.designer && d.status < 2).map((d) => d.sku),
    )
    expect(listed.length).toBeGreaterThan(0)
    for (const sku of listed) expect(theirs.has(sku as string), sku).toBe(true)
  })

  it('answers hostile listing parameters with a page, never an error', async () => {
    for (const path of [
      '/search?q=saree&sort=relevance%27%20OR%201=1',
      "/search?designer=1'%20OR%20'1'='1",
      `/search?q=${'a'.repeat(5000)}`,
      '/search?q=%00%ff&color=49,49,49',
      '/c/women?sort=relevance',
    ]) {
      const { res } = await get(path)
      expect(res.status, path).toBe(200)
    }
  })

  it('takes a value no filter offers for no choice at all: no listing without words, the same results with them', async () => {
    const [junk, none, junkWords, words] = await Promise.all([
      get('/search?color=99999'),
      get('/search'),
      get('/search?q=silk&color=99999'),
      get('/search?q=silk'),
    ])
    expect(junk.res.status).toBe(200)
    expect(skus(junk.html)).toEqual([])
    expect(skus(none.html)).toEqual([])
    expect(skus(words.html).length).toBeGreaterThan(0)
    expect(skus(junkWords.html)).toEqual(skus(words.html))
    expect(junkWords.html).not.toContain('99999')
  })

  it('sorts a category by Latest when asked for relevance (there is no text to rank by)', async () => {
    const latest = await get('/c/women')
    const relevance = await get('/c/women?sort=relevance')
    expect(skus(relevance.html)).toEqual(skus(latest.html))
  })
})
