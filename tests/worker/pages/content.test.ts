import { env, SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildCmsPages } from '../../../scripts/catalogue/seed/cms'
import { countRows } from '../../helpers/d1-rows'
import { decodeEntities, titleOf } from '../../helpers/html'
import { islandProps } from '../../helpers/islands'

async function page(path: string) {
  const res = await SELF.fetch(`https://shop.test${path}`, { redirect: 'manual' })
  return { res, html: await res.text() }
}

/** The HTML of a page that must answer 200. */
async function okPage(path: string): Promise<string> {
  const { res, html } = await page(path)
  expect(res.status, path).toBe(200)
  return html
}

/** The <main> part of a page (the layout around it has its own scripts). */
function mainOf(html: string): string {
  return html.slice(html.indexOf('<main'), html.indexOf('</main>'))
}

const XSS_CONTENT = [
  '<h2>Safe heading</h2>',
  '<script>window.__xss = 1</script>',
  '<img src="/img/1/1/x.svg" onerror="window.__xss = 2">',
  '<a href="javascript:window.__xss = 3">click</a>',
  '<a href="/c/women" onclick="window.__xss = 4">Women</a>',
  '<iframe src="https://evil.test"></iframe>',
  '<div style="background:url(javascript:alert(1))" data-island="header">styled</div>',
  '<svg onload="window.__xss = 5"></svg>',
  '</article></main><script>window.__xss = 6</script>',
].join('')

beforeAll(async () => {
  const doc = { id: 9001, identifier: 'xss-test', title: 'XSS test', content: XSS_CONTENT, is_active: true }
  const block = {
    id: 9002,
    identifier: 'xss-block',
    title: 'XSS block',
    content: '<p>Block text</p><script>window.__xss = 7</script>',
    is_active: true,
  }
  const withBlock = {
    id: 9003,
    identifier: 'with-block',
    title: 'With block',
    content: '<p>Before</p>{{block id="xss-block"}}<p>After</p>{{block id="missing-block"}}',
    is_active: true,
  }
  await env.DB.batch([
    env.DB.prepare(
      'INSERT INTO cms_pages (id, identifier, store_id, is_active, doc) VALUES (?, ?, 0, 1, ?)',
    ).bind(doc.id, doc.identifier, JSON.stringify(doc)),
    env.DB.prepare(
      'INSERT INTO cms_blocks (id, identifier, store_id, is_active, doc) VALUES (?, ?, 0, 1, ?)',
    ).bind(block.id, block.identifier, JSON.stringify(block)),
    env.DB.prepare(
      'INSERT INTO cms_pages (id, identifier, store_id, is_active, doc) VALUES (?, ?, 0, 1, ?)',
    ).bind(withBlock.id, withBlock.identifier, JSON.stringify(withBlock)),
  ])
})

describe('CMS pages', () => {
  it('renders /i/{slug} with the page title and content', async () => {
    const html = await okPage('/i/about-us')
    expect(html).toContain('data-testid="cms-page"')
    expect(html).toContain('data-identifier="about-us"')
    // The page's own first paragraph, as the seeded catalogue wrote it.
    const seeded = buildCmsPages().find((p) => p.identifier === 'about-us')?.content ?? ''
    const firstParagraph = /<p>([^<]{40,})<\/p>/.exec(seeded)?.[1] ?? 'missing'
    expect(decodeEntities(html)).toContain(firstParagraph)
    expect(titleOf(html)).toBe('About us')
  })

  it.each(['magazine', 'covers', 'press', 'past-collections', 'about-us-author', 'stockists'])(
    'renders the content route /%s from its CMS page',
    async (route) => {
      const html = await okPage(`/${route}`)
      expect(html).toContain(`data-identifier="${route}"`)
      expect(html).toContain('data-layout="default"')
    },
  )

  it('renders an /ode-to-{name} tribute page', async () => {
    const html = await okPage('/ode-to-handloom')
    expect(html).toContain('data-identifier="ode-to-handloom"')
  })

  it("answers an unknown CMS page with 404 and 'CMS query returned empty result'", async () => {
    for (const path of ['/i/no-such-page', '/ode-to-nobody']) {
      const { res, html } = await page(path)
      expect(res.status).toBe(404)
      expect(html).toContain('<p data-testid="cms-error">CMS query returned empty result</p>')
    }
  })

  it('sanitizes XSS in CMS content: no scripts, handlers, javascript: URLs or break-outs', async () => {
    const html = await okPage('/i/xss-test')
    const main = mainOf(html)
    expect(main).toContain('<h2>Safe heading</h2>')
    expect(main).toContain('<a href="/c/women">Women</a>')
    expect(main).toContain('<div>styled</div>')
    expect(main).not.toMatch(/<script|<iframe|<svg|onerror|onclick|onload|javascript:|style=|__xss/i)
    // The page's own structure is intact: exactly one <main> and the article closes inside it.
    expect(html.match(/<main/g)).toHaveLength(1)
    expect(html.match(/<\/main>/g)).toHaveLength(1)
    // Every script on the page is ours (nonce'd); none came from the CMS.
    expect(html).not.toContain('window.__xss')
  })

  it('expands {{block}} directives with sanitized block HTML; a missing block renders nothing', async () => {
    const { html } = await page('/i/with-block')
    const main = mainOf(html)
    expect(main).toContain('<p>Before</p><p>Block text</p><p>After</p>')
    expect(main).not.toContain('__xss')
    expect(main).not.toContain('{{block')
  })
})

