import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { RESOURCE_ROUTES, ROUTES } from '../../../shared/config/routes'
import { layoutOf, titleOf } from '../../helpers/html'

const EXPECTED_STATUS: Record<string, number> = { 'page-not-found': 404 }
const ENTITY_ROUTES = [
  'category',
  'product',
  'cms-page',
  'individual-store',
  'ode-to',
  'amp-product',
  'amp-category',
  'amp-cms-page',
]

describe('route tables of both specs', () => {
  for (const route of ROUTES) {
    it(`${route.name} (${route.example}) answers with its layout and a title`, async () => {
      const res = await SELF.fetch(`https://shop.test${route.example}`, { redirect: 'manual' })
      // Catalogue pages whose entity does not exist may redirect; every other row renders.
      if (res.status === 302) {
        expect(ENTITY_ROUTES).toContain(route.name)
        return
      }
      // ...or answer 404 with a page that shows the spec's empty-result message.
      const missingEntity = res.status === 404 && ENTITY_ROUTES.includes(route.name)
      expect(res.status).toBe(missingEntity ? 404 : (EXPECTED_STATUS[route.name] ?? 200))
      const type = res.headers.get('content-type') ?? ''
      const body = await res.text()
      if (route.name === 'raw-output') {
        expect(type).toContain('application/xml')
        expect(body.startsWith('<?xml')).toBe(true)
        return
      }
      expect(type).toContain('text/html')
      expect(layoutOf(body)).toBe(route.layout)
      const title = titleOf(body)
      expect(title).toBeTruthy()
      if (route.title) expect(title).toBe(route.title)
    })
  }
})

describe('resource routes of the table', () => {
  for (const route of RESOURCE_ROUTES) {
    it(`${route.name} (${route.example}) answers ${route.contentType}, not the dispatcher`, async () => {
      const res = await SELF.fetch(`https://shop.test${route.example}`, { redirect: 'manual' })
      expect(res.status).not.toBe(302)
      expect(res.status).toBeLessThan(500)
      expect(res.headers.get('content-type') ?? '').toContain(route.contentType)
    })
  }
})

describe('the pages sitemap', () => {
  it('lists exactly the fixed content pages the route table marks for it', async () => {
    const xml = await (await SELF.fetch('https://shop.test/sitemaps/pages.xml')).text()
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1] as string).pathname)
    for (const route of ROUTES) {
      if (route.sitemap) expect(locs).toContain(route.path)
      else if (!route.path.includes(':') && route.path !== '/') expect(locs).not.toContain(route.path)
    }
  })
})

describe('fallbacks', () => {
  it('sends an unknown URL to the dispatcher, which redirects to /page-not-found', async () => {
    const res = await SELF.fetch('https://shop.test/definitely/not/here', { redirect: 'manual' })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/page-not-found')
  })

  it('treats the disabled /de and /it store prefixes as unknown URLs', async () => {
    for (const p of ['/de/checkout', '/it/cart']) {
      const res = await SELF.fetch(`https://shop.test${p}`, { redirect: 'manual' })
      expect(res.status).toBe(302)
      expect(res.headers.get('location')).toBe('/page-not-found')
    }
  })

  it('answers an unknown /api endpoint with a 404 envelope, not the dispatcher', async () => {
    const res = await SELF.fetch('https://shop.test/api/no-such-thing')
    expect(res.status).toBe(404)
    const body = (await res.json()) as { code: number; result: string }
    expect(body.code).toBe(404)
    expect(body.result).toContain('/api/no-such-thing')
  })

  it('falls back to INR for a malformed currency cookie', async () => {
    for (const cookie of ['currency=%E0%A4%A', 'currency=XYZ', 'currency', '=;;;currency==USD=']) {
      const res = await SELF.fetch('https://shop.test/', { headers: { cookie } })
      expect(res.status).toBe(200)
      expect(await res.text()).toContain('data-currency="INR"')
    }
  })

  it('uses the currency from a valid cookie', async () => {
    const res = await SELF.fetch('https://shop.test/', { headers: { cookie: 'currency=GBP' } })
    expect(await res.text()).toContain('data-currency="GBP"')
  })
})

describe('security headers', () => {
  it('sends a nonce CSP without unsafe-inline scripts, and the nonce is on every script', async () => {
    const res = await SELF.fetch('https://shop.test/')
    const csp = res.headers.get('content-security-policy') ?? ''
    const nonce = csp.match(/'nonce-([^']+)'/)?.[1]
    expect(nonce).toBeTruthy()
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/)
    expect(csp).toContain("frame-ancestors 'none'")
    expect(res.headers.get('strict-transport-security')).toContain('max-age=')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
    const html = await res.text()
    // Executable scripts carry the nonce; island props are JSON data blocks, which never run.
    const scripts = (html.match(/<script\b[^>]*>/g) ?? []).filter(
      (t) => !t.includes('type="application/json"'),
    )
    expect(scripts.length).toBeGreaterThan(0)
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`)
  })

  it('uses a fresh nonce per request', async () => {
    const a = (await SELF.fetch('https://shop.test/')).headers.get('content-security-policy')
    const b = (await SELF.fetch('https://shop.test/')).headers.get('content-security-policy')
    expect(a).not.toBe(b)
  })
})

describe('client assets', () => {
  it('emits one module script and modulepreloads that exist as static assets', async () => {
    const html = await (await SELF.fetch('https://shop.test/')).text()
    const modules = [...html.matchAll(/<script type="module" src="([^"]+)"/g)].map((m) => m[1])
    expect(modules).toHaveLength(1)
    const preloads = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1])
    for (const src of [...modules, ...preloads]) {
      // Static assets are served by the assets binding ahead of the worker.
      const res = await env.ASSETS.fetch(`https://shop.test${src}`)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toContain('javascript')
      await res.arrayBuffer()
    }
    expect(html).toMatch(/data-build="[0-9a-f]{12}"/)
  })

  it('renders /no-js.html without any script', async () => {
    const html = await (await SELF.fetch('https://shop.test/no-js.html')).text()
    // Only data blocks (island props), nothing a browser would execute.
    expect(html).toContain('data-island-props')
    expect(
      html.replace(/<script type="application\/json" data-island-props="[^"]+">[^<]*<\/script>/g, ''),
    ).not.toMatch(/<script/)
  })
})
