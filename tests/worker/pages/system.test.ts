// The page-not-found page: a search field and the popular categories, for the route itself, any
// unknown address and a product that does not exist.
import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { PAGE_TEXT } from '../../../shared/i18n/messages'
import { decodeEntities } from '../../helpers/html'

async function notFound(path: string): Promise<string> {
  const res = await SELF.fetch(`https://shop.test${path}`)
  expect(res.status).toBe(404)
  return res.text()
}

describe('page not found', () => {
  it.each(['/page-not-found', '/no-such-page-at-all', '/p/NO-SUCH-SKU/nothing'])(
    '%s: offers a search form and the menu’s top categories, never indexed',
    async (path) => {
      const html = await notFound(path)
      expect(html).toContain('<meta name="robots" content="noindex"/>')
      const form = html.match(/<form[^>]*data-testid="not-found-search"[^>]*>[\s\S]*?<\/form>/)?.[0] ?? ''
      expect(form).toContain('action="/search"')
      expect(form).toContain('method="get"')
      const input = form.match(/<input [^>]*>/)?.[0] ?? ''
      expect(input).toContain('id="not-found-q"')
      expect(input).toContain('name="q"')
      expect(input).toContain('type="search"')
      expect(decodeEntities(form)).toContain(`<label for="not-found-q">${PAGE_TEXT.notFoundSearch}</label>`)
      const list = html.match(/<ul data-testid="not-found-categories">([\s\S]*?)<\/ul>/)?.[1] ?? ''
      const offered = [...list.matchAll(/href="([^"]+)"/g)].map((m) => m[1])
      // The header's top-level menu, in its order.
      const menu = [...html.matchAll(/<a href="([^"]+)" class="header__nav-link"/g)].map((m) => m[1])
      expect(offered.length).toBeGreaterThan(0)
      expect(offered).toEqual(menu.slice(0, offered.length))
    },
  )

  it('every category it offers opens', async () => {
    const html = await notFound('/page-not-found')
    const list = html.match(/<ul data-testid="not-found-categories">([\s\S]*?)<\/ul>/)?.[1] ?? ''
    const hrefs = [...list.matchAll(/href="([^"]+)"/g)].map((m) => m[1])
    expect(hrefs.length).toBeGreaterThan(0)
    for (const href of hrefs) {
      const res = await SELF.fetch(`https://shop.test${href}`)
      expect(res.status, href).toBe(200)
      await res.body?.cancel()
    }
  })
})
