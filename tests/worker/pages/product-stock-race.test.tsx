/**
 * A product page whose render began before a stock change is never served from the output cache
 * after that change's purge. The race: the render reads "In stock", an order takes the last unit
 * and purges the product's pages (none is stored yet, so nothing is dropped), then the render
 * finishes and stores its "In stock" page, which would be served for the page's whole fresh life.
 * The render here waits on a gate between reading the stock and answering, so the stock change and
 * its purge (the one order placement, expiry and cancel call for the product's tag) land exactly in
 * that window.
 */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import { Hono } from 'hono'
import { beforeEach, describe, expect, it } from 'vitest'
import { clearOutputMemory } from '../../../worker/platform/cache/memory'
import { outputCache } from '../../../worker/platform/cache/output-cache'
import { purgeCacheTags } from '../../../worker/platform/cache/purge'
import type { AppEnv } from '../../../worker/platform/env'
import { requestContext } from '../../../worker/platform/middleware/context'
import { securityHeaders } from '../../../worker/platform/middleware/security-headers'
import { renderPage } from '../../../worker/platform/render/render-page'

const SKU = 'RACE-SCARF'

function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

/** A product page that reads its stock, then waits for `gate` before it answers. */
function productApp(hooks: { stockRead?: () => void; gate?: Promise<void> }) {
  const app = new Hono<AppEnv>()
  app.use('*', requestContext)
  app.use('*', securityHeaders)
  app.use('*', outputCache(app))
  app.get('/p/:sku/:slug', async (c) => {
    const row = await c.env.DB.prepare('SELECT qty FROM inventory WHERE sku = ?')
      .bind(SKU)
      .first<{ qty: number }>()
    hooks.stockRead?.()
    await hooks.gate
    c.set('cacheTags', ['product', `P${SKU}`])
    return renderPage(c, <p className="stock">{(row?.qty ?? 0) > 0 ? 'In stock' : 'Out of stock'}</p>, {
      title: 'Scarf',
      layout: 'minimal',
    })
  })
  return app
}

async function get(app: Hono<AppEnv>) {
  const ctx = createExecutionContext()
  const res = await app.fetch(new Request(`https://shop.test/p/${SKU}/race-scarf`), env, ctx)
  const html = await res.text()
  await waitOnExecutionContext(ctx)
  return { cache: res.headers.get('x-cache'), inStock: html.includes('In stock') }
}

beforeEach(async () => {
  clearOutputMemory()
  await env.DB.prepare(
    `INSERT OR REPLACE INTO inventory (sku, product_id, parent_sku, qty, is_in_stock, manage_stock, backorders)
     VALUES (?1, 990001, NULL, 1, 1, 1, 0)`,
  )
    .bind(SKU)
    .run()
})

describe('a product page rendered across a stock change', () => {
  it('is not served from the cache after the purge that followed the change', async () => {
    const read = deferred()
    const gate = deferred()
    const app = productApp({ stockRead: read.resolve, gate: gate.promise })
    // The render starts and reads the last unit as in stock.
    const ctx = createExecutionContext()
    const racing = app.fetch(new Request(`https://shop.test/p/${SKU}/race-scarf`), env, ctx)
    await read.promise
    // An order takes the last unit and purges the product's pages while the render is still running
    // (no page is stored yet: the purge drops nothing).
    await env.DB.prepare('UPDATE inventory SET qty = 0 WHERE sku = ?1').bind(SKU).run()
    expect((await purgeCacheTags(env, [`P${SKU}`])).local).toEqual({ [`P${SKU}`]: 0 })
    // The render finishes and its page (still "In stock") reaches the cache's store step.
    gate.resolve()
    const first = await racing
    expect((await first.text()).includes('In stock')).toBe(true)
    await waitOnExecutionContext(ctx)

    const after = await get(productApp({}))
    expect(after.inStock, 'the page rendered before the order is not served after its purge').toBe(false)
    // A render after the purge is stored and served as usual.
    expect((await get(productApp({}))).cache).toMatch(/HIT/)
  })
})
