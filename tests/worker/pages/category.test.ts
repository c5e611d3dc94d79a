import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { MAX_PRICE_BANDS, PRICE_RANGES } from '../../../shared/config/catalog'
import { MSG } from '../../../shared/i18n/messages'
import { decodeEntities, titleOf } from '../../helpers/html'

interface Doc {
  id: number
  sku: string
  name: string
  price: number
  final_price?: number | null
  created_at: string
  category_ids: number[]
  color?: number | null
  color_options?: number[] | null
  type_id: string
  international_flag?: string | number | null
}
interface CategoryDoc {
  id: number
  parent_id: number
  slug: string
  name: string
  meta_title?: string | null
  meta_description?: string | null
  url_path: string
}

/** Listed products straight from D1 (independent of the Commerce port). */
async function listedDocs(): Promise<Doc[]> {
  const rows = await env.DB.prepare(
    'SELECT doc FROM products WHERE status IN (0, 1) AND visibility IN (2, 3, 4)',
  ).all<{ doc: string }>()
  return rows.results.map((r) => JSON.parse(r.doc) as Doc)
}

async function categories(): Promise<CategoryDoc[]> {
  const rows = await env.DB.prepare('SELECT doc FROM categories').all<{ doc: string }>()
  return rows.results.map((r) => JSON.parse(r.doc) as CategoryDoc)
}

function subtreeIds(all: CategoryDoc[], id: number): Set<number> {
  const ids = new Set([id])
  let grew = true
  while (grew) {
    grew = false
    for (const c of all) {
      if (ids.has(c.parent_id) && !ids.has(c.id)) {
        ids.add(c.id)
        grew = true
      }
    }
  }
  return ids
}

function tileSkus(html: string): string[] {
  return [...html.matchAll(/<article class="tile" data-sku="([^"]+)"/g)].map((m) =>
    decodeEntities(m[1] ?? ''),
  )
}

async function page(path: string, init?: RequestInit): Promise<{ res: Response; html: string }> {
  const res = await SELF.fetch(`https://shop.test${path}`, { redirect: 'manual', ...init })
  return { res, html: await res.text() }
}

