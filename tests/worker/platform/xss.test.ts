// Reflected and stored XSS probes: search, slugs, query strings, CMS content, reviews, customer
// names and addresses. Every HTML answer is scanned for executable markup (a <script> without the
// response's CSP nonce, an on*= handler, a javascript: URL); API answers that carry user input
// must be JSON (never HTML, always nosniff).
import { env, SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { cspNonce, findExecutableMarkup } from '../../helpers/fuzz-html'
import { orderBody } from '../../helpers/orders'
import { api, freshIp, registerAndLogin } from '../../helpers/user'

vi.spyOn(console, 'error').mockImplementation(() => {})

const PAYLOADS = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "'><svg onload=alert(1)>",
  'javascript:alert(1)',
  '</script><script>alert(1)</script>',
  '<a href="javascript:alert(1)">x</a>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '{{constructor.constructor("alert(1)")()}}',
  '\u2028\u2029</title><script>alert(1)</script>',
  '<!--<script>-->alert(1)',
]

// A desktop browser and a bot (bots get the complete document after every Suspense boundary).
const AGENTS = {
  browser:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36',
  bot: 'Googlebot/2.1 (+http://www.google.com/bot.html)',
}

async function scanPage(path: string, agent: keyof typeof AGENTS = 'browser') {
  const res = await SELF.fetch(`https://shop.test${path}`, {
    redirect: 'manual',
    headers: { 'user-agent': AGENTS[agent] },
  })
  const body = await res.text()
  expect(res.status, path).toBeLessThan(500)
  const type = res.headers.get('content-type') ?? ''
  if (type.includes('text/html')) {
    const findings = findExecutableMarkup(body, cspNonce(res.headers.get('content-security-policy')))
    expect(findings, `${path} (${agent})`).toEqual([])
  } else if (res.status >= 300 && res.status < 400) {
    // A redirect target must stay on this site.
    const location = res.headers.get('location') ?? ''
    expect(new URL(location, 'https://shop.test').origin, path).toBe('https://shop.test')
  }
  return { res, body }
}

let product: { id: number; sku: string; slug: string }

beforeAll(async () => {
  const row = await env.DB.prepare(
    "SELECT id, sku, slug FROM products WHERE status = 1 AND visibility = 4 AND type_id = 'simple' ORDER BY id LIMIT 1",
  ).first<{ id: number; sku: string; slug: string }>()
  if (!row) throw new Error('no product in the seeded catalogue')
  product = row
})

describe('reflected XSS', () => {
  it('search (/search?q=) escapes the query everywhere it is echoed', async () => {
    for (const p of PAYLOADS) {
      const { body } = await scanPage(`/search?q=${encodeURIComponent(p)}`)
      expect(body).not.toContain('<script>alert(1)')
    }
    await scanPage(`/search?q=${encodeURIComponent(PAYLOADS[1] as string)}`, 'bot')
  })

  it('slugs and path segments of category, product, CMS, store and AMP routes', async () => {
    const paths = (p: string) => {
      const e = encodeURIComponent(p)
      return [
        `/c/${e}`,
        `/p/${e}/x`,
        `/p/${encodeURIComponent(product.sku)}/${e}`,
        `/p/${encodeURIComponent(product.sku)}/${product.slug}/${e}`,
        `/i/${e}`,
        `/store-locator/${e}`,
        `/amp/c/${e}`,
        `/amp/p/${e}/x`,
        `/my-account/orders/${e}`,
        `/${e}`,
        `/women/${e}.html`,
      ]
    }
    for (const p of PAYLOADS.slice(0, 6)) for (const path of paths(p)) await scanPage(path)
  })

  it('query strings of listing, cart, checkout and confirmation pages', async () => {
    const e = encodeURIComponent(PAYLOADS[1] as string)
    for (const path of [
      `/c/women?color=${e}&sort=${e}&page=${e}`,
      `/c/women?${e}=1`,
      `/checkout?step=${e}`,
      `/confirmation?orderId=${e}&accessKey=${e}`,
      `/cart?coupon=${e}`,
      `/?resetPassword=1&email=${e}&resetToken=${e}`,
      `/contact?subject=${e}`,
    ]) {
      await scanPage(path)
      await scanPage(path, 'bot')
    }
  })

  it('a hostile x-request-id or cookie never reaches the page', async () => {
    const res = await SELF.fetch('https://shop.test/definitely/not/here/either', {
      redirect: 'manual',
      headers: {
        'x-request-id': '"><script>alert(1)</script>',
        cookie: 'currency="><script>alert(1)</script>; country=<img src=x onerror=1>',
      },
    })
    expect(res.headers.get('x-request-id')).not.toContain('<')
    await res.arrayBuffer()
    const page = await SELF.fetch('https://shop.test/error', {
      headers: { cookie: 'currency="><script>alert(1)</script>', 'x-request-id': '<svg onload=1>' },
    })
    const html = await page.text()
    expect(findExecutableMarkup(html, cspNonce(page.headers.get('content-security-policy')))).toEqual([])
    expect(html).not.toContain('<svg onload')
  })

  it('generated images never carry markup from the URL', async () => {
    for (const p of PAYLOADS.slice(0, 3)) {
      const res = await SELF.fetch(`https://shop.test/img/600/744/b/cat-${encodeURIComponent(p)}.svg`)
      const body = await res.text()
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      if (res.status === 200) expect(body).not.toMatch(/<script|\son\w+=|javascript:/i)
    }
  })
})

