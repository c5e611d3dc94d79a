import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { PAGE_TEXT } from '../../../shared/i18n/messages'
import { decodeEntities } from '../../helpers/html'

interface Doc {
  id: number
  sku: string
  slug: string
  type_id: string
  visibility: number
  status: number
}

async function page(doc: Doc): Promise<string> {
  const res = await SELF.fetch(`https://shop.test/p/${doc.sku}/${doc.slug}`)
  expect(res.status).toBe(200)
  return decodeEntities(await res.text())
}

function productLd(html: string): Record<string, unknown> {
  for (const m of html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)) {
    const ld = JSON.parse(m[1] ?? '{}') as Record<string, unknown>
    if (ld['@type'] === 'Product') return ld
  }
  throw new Error('no Product JSON-LD')
}

/** Approved reviews' stars per product straight from D1 (each review's first rating). */
async function starsByProduct(): Promise<Map<number, number[]>> {
  const rows = await env.DB.prepare('SELECT product_id, doc FROM reviews WHERE review_status = 1').all<{
    product_id: number
    doc: string
  }>()
  const out = new Map<number, number[]>()
  for (const r of rows.results) {
    const value = (JSON.parse(r.doc) as { ratings?: Array<{ value: number }> }).ratings?.[0]?.value
    if (typeof value === 'number') out.set(r.product_id, [...(out.get(r.product_id) ?? []), value])
  }
  return out
}

async function visibleDocs(): Promise<Doc[]> {
  const rows = await env.DB.prepare(
    "SELECT doc FROM products WHERE json_extract(doc, '$.status') < 2 AND json_extract(doc, '$.visibility') > 1",
  ).all<{ doc: string }>()
  return rows.results.map((r) => JSON.parse(r.doc) as Doc)
}

describe('product page sections', () => {
  it('puts description, fabric and care, and shipping in native disclosures, and shows no placeholder rows', async () => {
    const doc = (await visibleDocs()).find((d) => d.type_id === 'configurable') as Doc
    const html = await page(doc)
    expect(html).toMatch(
      /<details class="accordion" open="" data-testid="accordion-description"><summary>Description<svg aria-hidden="true"[^>]*><use href="#icon-chevron-down"><\/use><\/svg><\/summary>/,
    )
    // The open/closed mark is the sprite's chevron, hidden from assistive technology: the title names it.
    expect(html).toContain(`<summary>${PAGE_TEXT.shippingReturnsTitle}<svg aria-hidden="true"`)
    expect(html).not.toMatch(/<dd>N\/A<\/dd>/)
  })

  it('gives the average of the approved reviews as stars on the page and as aggregateRating', async () => {
    const stars = await starsByProduct()
    const docs = await visibleDocs()
    const rated = docs.find((d) => (stars.get(d.id)?.length ?? 0) >= 2) ?? docs.find((d) => stars.has(d.id))
    expect(rated, 'a reviewed product').toBeTruthy()
    const values = stars.get((rated as Doc).id) as number[]
    const average = Math.round((values.reduce((s, v) => s + v, 0) / values.length) * 10) / 10
    const html = await page(rated as Doc)
    expect(productLd(html).aggregateRating).toEqual({
      '@type': 'AggregateRating',
      ratingValue: average,
      reviewCount: values.length,
      bestRating: 5,
      worstRating: 1,
    })
    expect(html).toContain(`data-testid="rating" data-average="${average}"`)
    expect(html).toContain(`Rated ${average.toFixed(1)} out of 5 by ${values.length}`)

    const unrated = docs.find((d) => !stars.has(d.id)) as Doc
    const plain = await page(unrated)
    expect(productLd(plain).aggregateRating).toBeUndefined()
    expect(plain).not.toContain('data-testid="rating"')
  })

  it('offers "Notify me" on an out-of-stock simple product', async () => {
    const out = await env.DB.prepare(
      "SELECT p.doc FROM products p JOIN inventory i ON i.sku = p.sku WHERE i.qty = 0 AND json_extract(p.doc, '$.type_id') = 'simple' AND json_extract(p.doc, '$.visibility') > 1 AND json_extract(p.doc, '$.status') < 2 LIMIT 1",
    ).first<{ doc: string }>()
    expect(out).toBeTruthy()
    const html = await page(JSON.parse(out?.doc ?? '{}') as Doc)
    expect(html.match(/data-testid="product-form"[\s\S]{0,1500}/)?.[0]).toContain('data-testid="notify-me"')
  })
})
