// The back-office pages: each renders for an operator (escaped, noindex) and each form works
// without script — the fields a browser sends (text, empty optional fields, an unchecked box
// sent as its hidden "false") reach the same rules as the JSON API.
import { env, SELF } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { SCARF, seedCartFixtures, stockOf } from '../../helpers/cart-fixtures'
import { admin, operator, type Session } from './operator'

beforeEach(seedCartFixtures)

function post(who: Session, path: string, fields: [string, string][]) {
  const body = new URLSearchParams([['_csrf', who.csrf], ['return_to', '/admin/operations'], ...fields])
  return SELF.fetch(`https://shop.test/admin${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: who.cookie },
    body,
  })
}

describe('pages', () => {
  it('renders every page for a viewer', async () => {
    const viewer = await operator('viewer')
    const page = await env.DB.prepare('SELECT id FROM cms_pages LIMIT 1').first<{ id: number }>()
    for (const path of [
      '',
      '/orders',
      '/reviews',
      `/products?q=${SCARF.sku}`,
      '/customers?email=nobody%40example.com',
      '/coupons',
      '/content',
      `/content/page/${page?.id}`,
      '/operations',
      '/audit',
      '/home',
      '/operators',
      '/orders?q=%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E',
    ]) {
      const res = await admin(viewer, path)
      expect(res.status, path).toBe(200)
      expect(res.headers.get('content-type'), path).toMatch(/^text\/html/)
      expect(res.text, path).toMatch(/^<!DOCTYPE html>/i)
      expect(res.text, path).toMatch(/<meta name="robots" content="noindex,nofollow"\/?>/)
      // What the operator typed comes back as text, never as markup.
      expect(res.text, path).not.toContain('<script>alert(1)')
    }
  })

  it('applies the product, stock, coupon and redirect forms as sent by a browser', async () => {
    const owner = await operator('owner')
    const product = await post(owner, `/api/products/${SCARF.id}/form`, [
      ['price', '1500'],
      ['special_price', ''],
      ['special_from_date', ''],
      ['status', '1'],
      ['visibility', '4'],
    ])
    expect(product.status, await product.text()).toBe(303)
    const row = await env.DB.prepare('SELECT price FROM products WHERE id = ?')
      .bind(SCARF.id)
      .first<{ price: number }>()
    expect(row?.price).toBe(1500)
    expect((await post(owner, `/api/products/${SCARF.id}/form`, [['price', '1e3']])).status).toBe(400)

    const stock = await post(owner, `/api/stock/${SCARF.sku}`, [
      ['qty', '7'],
      ['is_in_stock', 'false'],
    ])
    expect(stock.status).toBe(303)
    expect(await stockOf(SCARF.sku)).toBe(7)
    const flag = await env.DB.prepare('SELECT is_in_stock FROM inventory WHERE sku = ?')
      .bind(SCARF.sku)
      .first<{ is_in_stock: number }>()
    expect(flag?.is_in_stock).toBe(0)

    const code = `FORM${Date.now().toString(36).toUpperCase()}`
    const coupon = await post(owner, '/api/coupons', [
      ['code', code],
      ['kind', 'fixed'],
      ['amount', '250'],
      ['min_subtotal', '0'],
      ['starts_at', ''],
      ['label', 'Form coupon'],
      ['per_customer_limit', ''],
      ['total_limit', '5'],
    ])
    expect(coupon.status, await coupon.text()).toBe(303)
    const saved = await env.DB.prepare(
      'SELECT total_limit, per_customer_limit, is_active FROM coupons WHERE code = ?',
    )
      .bind(code)
      .first()
    expect(saved).toEqual({ total_limit: 5, per_customer_limit: null, is_active: 1 })

    const path = `form-old-${Date.now()}`
    expect(
      (
        await post(owner, '/api/urls/form', [
          ['path', path],
          ['to', '/c/sale'],
        ])
      ).status,
    ).toBe(303)
    expect(await env.URL_MAPPINGS.get(path, 'json')).toEqual({ type: 'redirect', to: '/c/sale', status: 301 })
    expect(
      (
        await post(owner, '/api/urls/form', [
          ['path', path],
          ['to', 'https://evil.test/'],
        ])
      ).status,
    ).toBe(400)
    // Redirects are listed on the operations screen and deleted from it.
    const listed = await admin(owner, '/operations')
    expect(listed.text).toContain(`<td>/${path}</td><td>/c/sale (for good)</td>`)
    expect((await SELF.fetch(`https://shop.test/${path}`, { redirect: 'manual' })).status).toBe(301)
    expect((await post(owner, '/api/urls/delete', [['path', path]])).status).toBe(303)
    expect(await env.URL_MAPPINGS.get(path)).toBeNull()
    expect((await admin(owner, '/operations')).text).not.toContain(`<td>/${path}</td>`)
    const after = await SELF.fetch(`https://shop.test/${path}`, { redirect: 'manual' })
    expect(after.headers.get('location') ?? '').not.toContain('/c/sale')
  })
})