describe('category page', () => {
  it('renders the first 24 products, newest first, of the category and its descendants', async () => {
    const all = await categories()
    const women = all.find((c) => c.slug === 'women')
    expect(women).toBeTruthy()
    const ids = subtreeIds(all, women?.id ?? 0)
    const expected = (await listedDocs())
      .filter((d) => d.category_ids.some((id) => ids.has(id)))
      .sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.id - b.id))
    expect(expected.length).toBeGreaterThan(24)
    const { res, html } = await page('/c/women')
    expect(res.status).toBe(200)
    expect(tileSkus(html)).toEqual(expected.slice(0, 24).map((d) => d.sku))
    expect(html).toContain(
      `data-testid="listing-count" aria-live="polite">${expected.length}<!-- --> <!-- -->products`,
    )
  })

  it('sorts by price ascending when asked (final price, checked against D1)', async () => {
    const all = await categories()
    const ids = subtreeIds(all, all.find((c) => c.slug === 'women')?.id ?? 0)
    const docs = (await listedDocs()).filter((d) => d.category_ids.some((id) => ids.has(id)))
    const { html } = await page('/c/women?sort=price-asc')
    const skus = tileSkus(html)
    expect(skus).toHaveLength(24)
    const finals = skus.map((sku) => {
      const d = docs.find((x) => x.sku === sku)
      return d?.final_price ?? d?.price ?? Number.NaN
    })
    expect(finals).toEqual([...finals].sort((a, b) => a - b))
    const cheapest = Math.min(...docs.map((d) => d.final_price ?? d.price))
    expect(finals[0]).toBe(cheapest)
  })

  it('has the title and description from meta_title / meta_description and a canonical without filters', async () => {
    const women = (await categories()).find((c) => c.slug === 'women') as CategoryDoc
    const { html } = await page('/c/women?color=49&sort=price-desc')
    expect(titleOf(html)).toBe(women.meta_title || women.name)
    if (women.meta_description) {
      expect(decodeEntities(html)).toContain(`<meta name="description" content="${women.meta_description}"/>`)
    }
    expect(html).toContain(
      `<link rel="canonical" href="${new URL(env.PUBLIC_ORIGIN).origin}/${women.url_path}"/>`,
    )
    // Filtered listings are not indexed.
    expect(html).toContain('<meta name="robots" content="noindex, follow"/>')
    const unfiltered = await page('/c/women')
    expect(unfiltered.html).not.toContain('name="robots"')
  })

  it('shows the filter panel from the aggregations, with counts', async () => {
    const all = await categories()
    const ids = subtreeIds(all, all.find((c) => c.slug === 'women')?.id ?? 0)
    const docs = (await listedDocs()).filter((d) => d.category_ids.some((id) => ids.has(id)))
    const { html } = await page('/c/women')
    expect(html).toContain('data-filter="color"')
    expect(html).toContain('data-filter="price"')
    // Black (49): products whose colour or variant colours include it.
    const black = docs.filter((d) => d.color === 49 || (d.color_options ?? []).includes(49)).length
    expect(black).toBeGreaterThan(0)
    const m = html.match(/data-attr="color" data-id="49"[^>]*>.*?filter__count">\((?:<!-- -->)?(\d+)/)
    expect(Number(m?.[1])).toBe(black)
    // Price bands carry 'min-max' ids cut from the listing's own prices: several, at most
    // MAX_PRICE_BANDS, each starting where the one before ends, on a price bucket's edge.
    const bands = [...html.matchAll(/data-attr="price" data-id="(\d+-\d*)"/g)].map((m) => m[1] as string)
    expect(bands.length).toBeGreaterThanOrEqual(3)
    expect(bands.length).toBeLessThanOrEqual(MAX_PRICE_BANDS)
    const edges = new Set(PRICE_RANGES.flatMap((r) => [r.from, r.to]))
    const ranges = bands.map((id) => id.split('-').map((x) => (x === '' ? undefined : Number(x))))
    for (const [from, to] of ranges) {
      expect(edges.has(from)).toBe(true)
      expect(edges.has(to)).toBe(true)
    }
    for (let i = 1; i < ranges.length; i++) expect(ranges[i]?.[0]).toBe(ranges[i - 1]?.[1])
  })

  it('applies a colour filter from the URL', async () => {
    const { html } = await page('/c/women?color=49')
    const skus = tileSkus(html)
    expect(skus.length).toBeGreaterThan(0)
    const docs = await listedDocs()
    for (const sku of skus) {
      const d = docs.find((x) => x.sku === sku) as Doc
      expect(d.color === 49 || (d.color_options ?? []).includes(49)).toBe(true)
    }
    expect(html).toMatch(
      /data-attr="color" data-id="49"[^>]*aria-checked="true"|aria-checked="true"[^>]*data-attr="color" data-id="49"/,
    )
  })

  it('shows breadcrumbs with Home linking to / and the active crumb as plain text', async () => {
    const { html } = await page('/c/sarees')
    const crumbs = html.match(/<nav class="breadcrumbs"[\s\S]*?<\/nav>/)?.[0] ?? ''
    expect(crumbs).toContain('<a href="/">Home</a>')
    expect(crumbs).toContain('>Women</a>')
    expect(crumbs).toMatch(/<li aria-current="page">Sarees<\/li>/)
  })

  it('hides international products unless the currency is INR, and prices follow the currency', async () => {
    const inr = await page('/c/women?sort=price-desc')
    const usd = await page('/c/women?sort=price-desc', { headers: { cookie: 'currency=USD' } })
    const docs = await listedDocs()
    const intl = new Set(docs.filter((d) => String(d.international_flag) === '1').map((d) => d.sku))
    expect(tileSkus(usd.html).some((s) => intl.has(s))).toBe(false)
    expect(usd.html).toContain('$')
    expect(usd.html).not.toMatch(/class="price[^"]*">₹/)
    expect(inr.html).toMatch(/class="price[^"]*">₹/)
  })

  it('redirects an unknown category home with the notice flag', async () => {
    const { res } = await page('/c/no-such-category')
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/?notice=category-unavailable')
  })

  it('warns when a category has no products', async () => {
    const { res, html } = await page('/c/bridal-edit')
    expect(res.status).toBe(200)
    expect(html).toContain(MSG.noProductsSynchronized)
  })
})

describe('a listing URL that chooses absurdly many filter values', () => {
  it('answers the page with the first values only, and the shop keeps answering', async () => {
    const values = Array.from({ length: 1100 }, (_, i) => i).join(',')
    const res = await SELF.fetch(`https://shop.test/c/women?color=${values}`)
    expect(res.status).toBe(200)
    await res.text()
    const next = await SELF.fetch('https://shop.test/c/men')
    expect(next.status).toBe(200)
  })

  it('shows, links and searches only the values the filters offer: the page stays the size of a plain one', async () => {
    // Hundreds of colours, Black (49) among them, and a size and a designer no filter offers.
    const colours = [...Array.from({ length: 386 }, (_, i) => i), 99999].join(',')
    const [filtered, colouredOnly, plain] = await Promise.all([
      page(`/c/women?color=${colours}&size=99999&designer=99999`),
      page(`/c/women?color=${colours}`),
      page('/c/women'),
    ])
    expect(filtered.res.status).toBe(200)
    // The unknown size and designer choose nothing: the colours' products are listed.
    expect(tileSkus(filtered.html).length).toBeGreaterThan(0)
    expect(tileSkus(filtered.html)).toEqual(tileSkus(colouredOnly.html))
    // Black is still chosen, and no value the filters do not offer is carried anywhere.
    expect(filtered.html).toMatch(
      /data-attr="color" data-id="49"[^>]*aria-checked="true"|aria-checked="true"[^>]*data-attr="color" data-id="49"/,
    )
    expect(filtered.html).not.toContain('99999')
    expect(filtered.html).not.toMatch(/color=[^"]*\b385\b/)
    // Before: each of the panel's links carried every value (1.8 MB for eight such filters).
    expect(filtered.html.length).toBeLessThan(plain.html.length * 2)
  })
})