describe('contact', () => {
  it("has the title 'Contact', the contact CMS content, its block and the contact form island", async () => {
    const html = await okPage('/contact')
    expect(titleOf(html)).toBe('Contact')
    expect(html).toContain('data-island="contact-form"')
    expect(html).toContain('data-block="contact-details"')
    expect(html).toMatch(/href="mailto:[^"]+@/)
  })
})

describe('store locator', () => {
  it('lists the stores with links to their pages', async () => {
    const html = await okPage('/store-locator')
    const codes = [...mainOf(html).matchAll(/data-store="([^"]+)"/g)].map((m) => m[1])
    expect(codes.length).toBe(await countRows('SELECT COUNT(*) AS n FROM stores'))
    expect(codes.length).toBeGreaterThan(0)
    expect(html).toContain(`href="/store-locator/${codes[0]}"`)
  })

  it("renders each store's page with its name, address and hours", async () => {
    const row = await env.DB.prepare('SELECT code, doc FROM stores ORDER BY position LIMIT 1').first<{
      code: string
      doc: string
    }>()
    const store = JSON.parse(row?.doc ?? '{}') as { name: string; address: string[]; hours: string[] }
    const html = await okPage(`/store-locator/${row?.code}`)
    const text = decodeEntities(html)
    expect(text).toContain(`<h1>${store.name}</h1>`)
    for (const line of store.address) expect(text).toContain(line)
    for (const h of store.hours) expect(text).toContain(h)
  })

  it('answers an unknown store with 404', async () => {
    const { res } = await page('/store-locator/atlantis')
    expect(res.status).toBe(404)
  })
})

describe('wishlist and compare pages', () => {
  it('renders the /wishlist shell with its island (the list lives in the browser)', async () => {
    const html = await okPage('/wishlist')
    expect(titleOf(html)).toBe('Wishlist')
    expect(html).toContain('data-island="wishlist-page"')
  })

  it('gives the /compare island the comparable attributes with their option labels', async () => {
    const html = await okPage('/compare')
    const props = islandProps<{ attributes: { code: string; label: string; options: unknown[] }[] }>(
      html,
      'compare-page',
    ) ?? { attributes: [] }
    const { results } = await env.DB.prepare('SELECT doc FROM attributes').all<{ doc: string }>()
    const comparable = results
      .map(
        (r) =>
          JSON.parse(r.doc) as { attribute_code: string; is_comparable?: boolean; frontend_input: string },
      )
      .filter((a) => a.is_comparable && a.frontend_input !== 'textarea')
      .map((a) => a.attribute_code)
    expect(props.attributes.map((a) => a.code).sort()).toEqual(comparable.sort())
    expect(comparable.length).toBeGreaterThan(0)
  })

  it('puts the wishlist panel island on default-layout pages', async () => {
    const { html } = await page('/store-locator')
    expect(html).toContain('data-island="wishlist-panel"')
  })
})
