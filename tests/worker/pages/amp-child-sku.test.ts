// The AMP product page follows the product page's URL rule (real D1 and Cache API, the demo
// catalogue): a last path part that is not one of the product's variants answers a redirect to the
// AMP page with no variant, which is rendered and cached once, never a render of its own; a
// `?childSku=` is not read by the AMP page, so it is that same cached page; a variant's sku used as
// the parent sku goes to the parent's AMP page with the variant.
import { ampProductPath, productPath } from '@shared/config/links'
import { describe, expect, it } from 'vitest'
import { get, productOf } from './demo-products'

describe('an AMP product URL naming a variant the product does not have', () => {
  it('answers each junk spelling with a redirect to the AMP page, which renders once', async () => {
    for (const type of ['simple', 'configurable'] as const) {
      const { sku, slug } = await productOf(type)
      const path = ampProductPath(sku, slug)
      const plain = await get(path)
      expect(plain.status, `${type} ${path}`).toBe(200)
      await plain.text()
      for (const junk of [`${path}/junk-1`, `${path}/junk-2`]) {
        const res = await get(junk)
        expect(res.status, `${type} ${junk}`).toBe(301)
        expect(res.headers.get('location'), junk).toBe(path)
        expect(await res.text(), junk).toBe('')
      }
      // The query's childSku is no parameter of the AMP page: the same cached page.
      const query = await get(`${path}?childSku=junk-3`)
      expect(query.status).toBe(200)
      expect(query.headers.get('x-cache'), type).toBe('HIT')
      await query.text()
      // Where the redirects land: the one cached page.
      const again = await get(path)
      expect(again.headers.get('x-cache'), type).toBe('HIT')
      await again.text()
    }
  })

  it("sends a variant's sku used as the parent to the parent's AMP page with the variant, and shows it there", async () => {
    const { sku, slug, variant } = await productOf('configurable')
    expect(variant).toBeDefined()
    const res = await get(`/amp/p/${encodeURIComponent(variant!)}/${slug}`)
    expect(res.status).toBe(301)
    expect(res.headers.get('location')).toBe(ampProductPath(sku, slug, variant))
    await res.text()
    const page = await get(ampProductPath(sku, slug, variant))
    expect(page.status).toBe(200)
    // Its links to the full page name the variant.
    expect(await page.text()).toContain(`${productPath(sku, slug, variant)}"`)
  })
})
