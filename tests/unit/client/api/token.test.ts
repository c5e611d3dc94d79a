// client/api is the one fetch site: the access token leaves the browser only in the
// Authorization header, whichever way a caller hands it over.
import { describe, expect, it } from 'vitest'
import { apiRaw, withoutTokenInUrl } from '../../../../client/api'

function recorder() {
  const seen: { url: string; authorization: string | null }[] = []
  const fetchFn = (async (input: string, init?: RequestInit) => {
    seen.push({ url: String(input), authorization: new Headers(init?.headers).get('authorization') })
    return new Response('{"code":200,"result":true}', { headers: { 'content-type': 'application/json' } })
  }) as typeof fetch
  return { seen, fetchFn }
}

describe('the access token in requests', () => {
  it('is sent as a Bearer header, from `token`, a `token` query value or a token already in the path', async () => {
    const { seen, fetchFn } = recorder()
    await apiRaw('user/me', { token: 'eyJ.a.b', fetch: fetchFn })
    await apiRaw('wishlist/show-wishlist-history', { query: { token: 'eyJ.c.d' }, body: {}, fetch: fetchFn })
    await apiRaw('order/get', { query: { orderId: '7', token: 'eyJ.e.f', accessKey: 'k' }, fetch: fetchFn })
    await apiRaw('/api/user/order-history?token=eyJ.g.h&pageSize=20', { fetch: fetchFn })
    expect(seen).toEqual([
      { url: '/api/user/me', authorization: 'Bearer eyJ.a.b' },
      { url: '/api/wishlist/show-wishlist-history', authorization: 'Bearer eyJ.c.d' },
      { url: '/api/order/get?orderId=7&accessKey=k', authorization: 'Bearer eyJ.e.f' },
      { url: '/api/user/order-history?pageSize=20', authorization: 'Bearer eyJ.g.h' },
    ])
  })

  it('a guest call (no token, empty or undefined token) carries no header and no token parameter', async () => {
    const { seen, fetchFn } = recorder()
    await apiRaw('/api/cart/create?token=', { method: 'POST', fetch: fetchFn })
    await apiRaw('order/get', { query: { orderId: '7', token: undefined }, fetch: fetchFn })
    await apiRaw('cart/pull', { query: { cartId: 'c', token: '' }, token: null, fetch: fetchFn })
    expect(seen).toEqual([
      { url: '/api/cart/create', authorization: null },
      { url: '/api/order/get?orderId=7', authorization: null },
      { url: '/api/cart/pull?cartId=c', authorization: null },
    ])
  })

  it('an explicit token wins over one left in the URL, which is dropped either way', () => {
    expect(withoutTokenInUrl('/api/user/me?token=old', undefined, 'new')).toEqual({
      url: '/api/user/me',
      token: 'new',
    })
    expect(withoutTokenInUrl('/api/catalog/search', { request: '{"q":"token=1"}' })).toEqual({
      url: '/api/catalog/search?request=%7B%22q%22%3A%22token%3D1%22%7D',
      token: null,
    })
  })
})
