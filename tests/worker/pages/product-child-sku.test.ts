// A product URL naming a variant the product does not have (`?childSku=<junk>` or a junk last path
// part) is the product page with no variant: each spelling answers a redirect to that page, which is
// rendered and cached once, never a render of its own (real D1 and Cache API, the demo catalogue).
import { describe, expect, it } from 'vitest'
import { get, productOf } from './demo-products'

describe('a product URL with a childSku that is not a variant', () => {
  it('answers each junk spelling with a redirect to the product page, which renders once', async () => {
    for (const type of ['simple', 'configurable'] as const) {
      const { path } = await productOf(type)
      const plain = await get(path)
      expect(plain.status).toBe(200)
      await plain.text()
      for (const junk of [`${path}?childSku=junk-1`, `${path}?childSku=junk-2`, `${path}/junk-3`]) {
        const res = await get(junk)
        expect(res.status, `${type} ${junk}`).toBe(301)
        expect(res.headers.get('location'), junk).toBe(path)
        expect(await res.text(), junk).toBe('')
      }
      // Where they all land: the one cached page.
      const again = await get(path)
      expect(again.headers.get('x-cache'), type).toBe('HIT')
      await again.text()
    }
  })

  it('still shows a real variant on its own page', async () => {
    const { path, variant } = await productOf('configurable')
    expect(variant).toBeDefined()
    const res = await get(`${path}?childSku=${encodeURIComponent(variant!)}`)
    expect(res.status).toBe(200)
    expect(await res.text()).toContain(variant!)
  })
})
