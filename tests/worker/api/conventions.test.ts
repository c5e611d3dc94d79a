// The one convention of every /api area: bodies read as JSON whatever their declared type (empty
// = {}), one message for unparseable JSON, validation failures as a 400 envelope naming the field.
import { describe, expect, it } from 'vitest'
import { api, freshIp, registerAndLogin } from '../../helpers/user'

describe('request bodies', () => {
  it('refuses a body nested deeper than the limit before parsing it, naming the limit', async () => {
    // A megabyte of '[' (500,000 levels) took a second of parsing before it was refused.
    const deep = `${'['.repeat(500_000)}${']'.repeat(500_000)}`
    for (const path of ['/misc/otw-data', '/user/login']) {
      const res = await api(path, { rawBody: deep, ip: freshIp() })
      expect(res.status, path).toBe(400)
      expect(res.json, path).toMatchObject({ result: 'Invalid request body: nested deeper than 64 levels' })
    }
    // Brackets inside strings are text, not nesting; 64 levels still parse (and are then validated).
    const inString = await api('/misc/otw-data', { rawBody: JSON.stringify({ title: '['.repeat(1000) }) })
    expect(JSON.stringify(inString.json)).not.toContain('nested deeper')
    const levels64 = await api('/misc/otw-data', { rawBody: `${'['.repeat(64)}${']'.repeat(64)}` })
    expect(levels64.status).toBe(400)
    expect(JSON.stringify(levels64.json)).not.toContain('nested deeper')
  })

  it('answers unparseable JSON with the same 400 message in every area', async () => {
    for (const path of ['/user/login', '/review/create', '/url/map', '/ext/mailchimp-subscribe/subscribe']) {
      const res = await api(path, { rawBody: '{"a":', ip: freshIp() })
      expect(res.status, path).toBe(400)
      expect(res.json, path).toMatchObject({ code: 400, result: 'Invalid request body: malformed JSON' })
    }
    const order = await api('/order', { rawBody: '{', ip: freshIp() })
    expect(order.json).toMatchObject({ code: 400, result: 'Invalid order: malformed JSON' })
  })

  it('reads an empty body as {} and a JSON body sent as text/plain as JSON', async () => {
    const empty = await api('/misc/otw-data', { rawBody: '' })
    expect(empty.status).toBe(200)
    const user = await registerAndLogin('conventions')
    const asText = await api('/user/login', {
      rawBody: JSON.stringify({ username: user.email, password: 'Secret123' }),
      headers: { 'content-type': 'text/plain' },
      ip: freshIp(),
    })
    expect(asText.status).toBe(200)
    expect(typeof asText.json.result).toBe('string')
  })

  it('names the field a body, query or path parameter got wrong', async () => {
    const body = await api('/user/reset-password', { body: { email: 'not-an-email' }, ip: freshIp() })
    expect(body.status).toBe(400)
    expect(body.json.result).toBe('Invalid request body: email: email is not a valid e-mail address')
    const query = await api('/stock/list')
    expect(query.json).toMatchObject({ code: 400, result: 'Invalid query: skus: Missing skus' })
    const cart = (await api('/cart/create', { method: 'POST' })).json.result
    const coupon = await api(`/cart/apply-coupon?cartId=${cart}&coupon=${'x'.repeat(65)}`, { method: 'POST' })
    expect(coupon.json).toMatchObject({
      code: 400,
      result: 'Invalid query: coupon: coupon is at most 64 characters',
    })
    const path = await api('/ext/cms-data/cmsPage/abc')
    expect(path.json).toMatchObject({ code: 400, result: 'Invalid CMS id: id: id must be a number' })
  })

  it('checks who is calling before it reads the body', async () => {
    const wishlist = await api('/wishlist/add-wishlist', { rawBody: '{' })
    expect(wishlist.status).toBe(401)
    const cart = await api('/cart/update?cartId=nope', { rawBody: '{' })
    expect(cart.json).toMatchObject({ code: 400, result: 'cartId is not a valid cart id' })
  })
})

describe('a skus query parameter (stock list and render-list share one rule)', () => {
  it('refuses too many skus, an over-long sku and blank lists with a 400 naming the limit', async () => {
    const many = Array.from({ length: 5000 }, (_, i) => `S${i}`).join(',')
    for (const path of ['/stock/list', '/product/render-list']) {
      const tooMany = await api(`${path}?skus=${many}`)
      expect(tooMany.status, path).toBe(400)
      expect(String(tooMany.json.result), path).toMatch(/At most \d+ skus per request/)
      const tooLong = await api(`${path}?skus=${'x'.repeat(129)}`)
      expect(tooLong.json, path).toMatchObject({
        code: 400,
        result: 'Invalid query: skus.0: sku is too long',
      })
      const blank = await api(`${path}?skus=${encodeURIComponent(' , ,, ')}`)
      expect(blank.json, path).toMatchObject({ code: 400, result: 'Invalid query: skus: Missing skus' })
    }
  })

  it('reads glob, LIKE and regex characters as plain sku text (an ordinary 200, no error)', async () => {
    for (const path of ['/stock/list', '/product/render-list']) {
      const res = await api(`${path}?skus=${encodeURIComponent('*,.*,%,_,[a-z]+,(?:x)')}`)
      expect(res.status, path).toBe(200)
      expect(res.json.code, path).toBe(200)
    }
  })
})
