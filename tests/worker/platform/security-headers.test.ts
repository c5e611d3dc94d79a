// Security headers on every route of both specs' route tables (shared/config/routes.ts ROUTES):
// CSP with a per-request nonce and no 'unsafe-inline' script, every inline script carrying that
// nonce, HSTS, nosniff, frame-ancestors / X-Frame-Options, referrer policy — also on cache hits,
// error pages, /api answers and static assets.
import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { ROUTES } from '../../../shared/config/routes'
import { cspNonce, findExecutableMarkup } from '../../helpers/fuzz-html'

const BROWSER = {
  'user-agent':
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36',
}

function directives(csp: string): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const part of csp.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/)
    if (name) out.set(name.toLowerCase(), values)
  }
  return out
}

function expectTransportHeaders(res: Response) {
  const hsts = res.headers.get('strict-transport-security') ?? ''
  expect(hsts).toMatch(/max-age=(\d+)/)
  expect(Number(/max-age=(\d+)/.exec(hsts)?.[1])).toBeGreaterThanOrEqual(15_552_000)
  expect(hsts).toContain('includeSubDomains')
  expect(res.headers.get('x-content-type-options')).toBe('nosniff')
  expect(res.headers.get('referrer-policy')).toMatch(
    /^(strict-origin-when-cross-origin|same-origin|no-referrer)$/,
  )
  expect(res.headers.get('x-frame-options')).toBe('DENY')
}

/** Asserts the page's CSP and that every inline script carries this response's nonce. */
function expectStrictCsp(res: Response, html: string, path: string) {
  const csp = res.headers.get('content-security-policy')
  expect(csp, `${path}: CSP`).toBeTruthy()
  const d = directives(csp as string)
  expect(d.get('frame-ancestors'), path).toEqual(["'none'"])
  expect(d.get('object-src'), path).toEqual(["'none'"])
  expect(d.get('base-uri'), path).toBeDefined()
  const script = d.get('script-src') ?? d.get('default-src') ?? []
  expect(script, `${path}: script-src`).not.toContain("'unsafe-inline'")
  expect(script, `${path}: script-src`).not.toContain("'unsafe-eval'")
  expect(script).not.toContain('*')
  expect(d.get('script-src-attr') ?? [], path).not.toContain("'unsafe-inline'")
  if (path.startsWith('/amp/')) return
  const nonce = cspNonce(csp)
  expect(nonce, `${path}: nonce`).toMatch(/^[A-Za-z0-9+/=_-]{16,}$/)
  expect(findExecutableMarkup(html, nonce), path).toEqual([])
  return nonce
}