describe('stored XSS', () => {
  it('CMS page content and title are sanitized on /i/<identifier>', async () => {
    const content = PAYLOADS.join('\n<p>text</p>\n')
    const doc = {
      id: 9801,
      identifier: 'sec-probe',
      title: '<script>alert("title")</script>Probe',
      content,
      meta_title: '"><script>alert(1)</script>',
      meta_description: '"><img src=x onerror=alert(1)>',
      is_active: true,
    }
    await env.DB.prepare(
      "INSERT OR REPLACE INTO cms_pages (id, identifier, store_id, is_active, doc) VALUES (9801, 'sec-probe', 0, 1, ?)",
    )
      .bind(JSON.stringify(doc))
      .run()
    for (const agent of ['browser', 'bot'] as const) {
      const { res, body } = await scanPage('/i/sec-probe', agent)
      expect(res.status).toBe(200)
      expect(body).toContain('Probe')
      expect(body).not.toContain('alert("title")</script>')
    }
  })

  it('review title, detail and nickname render escaped on the product page once approved', async () => {
    const created = await api('/review/create', {
      ip: freshIp(),
      body: {
        review: {
          product_id: product.id,
          title: PAYLOADS[0],
          detail: PAYLOADS.join(' '),
          nickname: PAYLOADS[1],
          review_entity: 'product',
        },
      },
    })
    expect(created.status).toBe(200)
    expect(created.headers.get('content-type')).toContain('application/json')
    const id = created.json.result.id as number
    await env.DB.prepare(
      "UPDATE reviews SET review_status = 1, doc = json_set(doc, '$.review_status', 1) WHERE id = ?",
    )
      .bind(id)
      .run()
    for (const agent of ['bot', 'browser'] as const) {
      const { res, body } = await scanPage(
        `/p/${encodeURIComponent(product.sku)}/${product.slug}?probe=${agent}`,
        agent,
      )
      expect(res.status).toBe(200)
      // The review is there (escaped), so the probe did reach the page.
      expect(body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    }
  })

  it("customer names and addresses come back only as JSON, and never in another page's HTML", async () => {
    const user = await registerAndLogin('xss')
    const evil = PAYLOADS[1] as string
    const address = {
      firstname: evil,
      lastname: PAYLOADS[0],
      street: [PAYLOADS[3], PAYLOADS[4]],
      city: PAYLOADS[5],
      postcode: '560001',
      country_id: 'IN',
      telephone: '9876543210',
      region: { region: PAYLOADS[6], region_code: 'KA', region_id: 0 },
    }
    const updated = await api('/user/me', {
      bearer: user.token,
      body: { customer: { email: user.email, firstname: evil, lastname: PAYLOADS[0], addresses: [address] } },
    })
    expect(updated.status, JSON.stringify(updated.json)).toBe(200)
    for (const path of ['/user/me', '/user/order-history']) {
      const res = await SELF.fetch(`https://shop.test/api${path}`, {
        headers: { authorization: `Bearer ${user.token}` },
      })
      expect(res.headers.get('content-type')).toMatch(/^application\/json/)
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('content-security-policy')).toBeNull()
      const json = (await res.json()) as { code: number }
      expect(json.code).toBe(200)
    }
    // Guest order with the hostile address: the order API answers JSON; pages render no user data.
    const order = await api('/order', {
      body: orderBody(`xss-${Date.now()}`, [{ sku: product.sku, qty: 1, price: 1 }], {
        ...address,
        region: PAYLOADS[6],
        email: 'xss@example.com',
      }),
    })
    expect(order.headers.get('content-type')).toContain('application/json')
    expect(order.status, JSON.stringify(order.json)).toBe(200)
    {
      const r = order.json.result
      const got = await SELF.fetch(
        `https://shop.test/api/order/get?orderId=${encodeURIComponent(r.orderNumber)}&accessKey=${encodeURIComponent(r.accessKey)}`,
      )
      expect(got.headers.get('content-type')).toMatch(/^application\/json/)
      await got.arrayBuffer()
      await scanPage(`/confirmation?orderId=${r.orderNumber}&accessKey=${r.accessKey}`)
    }
    for (const path of ['/my-account', '/my-account/address-book', '/my-account/orders', '/checkout']) {
      const res = await SELF.fetch(`https://shop.test${path}`, {
        headers: { cookie: `token=${user.token}`, authorization: `Bearer ${user.token}` },
      })
      const html = await res.text()
      expect(findExecutableMarkup(html, cspNonce(res.headers.get('content-security-policy'))), path).toEqual(
        [],
      )
    }
  })
})
