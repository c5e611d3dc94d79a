import { readFileSync } from 'node:fs'
import path from 'node:path'
import * as esbuild from 'esbuild'
import { describe, expect, it } from 'vitest'
import { isLocalhost, isServiceWorkerServed } from '../../../../client/sw/register'
import { cacheKindFor, cacheNames, isOutdatedCache } from '../../../../client/sw/routes'

const root = path.resolve(import.meta.dirname, '../../../..')

describe('service worker caching rules', () => {
  it.each([
    ['/api/cart/pull', false, 'never'],
    ['/api/cart', false, 'never'],
    ['/api/order', false, 'never'],
    ['/api/order/get', false, 'never'],
    ['/api/user/me', false, 'never'],
    ['/api/giftcard/store-credit-transaction', false, 'never'],
    ['/api/wishlist/items', false, 'never'],
    ['/api/catalog/vue_storefront_catalog/product/_search', false, 'catalog'],
    ['/img/600/744/resize/a.jpg', false, 'image'],
    ['/api/stock/check', false, 'none'],
    ['/api/cartography', false, 'none'],
    ['/checkout', true, 'never'],
    ['/checkout/', true, 'never'],
    ['/de/checkout', true, 'never'],
    ['/my-account', true, 'never'],
    ['/my-account/orders/12', true, 'never'],
    ['/', true, 'page'],
    ['/women/tops.html', true, 'page'],
    ['/checkout-guide', true, 'page'],
    ['/build/app.js', false, 'none'],
  ])('%s (document %s) → %s', (p, doc, kind) => {
    expect(cacheKindFor(p, doc)).toBe(kind)
  })

  it('versions caches by build id and finds the outdated ones', () => {
    expect(cacheNames('b2')).toEqual({
      pages: 'shop-pages-b2',
      catalog: 'shop-catalog-b2',
      images: 'shop-images-b2',
    })
    expect(isOutdatedCache('shop-pages-b1', 'b2')).toBe(true)
    expect(isOutdatedCache('shop-precache-v2-https://x/-b1', 'b2')).toBe(true)
    expect(isOutdatedCache('shop-images-b2', 'b2')).toBe(false)
    expect(isOutdatedCache('someone-elses-cache', 'b2')).toBe(false)
  })
})

describe('registration helpers', () => {
  it.each([
    ['localhost', true],
    ['127.0.0.1', true],
    ['[::1]', true],
    ['shop.example', false],
    ['127.0.0.1.evil.example', false],
  ])('isLocalhost(%s) → %s', (h, expected) => expect(isLocalhost(h)).toBe(expected))

  it('the localhost check requires the worker file to exist and be JavaScript', async () => {
    const res = (status: number, type: string) =>
      (async () =>
        new Response('x', { status, headers: { 'content-type': type } })) as unknown as typeof fetch
    expect(await isServiceWorkerServed(res(200, 'application/javascript'))).toBe(true)
    expect(await isServiceWorkerServed(res(200, 'text/javascript; charset=utf-8'))).toBe(true)
    expect(await isServiceWorkerServed(res(404, 'application/javascript'))).toBe(false)
    expect(await isServiceWorkerServed(res(200, 'text/html'))).toBe(false)
    expect(
      await isServiceWorkerServed((async () => {
        throw new TypeError('offline')
      }) as unknown as typeof fetch),
    ).toBeNull() // unknown (offline): the caller must not unregister
  })
})

describe('service worker bundle and offline page', () => {
  it('bundles as a classic script with the build id and precache list inlined', async () => {
    const out = await esbuild.build({
      entryPoints: [path.join(root, 'client/sw/service-worker.ts')],
      bundle: true,
      format: 'iife',
      minify: true,
      write: false,
      define: {
        'process.env.NODE_ENV': '"production"',
        __BUILD_ID__: '"build123"',
        __PRECACHE__: '["/build/home-abc.js"]',
      },
      logLevel: 'silent',
    })
    const code = out.outputFiles[0]?.text ?? ''
    expect(code).toContain('build123')
    expect(code).toContain('/build/home-abc.js')
    expect(code).toContain('/offline.html')
    expect(code).toContain('orderSync')
    expect(code).toContain('/?order=offline')
    expect(code).not.toMatch(/\bimport\s*[{*(]/)
    expect(code).not.toContain('__BUILD_ID__')
  })

  it("the offline page is self-contained and carries the shop's message", () => {
    const html = readFileSync(path.join(root, 'public/offline.html'), 'utf8')
    expect(html).toContain(
      'The product, category or CMS page is not available in Offline mode. Redirecting to Home.',
    )
    expect(html).not.toMatch(/(src|href)=["']?(https?:)?\/\//i)
    expect(html).not.toMatch(/<link[^>]+stylesheet/i)
    expect(html).not.toMatch(/<script[^>]+src=/i)
  })
})
