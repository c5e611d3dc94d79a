// The document shell's loading strategy (Lighthouse, issue 10): the stylesheet is inlined in a
// nonce'd <style> (no render-blocking request) and the islands' JS is fetched at low priority.
import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { clientManifest, INLINE_CSS_SLOT } from '../../../worker/platform/render/assets'

describe('document shell', () => {
  it('inlines the stylesheet with the CSP nonce instead of linking it', async () => {
    const res = await SELF.fetch('https://shop.test/cart')
    const html = await res.text()
    const csp = res.headers.get('content-security-policy') ?? ''
    const nonce = csp.match(/style-src [^;]*'nonce-([^']+)'/)?.[1]
    expect(nonce).toBeTruthy()
    const style = html.match(/<style nonce="([^"]+)">([^<]*)<\/style>/)
    expect(style?.[1]).toBe(nonce)
    expect(style?.[2]).toBe(clientManifest.cssText)
    expect(html).not.toMatch(/<link[^>]+rel="stylesheet"/)
  })

  it("puts the stylesheet in the <style> whatever the page's own text says, once and whole", async () => {
    // The stylesheet joins a page rendered whole where its <style> holds INLINE_CSS_SLOT; a shopper
    // who types that mark (here the search's words, in the title and the results heading) must not
    // move it.
    for (const path of [
      `/search?q=${encodeURIComponent(INLINE_CSS_SLOT)}`,
      `/search?q=${encodeURIComponent(`x${INLINE_CSS_SLOT}${INLINE_CSS_SLOT}`)}`,
      '/c/sarees',
    ]) {
      const html = await (await SELF.fetch(`https://shop.test${path}`)).text()
      expect(html.startsWith('<!DOCTYPE html><html')).toBe(true)
      const styles = [...html.matchAll(/<style nonce="[^"]+">([^<]*)<\/style>/g)].map((m) => m[1])
      expect(styles).toEqual([clientManifest.cssText])
      expect(html).not.toContain(INLINE_CSS_SLOT)
      expect(html.split(clientManifest.cssText as string).length).toBe(2)
    }
  })

  it("places a listing's kept tiles, filter panel and chrome whole, no marker left", async () => {
    // A page rendered whole carries the markup the isolate keeps (tiles past the first row, the
    // filter panel, the layout's chrome) as bytes encoded once, where the render left a marker
    // (kept-bytes.ts): every answer, the first and those after it, has each piece in place and no
    // marker.
    const pages: string[] = []
    for (let i = 0; i < 3; i++) pages.push(await (await SELF.fetch('https://shop.test/c/sarees')).text())
    for (const html of pages) {
      expect(html).not.toContain('\u2060kept:')
      const items = html.match(/<li class="product-grid__item">[\s\S]*?<\/li>/g) ?? []
      expect(items.length).toBeGreaterThan(4)
      for (const item of items) expect(item).toMatch(/<a [^>]*href="\/[^"]+"/)
      expect(html).toMatch(/<aside class="filters"[^>]*>[\s\S]*data-testid="filter-option"/)
      // The layout's chrome, kept too: the sprite, the header island, the footer, once each.
      for (const part of ['class="icon-sprite"', 'data-island="header"', 'data-testid="footer"'])
        expect(html.split(part)).toHaveLength(2)
    }
    const noNonce = (html: string) => html.replace(/nonce="[^"]*"/g, '').replace(/"nonce":"[^"]*"/g, '')
    expect(noNonce(pages[2] ?? '')).toBe(noNonce(pages[1] ?? ''))
  })

  it('fetches the module script and its preloads at low priority', async () => {
    const html = await (await SELF.fetch('https://shop.test/cart')).text()
    const tags = html.match(/<(script type="module"|link rel="modulepreload")[^>]*>/g) ?? []
    expect(tags.length).toBeGreaterThan(1)
    for (const tag of tags) expect(tag.toLowerCase()).toContain('fetchpriority="low"')
  })
})
