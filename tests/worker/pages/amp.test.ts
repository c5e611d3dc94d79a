import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { readConfig } from '../../../worker/platform/env'

const BASE = 'https://shop.test'
/** Absolute links name the configured public origin, whatever host the request was sent to. */
const ORIGIN = readConfig(env).PUBLIC_ORIGIN

async function firstRow<T>(sql: string, ...binds: unknown[]): Promise<T> {
  const row = await env.DB.prepare(sql)
    .bind(...binds)
    .first<T>()
  if (!row) throw new Error(`no row for ${sql}`)
  return row
}

function locs(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, '&'))
}

function jsonLd(html: string): Array<Record<string, unknown>> {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) =>
    JSON.parse(m[1]!),
  )
}

describe('robots.txt and sitemaps', () => {
  it('robots.txt disallows private areas and names the sitemap', async () => {
    const res = await SELF.fetch(`${BASE}/robots.txt`)
    expect(res.headers.get('content-type')).toContain('text/plain')
    const text = await res.text()
    for (const p of ['/api/', '/cart', '/checkout', '/my-account']) expect(text).toContain(`Disallow: ${p}`)
    expect(text).toContain(`Sitemap: ${ORIGIN}/sitemap.xml`)
  })

  it('the sitemap index lists page, category and product sitemaps that cover every listed product', async () => {
    const res = await SELF.fetch(`${BASE}/sitemap.xml`)
    expect(res.headers.get('content-type')).toContain('application/xml')
    const index = await res.text()
    expect(index.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true)
    expect(index).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
    const files = locs(index)
    expect(files).toContain(`${ORIGIN}/sitemaps/pages.xml`)
    expect(files).toContain(`${ORIGIN}/sitemaps/categories.xml`)
    const productUrls: string[] = []
    for (const f of files.filter((u) => u.includes('/products-'))) {
      const xml = await (await SELF.fetch(f)).text()
      expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">')
      productUrls.push(...locs(xml))
    }
    // Independently: products a listing shows (visibility 2-4, status 0/1).
    const { n } = await firstRow<{ n: number }>(
      'SELECT count(*) AS n FROM products WHERE visibility IN (2,3,4) AND status IN (0,1)',
    )
    expect(productUrls.length).toBe(n)
    expect(new Set(productUrls).size).toBe(n)
    for (const u of productUrls) {
      expect(u.startsWith(`${ORIGIN}/p/`), u).toBe(true)
      expect(new URL(u).pathname).toMatch(/^\/p\/[^/]+\/[^/]+$/)
    }
    const { sku } = await firstRow<{ sku: string }>('SELECT sku FROM products WHERE visibility = 1 LIMIT 1')
    expect(productUrls.some((u) => u.includes(`/p/${encodeURIComponent(sku)}/`))).toBe(false)
  })

  it('a product sitemap past the last page is a 404', async () => {
    expect((await SELF.fetch(`${BASE}/sitemaps/products-999.xml`)).status).toBe(404)
  })
})

