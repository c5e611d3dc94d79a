import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'

const BASE = 'https://shop.test'

interface ProductRow {
  sku: string
  slug: string
  doc: string
}

interface ConfigurableDoc {
  configurable_options: { attribute_code: string; values: { value_index: number; label: string }[] }[]
  configurable_children: { sku: string; size?: number; stock?: { is_in_stock?: boolean } }[]
}

async function product(where: string, order = 'id'): Promise<ProductRow> {
  const row = await env.DB.prepare(
    `SELECT sku, slug, doc FROM products WHERE ${where} AND status = 1 AND visibility = 4 ORDER BY ${order} LIMIT 1`,
  ).first<ProductRow>()
  if (!row) throw new Error(`no product where ${where}`)
  return row
}

async function page(path: string): Promise<string> {
  const res = await SELF.fetch(`${BASE}${path}`)
  expect(res.status, path).toBe(200)
  return res.text()
}

const ampCss = (html: string) => html.match(/<style amp-custom>([\s\S]*?)<\/style>/)?.[1] ?? ''
const bodyOf = (html: string) => html.slice(html.indexOf('<body'))
const productUrl = (p: ProductRow) => `/p/${encodeURIComponent(p.sku)}/${p.slug}`

/** What AMP's rules ask of the author stylesheet and images, checked on one rendered document. */
function expectWithinAmpRules(html: string) {
  const css = ampCss(html)
  expect(css.length).toBeGreaterThan(1000)
  expect(new TextEncoder().encode(css).length).toBeLessThanOrEqual(75_000)
  expect(css).not.toMatch(/!\s*important/i)
  expect(css).not.toMatch(/i-amphtml-/)
  expect(css).not.toMatch(/@import/)
  const body = bodyOf(html)
  expect(body).not.toMatch(/<img[\s>]/)
  expect(body).not.toMatch(/\sstyle="/)
  const imgs = [...body.matchAll(/<amp-img([^>]*)>/g)].map((m) => m[1] as string)
  expect(imgs.length).toBeGreaterThan(0)
  for (const attrs of imgs) expect(attrs).toMatch(/ width="\d+" height="\d+"/)
}

describe('AMP pages in the shop look', () => {
  it('a product page: header with the store name and a link back, price as the shop shows it, buy button, footer', async () => {
    const p = await product("type_id = 'simple'")
    const html = await page(`/amp${productUrl(p)}`)
    expectWithinAmpRules(html)
    // The shop's type and colours are in the stylesheet, and its header, button and footer use them.
    const css = ampCss(html)
    expect(css).toContain("'Cormorant Garamond'")
    expect(css).toContain('#8c2f39')
    expect(css).toMatch(/\.btn\{[^}]*background:#1d1a17/)
    const body = bodyOf(html)
    expect(body).toMatch(/<header class="amp-header">[\s\S]*<a class="amp-header__logo" href="\/">[^<]+<\/a>/)
    expect(body).toContain(`<a class="amp-header__full" href="${productUrl(p)}">View the full page</a>`)
    expect(body).toContain(`<a class="btn" href="${productUrl(p)}">Buy on the shop</a>`)
    expect(body).toContain('Check available sizes')
    expect(body).toMatch(/<footer class="footer">[\s\S]*<a href="\/contact">Contact us<\/a>[\s\S]*<\/footer>/)
    // The same formatted amount as the full product page's price.
    const full = await page(productUrl(p))
    const shown = full.match(/data-testid="price-final"[^>]*>([^<]+)</)?.[1]
    expect(shown).toMatch(/^₹[\d,]+(\.\d\d)?$/)
    const ampPrice = body.match(/<p class="price">(?:<span[^>]*>)([^<]+)</)?.[1]
    expect(ampPrice).toBe(shown)
  })

  it('a configurable product lists its sizes, each in stock linking to that size on the full page', async () => {
    const p = await product(
      "type_id = 'configurable' AND EXISTS (SELECT 1 FROM json_each(doc, '$.configurable_options') o WHERE json_extract(o.value, '$.attribute_code') = 'size')",
    )
    const doc = JSON.parse(p.doc) as ConfigurableDoc
    const html = await page(`/amp${productUrl(p)}`)
    expectWithinAmpRules(html)
    const list = html.match(/<ul class="sizes"[^>]*>([\s\S]*?)<\/ul>/)?.[1] ?? ''
    const items = [...list.matchAll(/<li>(?:<a href="([^"]+)">|<span class="sold-out"[^>]*>)([^<]+)</g)].map(
      (m) => ({ href: m[1], label: m[2] as string }),
    )
    const offered = (doc.configurable_options.find((o) => o.attribute_code === 'size')?.values ?? []).filter(
      (v) => doc.configurable_children.some((c) => c.size === v.value_index),
    )
    expect(items.map((i) => i.label)).toEqual(offered.map((v) => v.label))
    for (const item of items) {
      const value = offered.find((v) => v.label === item.label)?.value_index
      const ofSize = doc.configurable_children.filter((c) => c.size === value)
      if (!item.href) {
        expect(ofSize.some((c) => c.stock?.is_in_stock)).toBe(false)
        continue
      }
      const childSku = decodeURIComponent(item.href.split('/').pop() as string)
      expect(item.href.startsWith(`${productUrl(p)}/`)).toBe(true)
      expect(ofSize.map((c) => c.sku)).toContain(childSku)
    }
    expect(items.some((i) => i.href)).toBe(true)
  })

  it('a category page: header link back to the category, tiles as sized amp-img, the footer', async () => {
    const cat = await env.DB.prepare('SELECT slug FROM categories WHERE id = 189').first<{ slug: string }>()
    const html = await page(`/amp/c/${cat?.slug}`)
    expectWithinAmpRules(html)
    const body = bodyOf(html)
    expect(body).toContain(`<a class="amp-header__full" href="/c/${cat?.slug}">View the full page</a>`)
    expect(body).toMatch(
      /<li class="tile"><a href="\/amp\/p\/[^"]+"><amp-img [^>]*><\/amp-img><p class="tile__name">/,
    )
    expect(body).toMatch(/<p class="tile__price">(<span class="sale">)?₹[\d,]+/)
    expect(body).toContain('<footer class="footer">')
  })

  it('escapes a hostile product name everywhere the page shows it', async () => {
    // A product no other test here has read, so no cache holds its old name.
    const p = await product("type_id = 'simple'", 'id DESC')
    const hostile = `<img src=x onerror=alert(1)>"'&</style><script>alert(2)</script>`
    const doc = { ...JSON.parse(p.doc), name: hostile, meta_title: null }
    await env.DB.prepare('UPDATE products SET doc = ?1 WHERE sku = ?2').bind(JSON.stringify(doc), p.sku).run()
    const html = await page(`/amp${productUrl(p)}`)
    expect(html).not.toContain('<img src=x')
    expect(html).not.toContain('<script>alert(2)')
    expect(html).not.toContain('</style><script>')
    // Shown as text in the heading and the title, and the stylesheet is the only amp-custom block.
    expect(bodyOf(html)).toContain('<h1>&lt;img src=x onerror=alert(1)&gt;')
    expect(html).toContain('<title>&lt;img src=x onerror=alert(1)&gt;')
    expect(html.match(/<style amp-custom>/g)?.length).toBe(1)
    expectWithinAmpRules(html)
  })
})
