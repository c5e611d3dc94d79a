import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { MSG } from '../../../shared/i18n/messages'
import { decodeEntities } from '../../helpers/html'

async function search(q: string, init?: RequestInit) {
  const res = await SELF.fetch(`https://shop.test/search?q=${encodeURIComponent(q)}`, init)
  expect(res.status).toBe(200)
  return decodeEntities(await res.text())
}

const names = (html: string) => [...html.matchAll(/data-testid="tile-name">([^<]+)</g)].map((m) => m[1] ?? '')

describe('search results page', () => {
  it('finds products despite a typo (fuzzy) and is not indexed', async () => {
    const html = await search('banarasi sareee')
    const found = names(html)
    expect(found.length).toBeGreaterThan(0)
    expect(found.some((n) => /banarasi/i.test(n))).toBe(true)
    expect(html).toContain('<meta name="robots" content="noindex, follow"/>')
    expect(html).toContain('value="banarasi sareee"')
  })

  it('shows the no-results state', async () => {
    const html = await search('zzzzqqqqxxxx')
    expect(html).toContain('data-testid="search-no-results"')
    expect(html).toContain(MSG.noProductsFoundTitle)
    expect(names(html)).toEqual([])
  })

  it('renders an empty search form without a query', async () => {
    const res = await SELF.fetch('https://shop.test/search')
    const html = await res.text()
    expect(res.status).toBe(200)
    expect(html).not.toContain('search-no-results')
    expect(html).toContain('name="q"')
  })

  it('hides international products and converts prices outside INR', async () => {
    const inr = await search('saree')
    const usd = await search('saree', { headers: { cookie: 'currency=GBP' } })
    expect(inr).toContain('data-international=""')
    expect(usd).not.toContain('data-international=""')
    expect(usd).toMatch(/class="price[^"]*">£/)
  })
})