describe('AMP pages', () => {
  it('renders a configurable product as AMP with canonical link, no author script, and Product JSON-LD', async () => {
    const p = await firstRow<{ sku: string; slug: string; doc: string }>(
      "SELECT sku, slug, doc FROM products WHERE type_id = 'configurable' AND status = 1 AND visibility = 4 LIMIT 1",
    )
    const res = await SELF.fetch(`${BASE}/amp/p/${encodeURIComponent(p.sku)}/${p.slug}`)
    expect(res.status).toBe(200)
    const csp = res.headers.get('content-security-policy') ?? ''
    expect(csp).toContain('https://cdn.ampproject.org/')
    const html = await res.text()
    expect(html.startsWith('<!doctype html><html amp')).toBe(true)
    expect(html).toContain(`<link rel="canonical" href="${ORIGIN}/p/${encodeURIComponent(p.sku)}/${p.slug}">`)
    expect(html).toContain('Check available sizes')
    expect(html).toContain('Product details')
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]!)
    for (const attrs of scripts) {
      expect(attrs.includes('cdn.ampproject.org') || attrs.includes('application/ld+json')).toBe(true)
    }
    const styles = html.match(/<style amp-custom>([\s\S]*?)<\/style>/)
    expect(styles).not.toBeNull()
    expect(new TextEncoder().encode(styles![1]).length).toBeLessThanOrEqual(75_000)
    const ld = jsonLd(html)
    const product = ld.find((d) => d['@type'] === 'Product') as {
      name: string
      offers: { price: string; priceCurrency: string; availability: string }
    }
    const doc = JSON.parse(p.doc) as { name: string }
    expect(product.name).toBe(doc.name)
    expect(product.offers.priceCurrency).toBe('INR')
    expect(Number(product.offers.price)).toBeGreaterThan(0)
    expect(product.offers.availability).toMatch(/^https:\/\/schema\.org\/(InStock|OutOfStock)$/)
    expect(ld.some((d) => d['@type'] === 'BreadcrumbList')).toBe(true)
  })

  it('renders an AMP category with breadcrumbs, item count and tiles sorted by updated_at desc', async () => {
    const cat = await firstRow<{ id: number; slug: string }>(
      'SELECT c.id, c.slug FROM categories c WHERE c.id = 189',
    )
    const res = await SELF.fetch(`${BASE}/amp/c/${cat.slug}`)
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain('Performance Fabrics')
    const { results } = await env.DB.prepare(
      `SELECT p.sku FROM products p WHERE p.visibility IN (2,3,4) AND p.status IN (0,1)
         AND EXISTS (SELECT 1 FROM json_each(p.doc, '$.category_ids') j WHERE j.value = ?)
       ORDER BY p.updated_at DESC, p.id DESC`,
    )
      .bind(cat.id)
      .all<{ sku: string }>()
    expect(html).toContain(`${results.length} items`)
    const shown = [...html.matchAll(/href="\/amp\/p\/([^/]+)\//g)].map((m) => decodeURIComponent(m[1]!))
    expect(shown.length).toBeGreaterThan(0)
    // Tiles appear in updated_at desc order (international products may be hidden in other currencies).
    const expected = results.map((r) => r.sku).filter((s) => shown.includes(s))
    expect(shown).toEqual(expected.slice(0, shown.length))
    expect(html).toContain('<amp-img')
  })

  it('shows the spec empty state for a category without products', async () => {
    const empty = await env.DB.prepare(
      `SELECT c.slug FROM categories c WHERE c.is_active = 1 AND c.id <> 2 AND NOT EXISTS (
         SELECT 1 FROM products p, json_each(p.doc, '$.category_ids') j WHERE j.value = c.id) LIMIT 1`,
    ).first<{ slug: string }>()
    if (!empty) return
    const html = await (await SELF.fetch(`${BASE}/amp/c/${empty.slug}`)).text()
    expect(html).toContain('No products found!')
    expect(html).toContain(
      'Please change Your search criteria and try again. If still not finding anything relevant, please visit the Home page and try out some of our bestsellers!',
    )
  })

  it('names the same breadcrumb trail as the canonical category page, for every category', async () => {
    const crumbLabels = (html: string) => {
      const nav = html.match(/<nav[^>]*aria-label="Breadcrumb"[^>]*>([\s\S]*?)<\/nav>/)?.[1] ?? ''
      return [...nav.matchAll(/<li[^>]*>([\s\S]*?)<\/li>/g)].map((m) =>
        (m[1] as string).replace(/<[^>]+>/g, ''),
      )
    }
    const { results } = await env.DB.prepare('SELECT slug FROM categories WHERE is_active = 1').all<{
      slug: string
    }>()
    let compared = 0
    for (const { slug } of results) {
      const canonical = await SELF.fetch(`${BASE}/c/${encodeURIComponent(slug)}`, { redirect: 'manual' })
      const amp = await SELF.fetch(`${BASE}/amp/c/${encodeURIComponent(slug)}`, { redirect: 'manual' })
      if (canonical.status !== 200 || amp.status !== 200) continue
      expect(crumbLabels(await amp.text()), slug).toEqual(crumbLabels(await canonical.text()))
      compared++
    }
    expect(compared).toBeGreaterThan(10)
  })

  it('answers an unknown AMP product with a 404', async () => {
    expect((await SELF.fetch(`${BASE}/amp/p/NOPE-404/nothing`)).status).toBe(404)
  })
})

