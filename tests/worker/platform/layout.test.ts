// The default layout's craft: icons from one sprite (no emoji or glyph icons in the header),
// the footer's links, and the self-hosted fonts every page preloads.
import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { clientManifest } from '../../../worker/platform/render/assets'
import { decodeEntities } from '../../helpers/html'

const PAGES = ['/', '/c/women', '/cart', '/i/about-us', '/page-not-found', '/search?q=silk']

async function page(path: string): Promise<string> {
  const res = await SELF.fetch(`https://shop.test${path}`)
  expect([200, 404]).toContain(res.status)
  return res.text()
}

/** The text of an HTML fragment (tags dropped, entities decoded). */
function textOf(html: string): string {
  return decodeEntities(html.replace(/<script[\s\S]*?<\/script>/g, '').replace(/<[^>]+>/g, ' '))
}

function headerOf(html: string): string {
  const start = html.indexOf('<header class="header"')
  expect(start).toBeGreaterThan(0)
  return html.slice(start, html.indexOf('</header>', start) + 9)
}

/** Pictographs, dingbats, arrows and the glyphs once used as icons (×, ‹, ›, ☰, ♡, ⌕, 👤). */
const GLYPH_ICON = /[\u2190-\u21FF\u2300-\u23FF\u2500-\u27BF\u2B00-\u2BFF\u{1F000}-\u{1FAFF}×‹›]/u

describe('icons', () => {
  it.each(PAGES)(
    '%s: every icon is drawn from a symbol of the page’s one sprite, hidden from assistive tech',
    async (path) => {
      const html = await page(path)
      const sprites = html.match(/<svg class="icon-sprite"[^>]*>/g) ?? []
      expect(sprites).toHaveLength(1)
      expect(sprites[0]).toContain('aria-hidden="true"')
      const symbols = new Set([...html.matchAll(/<symbol id="([^"]+)"/g)].map((m) => m[1]))
      const uses = [
        ...html.matchAll(/<svg aria-hidden="true" focusable="false" class="icon[^"]*"><use href="#([^"]+)"/g),
      ].map((m) => m[1])
      expect(uses.length).toBeGreaterThan(5)
      for (const id of uses) expect(symbols, id).toContain(id)
      // No <use> outside an aria-hidden icon.
      expect(html.match(/<use href=/g)?.length).toBe(uses.length)
    },
  )

  it.each(PAGES)(
    '%s: the header shows no emoji or glyph icons, and every control has a name',
    async (path) => {
      const header = headerOf(await page(path))
      expect(textOf(header)).not.toMatch(GLYPH_ICON)
      const controls = header.match(/<(button|a)\b[^>]*>[\s\S]*?<\/\1>/g) ?? []
      expect(controls.length).toBeGreaterThan(5)
      for (const control of controls) {
        const label = control.match(/aria-label="([^"]+)"/)?.[1] ?? textOf(control).trim()
        expect(label, control.slice(0, 120)).not.toBe('')
      }
    },
  )
})

describe('footer', () => {
  it('has care, house and policy links that all open, payment methods and social links with icons', async () => {
    const html = await page('/')
    const start = html.indexOf('<footer')
    const footer = html.slice(start, html.indexOf('</footer>', start))
    const text = textOf(footer)
    for (const heading of ['Customer care', 'Policies', 'We accept', 'Follow us'])
      expect(text).toContain(heading)
    for (const method of ['UPI', 'Cash on delivery', 'Cards']) expect(text).toContain(method)
    const links = [...footer.matchAll(/<a href="([^"]+)"/g)].map((m) => decodeEntities(m[1] ?? ''))
    const inside = [...new Set(links.filter((h) => h.startsWith('/')))]
    expect(inside).toEqual(
      expect.arrayContaining(['/contact', '/i/privacy-policy', '/i/shipping-and-returns']),
    )
    for (const href of inside) {
      const res = await SELF.fetch(`https://shop.test${href}`)
      expect(res.status, href).toBe(200)
      await res.body?.cancel()
    }
    const social = links.filter((h) => h.startsWith('https://'))
    expect(social.length).toBeGreaterThanOrEqual(3)
    expect(footer).toMatch(/rel="noopener noreferrer"/)
    expect(footer.match(/<use href="#icon-/g)?.length).toBeGreaterThanOrEqual(social.length + 5)
  })
})

describe('fonts', () => {
  it('every page preloads the body and heading faces, and the pages that open on products the semibold of their prices', async () => {
    const preload = clientManifest.fonts?.preload ?? []
    const everywhere = preload.filter((f) => !f.entries).map((f) => f.href)
    expect(everywhere.map((h) => h.replace(/-[A-Z0-9]+\.woff2$/, '')).sort()).toEqual([
      '/build/fonts/cormorant-garamond-latin-500-normal',
      '/build/fonts/inter-latin-400-normal',
    ])
    const semibold = preload.find((f) => f.href.includes('/inter-latin-600-normal-'))?.href
    expect(semibold).toBeDefined()
    const product = (await page('/c/women')).match(/href="(\/p\/[^"]+)"/)?.[1] as string
    expect(product).toMatch(/^\/p\//)
    const withProducts = ['/', '/c/women', '/search?q=silk', product]
    for (const path of [...PAGES, product]) {
      const html = await page(path)
      const links = html.match(/<link rel="preload"[^>]*as="font"[^>]*>/g) ?? []
      const expected = withProducts.includes(path) ? [...everywhere, semibold] : everywhere
      expect(links.map((l) => l.match(/href="([^"]+)"/)?.[1]).sort(), path).toEqual(expected.sort())
      for (const l of links) {
        expect(l).toContain('type="font/woff2"')
        expect(l).toContain('crossorigin="anonymous"')
      }
    }
    const css = clientManifest.cssText ?? ''
    // Same-origin files only, each one the build copied, each face without a swap after first paint.
    const faces = css.match(/@font-face\{[^}]*\}/g) ?? []
    const urls = faces.flatMap((f) =>
      [...f.matchAll(/url\(([^)]+)\)/g)].map((m) => m[1]?.replace(/["']/g, '')),
    )
    expect(urls.sort()).toEqual([...(clientManifest.fonts?.all ?? [])].sort())
    for (const url of urls) expect(url).toMatch(/^\/build\/fonts\/[a-z-]+\d{3}-normal-[A-Z0-9]+\.woff2$/)
    // No stylesheet url() outside the faces fetches anything: only inline data.
    for (const m of css.replace(/@font-face\{[^}]*\}/g, '').matchAll(/url\(([^)]+)\)/g))
      expect(m[1]?.replace(/["']/g, '')).toMatch(/^data:/)
    const webFaces = faces.filter((f) => f.includes('url('))
    expect(webFaces.length).toBe(urls.length)
    for (const f of webFaces) expect(f).toContain('font-display:optional')
    // Fallbacks scaled to the faces' metrics.
    const fallbacks = faces.filter((f) => f.includes('local('))
    expect(fallbacks).toHaveLength(2)
    for (const f of fallbacks)
      expect(f).toMatch(/size-adjust:[\d.]+%.*ascent-override:[\d.]+%.*descent-override:[\d.]+%/)
  })

  it('a page of the empty layout (raw markup) preloads nothing', async () => {
    const html = await page('/append-prepend.html')
    expect(html).not.toContain('as="font"')
  })
})