describe('security headers on every HTML route', () => {
  for (const route of ROUTES) {
    it(`${route.name} (${route.example})`, async () => {
      const res = await SELF.fetch(`https://shop.test${route.example}`, {
        redirect: 'manual',
        headers: BROWSER,
      })
      expectTransportHeaders(res)
      const html = await res.text()
      const type = res.headers.get('content-type') ?? ''
      if (!type.includes('text/html')) {
        // The raw XML example: no HTML, but still nosniff + a declared type.
        expect(type).toMatch(/xml/)
        return
      }
      expectStrictCsp(res, html, route.example)
    })
  }

  it('uses a fresh nonce per response, also when the page comes from the output cache', async () => {
    // A product page (it opts into the output cache).
    const row = await env.DB.prepare(
      "SELECT sku, slug FROM products WHERE status = 1 AND visibility = 4 AND type_id = 'simple' ORDER BY id LIMIT 1",
    ).first<{ sku: string; slug: string }>()
    const path = `/p/${encodeURIComponent(row?.sku ?? 'x')}/${row?.slug}`
    const nonces = new Set<string>()
    const states: (string | null)[] = []
    const warm = await SELF.fetch(`https://shop.test${path}`, { headers: BROWSER })
    expect(warm.status).toBe(200)
    await warm.arrayBuffer()
    await new Promise((r) => setTimeout(r, 300)) // the cache put runs in waitUntil
    for (let i = 0; i < 3; i++) {
      const res = await SELF.fetch(`https://shop.test${path}`, { headers: BROWSER })
      states.push(res.headers.get('x-cache'))
      const html = await res.text()
      const nonce = expectStrictCsp(res, html, path) as string
      expect(html).toContain(`nonce="${nonce}"`)
      nonces.add(nonce)
    }
    expect(nonces.size).toBe(3)
    // The later answers are output-cache HITs: the nonce swap of the
    // output cache was exercised, and each HIT still got its own nonce.
    expect(states).toContain('HIT')
  })

  it("a page the URL dispatcher rewrites (a product's url_path) keeps the nonce it was rendered with", async () => {
    const row = await env.DB.prepare(
      "SELECT url_path FROM products WHERE status = 1 AND visibility = 4 AND type_id = 'configurable' ORDER BY id LIMIT 1",
    ).first<{ url_path: string }>()
    const path = `/${row?.url_path}`
    for (let i = 0; i < 2; i++) {
      const res = await SELF.fetch(`https://shop.test${path}`, { headers: BROWSER })
      expect(res.status).toBe(200)
      const html = await res.text()
      const nonce = expectStrictCsp(res, html, path) as string
      expect(html).toContain(`nonce="${nonce}"`)
    }
  })

  it('puts the headers on error pages, redirects, /api answers and the dispatcher 404 path', async () => {
    for (const path of ['/definitely/not/here', '/error', '/page-not-found']) {
      const res = await SELF.fetch(`https://shop.test${path}`, { redirect: 'manual', headers: BROWSER })
      expectTransportHeaders(res)
      const body = await res.text()
      if ((res.headers.get('content-type') ?? '').includes('text/html')) expectStrictCsp(res, body, path)
    }
    for (const path of ['/api/stores/all', '/api/nope', '/api/user/me']) {
      const res = await SELF.fetch(`https://shop.test${path}`)
      expectTransportHeaders(res)
      expect(res.headers.get('content-type')).toContain('application/json')
      await res.arrayBuffer()
    }
  })

  it('AMP pages admit only the AMP runtime, still with no unsafe-inline script', async () => {
    const row = await env.DB.prepare(
      "SELECT sku, slug FROM products WHERE status = 1 AND visibility = 4 AND type_id = 'simple' LIMIT 1",
    ).first<{ sku: string; slug: string }>()
    const res = await SELF.fetch(
      `https://shop.test/amp/p/${encodeURIComponent(row?.sku ?? 'x')}/${row?.slug}`,
    )
    expectTransportHeaders(res)
    const csp = res.headers.get('content-security-policy') ?? ''
    const script = directives(csp).get('script-src') ?? []
    expect(script).not.toContain("'unsafe-inline'")
    expect(script.filter((s) => s.startsWith('https:') || s.startsWith('http'))).toEqual([
      'https://cdn.ampproject.org/',
    ])
    await res.arrayBuffer()
  })

  it("lets other sites show the shop's pictures (an order mail read in web mail), and nothing else", async () => {
    const picture = await SELF.fetch('https://shop.test/img/150/150/p/saree-teal.svg', { headers: BROWSER })
    await picture.arrayBuffer()
    expect(picture.status).toBe(200)
    expect(picture.headers.get('content-type')).toMatch(/^image\//)
    expect(picture.headers.get('cross-origin-resource-policy')).toBe('cross-origin')
    expect(picture.headers.get('x-content-type-options')).toBe('nosniff')
    expect(picture.headers.get('content-security-policy')).toBeNull()
    const json = await SELF.fetch('https://shop.test/api/stores/all', { headers: BROWSER })
    await json.arrayBuffer()
    expect(json.headers.get('cross-origin-resource-policy')).toBe('same-origin')
  })

  it('sends the full header set (secure-headers) on pages, AMP, JSON, text and XML; CSP only on HTML', async () => {
    const row = await env.DB.prepare(
      "SELECT sku, slug FROM products WHERE status = 1 AND visibility = 4 AND type_id = 'simple' LIMIT 1",
    ).first<{ sku: string; slug: string }>()
    const paths = {
      page: '/c/women',
      amp: `/amp/p/${encodeURIComponent(row?.sku ?? 'x')}/${row?.slug}`,
      json: '/api/stores/all',
      text: '/robots.txt',
      xml: '/sitemap.xml',
    }
    const csp: Record<string, Map<string, string[]>> = {}
    for (const [kind, path] of Object.entries(paths)) {
      const res = await SELF.fetch(`https://shop.test${path}`, { headers: BROWSER })
      await res.arrayBuffer()
      expect(res.status, path).toBe(200)
      expectTransportHeaders(res)
      expect(res.headers.get('cross-origin-opener-policy'), path).toBe('same-origin')
      expect(res.headers.get('cross-origin-resource-policy'), path).toBe('same-origin')
      expect(res.headers.get('x-permitted-cross-domain-policies'), path).toBe('none')
      expect(res.headers.get('x-dns-prefetch-control'), path).toBe('off')
      expect(res.headers.get('origin-agent-cluster'), path).toBe('?1')
      expect(res.headers.get('x-powered-by'), path).toBeNull()
      const permissions = (res.headers.get('permissions-policy') ?? '').split(/,\s*/).sort()
      expect(permissions, path).toEqual(['camera=()', 'geolocation=()', 'microphone=()', 'payment=(self)'])
      const policy = res.headers.get('content-security-policy')
      if (kind === 'page' || kind === 'amp') csp[kind] = directives(policy ?? '')
      else expect(policy, path).toBeNull()
    }
    const page = csp.page as Map<string, string[]>
    expect([...page.keys()].sort()).toEqual(
      [
        'base-uri',
        'connect-src',
        'default-src',
        'font-src',
        'form-action',
        'frame-ancestors',
        'frame-src',
        'img-src',
        'manifest-src',
        'object-src',
        'script-src',
        'style-src',
        'style-src-attr',
        'worker-src',
      ].sort(),
    )
    // The payment window (Razorpay Standard Checkout) is framed from, and talks to, the configured
    // provider origins only.
    const paymentOrigins = [
      ...new Set([new URL(env.RAZORPAY_CHECKOUT_SCRIPT).origin, new URL(env.RAZORPAY_API_BASE).origin]),
    ]
    expect(page.get('connect-src')).toEqual(["'self'", ...paymentOrigins])
    expect(page.get('frame-src')).toEqual(["'self'", ...paymentOrigins])
    for (const d of ['default-src', 'font-src', 'manifest-src', 'worker-src', 'base-uri', 'form-action'])
      expect(page.get(d), d).toEqual(["'self'"])
    expect(page.get('script-src')?.filter((s) => !s.startsWith("'nonce-"))).toEqual([
      "'strict-dynamic'",
      "'self'",
    ])
    const amp = csp.amp as Map<string, string[]>
    expect(amp.get('script-src')).toEqual(["'self'", 'https://cdn.ampproject.org/'])
    expect(amp.get('default-src')).toEqual(["'self'"])
    expect([...amp.values()].flat().some((s) => s.startsWith("'nonce-"))).toBe(false)
  })
})