describe('URL dispatcher with the demo catalogue', () => {
  it('resolves a product url_path to its {type_id}-product route', async () => {
    const p = await firstRow<{ sku: string; url_path: string; type_id: string }>(
      "SELECT sku, url_path, type_id FROM products WHERE type_id = 'configurable' AND status = 1 AND visibility = 4 LIMIT 1",
    )
    await env.URL_MAPPINGS.delete(p.url_path.replace(/^\/+/, ''))
    const res = await SELF.fetch(`${BASE}/${p.url_path.replace(/^\/+/, '')}`, { redirect: 'manual' })
    expect(res.status).toBe(200)
    expect(res.headers.get('x-route-name')).toBe('configurable-product')
  })

  it('resolves a category url_path to the category route', async () => {
    const c = await firstRow<{ url_path: string }>('SELECT url_path FROM categories WHERE id = 190')
    await env.URL_MAPPINGS.delete(c.url_path)
    const res = await SELF.fetch(`${BASE}/${c.url_path}`, { redirect: 'manual' })
    expect(res.status).toBe(200)
    expect(res.headers.get('x-route-name')).toBe('category')
  })

  it('lets a stored KV mapping beat a product with the same url_path', async () => {
    const p = await firstRow<{ url_path: string }>(
      "SELECT url_path FROM products WHERE type_id = 'simple' AND status = 1 AND visibility = 4 LIMIT 1",
    )
    const key = p.url_path.replace(/^\/+/, '')
    await env.URL_MAPPINGS.put(key, JSON.stringify({ type: 'redirect', to: '/c/tees' }))
    const res = await SELF.fetch(`${BASE}/${key}`, { redirect: 'manual' })
    expect(res.status).toBe(301)
    expect(res.headers.get('location')).toBe('/c/tees')
  })

  it('redirects an unknown path to /page-not-found', async () => {
    const res = await SELF.fetch(`${BASE}/no/such/thing-at-all`, { redirect: 'manual' })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/page-not-found')
  })
})

describe('canonical product page SEO and caching', () => {
  it('links its AMP page, has an absolute canonical and Product + BreadcrumbList JSON-LD', async () => {
    const p = await firstRow<{ sku: string; slug: string }>(
      "SELECT sku, slug FROM products WHERE type_id = 'simple' AND status = 1 AND visibility = 4 LIMIT 1",
    )
    const path = `/p/${encodeURIComponent(p.sku)}/${p.slug}`
    const html = await (await SELF.fetch(`${BASE}${path}`)).text()
    expect(html).toContain(`<link rel="canonical" href="${ORIGIN}${path}"/>`)
    expect(html).toContain(`<link rel="amphtml" href="${ORIGIN}/amp${path}"/>`)
    const ld = jsonLd(html)
    const product = ld.find((d) => d['@type'] === 'Product') as { sku: string; offers: { price: string } }
    expect(product.sku).toBe(p.sku)
    expect(Number(product.offers.price)).toBeGreaterThan(0)
    expect(ld.some((d) => d['@type'] === 'BreadcrumbList')).toBe(true)
  })

  it('serves an anonymous product page from the output cache on the second request, tagged by sku', async () => {
    const p = await firstRow<{ sku: string; slug: string }>(
      "SELECT sku, slug FROM products WHERE type_id = 'configurable' AND status = 1 AND visibility = 4 LIMIT 1 OFFSET 3",
    )
    const url = `${BASE}/p/${encodeURIComponent(p.sku)}/${p.slug}`
    const first = await SELF.fetch(url)
    await first.text()
    expect(first.headers.get('x-cache')).toBe('MISS')
    expect(first.headers.get('cache-tag')).toBe(`product,P${p.sku}`)
    // The cache put runs in waitUntil; give it a moment.
    let second = await SELF.fetch(url)
    for (let i = 0; i < 20 && second.headers.get('x-cache') !== 'HIT'; i++) {
      await second.text()
      await new Promise((r) => setTimeout(r, 50))
      second = await SELF.fetch(url)
    }
    expect(second.headers.get('x-cache')).toBe('HIT')
    await second.text()
  })
})

describe('dispatcher keeps the query string', () => {
  it('renders /{url_path}?color=… filtered and noindex, like /c/{slug}?color=…', async () => {
    const c = await firstRow<{ url_path: string; slug: string }>(
      'SELECT url_path, slug FROM categories WHERE id = 190',
    )
    await env.URL_MAPPINGS.delete(c.url_path)
    const direct = await (await SELF.fetch(`${BASE}/c/${c.slug}?sort=price-asc`)).text()
    const viaPath = await SELF.fetch(`${BASE}/${c.url_path}?sort=price-asc`, { redirect: 'manual' })
    expect(viaPath.status).toBe(200)
    const html = await viaPath.text()
    const skus = (h: string) => [...h.matchAll(/data-sku="([^"]+)"/g)].map((m) => m[1])
    expect(skus(html).length).toBeGreaterThan(0)
    expect(skus(html)).toEqual(skus(direct))
  })
})
