// D1 sessions: where each request's reads start, the bookmark of a write handed back (never on a
// GET, so cached pages stay cookie-free), a shopper's next request reading its own write from that
// bookmark, and forged or stale bookmarks never breaking a page.
import { SELF } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { BOOKMARK_HEADER, sessionStart } from '../../../worker/platform/middleware/d1-session'
import { seedCartFixtures } from '../../helpers/cart-fixtures'
import { api } from '../../helpers/user'

beforeEach(seedCartFixtures)

describe('where reads start', () => {
  it('catalogue near the shopper, money and personal data at the primary, a carried bookmark first', () => {
    expect(sessionStart('/c/sarees', undefined)).toBe('first-unconstrained')
    expect(sessionStart('/p/SAR1/x', undefined)).toBe('first-unconstrained')
    expect(sessionStart('/api/catalog/vue_storefront_catalog/product/_search', undefined)).toBe(
      'first-unconstrained',
    )
    for (const path of [
      '/api/cart/pull',
      '/api/order',
      '/api/user/me',
      '/checkout',
      '/my-account/orders',
      '/admin/orders',
      '/order/000000012',
      '/cart',
    ])
      expect(sessionStart(path, undefined), path).toBe('first-primary')
    expect(sessionStart('/api/cartographer', undefined)).toBe('first-unconstrained')
    expect(sessionStart('/c/sarees', '0000001a-00000002-00004f6e-1b2c')).toBe(
      '0000001a-00000002-00004f6e-1b2c',
    )
    // Something that cannot be a bookmark (a cookie separator, or far too long) is ignored.
    expect(sessionStart('/api/cart/pull', 'x; Path=/')).toBe('first-primary')
    expect(sessionStart('/c/sarees', 'a'.repeat(500))).toBe('first-unconstrained')
  })
})

describe('bookmarks', () => {
  it('a write hands back its bookmark, and the next request that carries it reads the write', async () => {
    const created = await SELF.fetch('https://shop.test/api/cart/create', { method: 'POST' })
    expect(created.status).toBe(200)
    const cartId = ((await created.json()) as { result: string }).result
    const add = await SELF.fetch(`https://shop.test/api/cart/update?cartId=${cartId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ cartItem: { sku: 'FX-SCARF', qty: 1 } }),
    })
    expect(add.status).toBe(200)
    const bookmark = add.headers.get(BOOKMARK_HEADER)
    expect(bookmark).toBeTruthy()
    expect(add.headers.get('set-cookie')).toMatch(
      /^d1b=[^;]+; Max-Age=300; Path=\/; HttpOnly; Secure; SameSite=Lax/,
    )
    const pull = await SELF.fetch(`https://shop.test/api/cart/pull?cartId=${cartId}`, {
      headers: { [BOOKMARK_HEADER]: bookmark as string },
    })
    expect(pull.status).toBe(200)
    const items = ((await pull.json()) as { result: { sku: string }[] }).result
    expect(items.map((i) => i.sku)).toContain('FX-SCARF')
    // The same through the cookie the browser keeps.
    const viaCookie = await SELF.fetch(`https://shop.test/api/cart/pull?cartId=${cartId}`, {
      headers: { cookie: `d1b=${bookmark}` },
    })
    expect(((await viaCookie.json()) as { result: { sku: string }[] }).result.map((i) => i.sku)).toContain(
      'FX-SCARF',
    )
  })

  it('never sets the bookmark on a GET, so catalogue pages stay cacheable', async () => {
    for (const path of ['/', '/c/sarees', '/api/catalog/vue_storefront_catalog/product/_search?size=1']) {
      const res = await SELF.fetch(`https://shop.test${path}`)
      expect(res.headers.get(BOOKMARK_HEADER), path).toBeNull()
      expect(res.headers.get('set-cookie') ?? '', path).not.toMatch(/d1b=/)
    }
  })

  it('a forged or unknown bookmark never breaks a page or an API call', async () => {
    for (const bookmark of ['0000001a-00000002-00004f6e-1b2c', 'not-a-bookmark', 'zzzz']) {
      const page = await SELF.fetch('https://shop.test/c/sarees', {
        headers: { [BOOKMARK_HEADER]: bookmark },
      })
      expect(page.status, bookmark).toBe(200)
      const res = await api('/cart/create', { method: 'POST', headers: { [BOOKMARK_HEADER]: bookmark } })
      expect(res.status, bookmark).toBe(200)
    }
  })
})
