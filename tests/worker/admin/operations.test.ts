// Catalogue edits and operations from the back office: price and stock changes reach the shop at
// once (index and cached pages), a failed mail is retried once however many retries race, purges
// and URL mappings are validated, and each change is the owner's (or staff's) to make and audited.
import { env, SELF } from 'cloudflare:test'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { SCARF, seedCartFixtures, stockOf } from '../../helpers/cart-fixtures'
import { appFetch } from '../../helpers/in-isolate'
import { api } from '../../helpers/user'
import { admin, operator, type Session } from './operator'

beforeEach(seedCartFixtures)
afterEach(() => vi.restoreAllMocks())

const auditActions = async (target: string) =>
  (
    await env.DB.prepare('SELECT action FROM admin_audit WHERE target = ? ORDER BY id')
      .bind(target)
      .all<{ action: string }>()
  ).results.map((r) => r.action)

describe('catalogue', () => {
  it('changes price and special price: the shop answers the new price at once, with an audit row', async () => {
    const staff = await operator('staff')
    const found = await admin(staff, `/api/products?q=${SCARF.sku}`)
    expect(found.json.result[0]).toMatchObject({ id: SCARF.id, sku: SCARF.sku, stock: [{ sku: SCARF.sku }] })
    const res = await admin(staff, `/api/products/${SCARF.id}`, {
      body: { price: 1200, special_price: 900, special_from_date: '2020-01-01', special_to_date: null },
    })
    expect(res.status, res.text).toBe(200)
    expect(res.json.result.final_price).toBe(900)
    const search = await api(
      `/catalog/vue_storefront_catalog/product/_search?size=1&request=${encodeURIComponent(JSON.stringify({ query: { bool: { filter: { terms: { sku: [SCARF.sku] } } } } }))}`,
    )
    const hit = (
      search.json as unknown as { hits: { hits: { _source: { price: number; special_price: number } }[] } }
    ).hits.hits[0]
    expect(hit?._source).toMatchObject({ price: 1200, special_price: 900 })
    expect(await auditActions(`product:${SCARF.sku}`)).toEqual(['product.update'])
  })

  it('sets the HSN code the tax rules and invoices read, and refuses one that is not 4, 6 or 8 digits', async () => {
    const staff = await operator('staff')
    const hsnOf = async () =>
      (
        await env.DB.prepare("SELECT json_extract(doc, '$.hsn_code') AS hsn FROM products WHERE id = ?")
          .bind(SCARF.id)
          .first<{ hsn: string | null }>()
      )?.hsn
    const res = await admin(staff, `/api/products/${SCARF.id}`, { body: { hsn_code: '62141000' } })
    expect(res.status, res.text).toBe(200)
    expect(await hsnOf()).toBe('62141000')
    for (const hsn_code of ['621', '62A4', '6214100'])
      expect((await admin(staff, `/api/products/${SCARF.id}`, { body: { hsn_code } })).status, hsn_code).toBe(
        400,
      )
    expect(await hsnOf()).toBe('62141000')
    const page = await admin(staff, `/products?q=${SCARF.sku}`)
    expect(page.text).toContain('value="62141000"')
  })

  it('refuses a special price not below the price, unknown fields and bad windows, changing nothing', async () => {
    const staff = await operator('staff')
    const auditedBefore = await auditActions(`product:${SCARF.sku}`)
    const bad = [
      { special_price: 5000 },
      { price: -1 },
      { special_from_date: 'tomorrow' },
      { status: 3 },
      { sku: 'OTHER' },
      {},
    ]
    for (const body of bad)
      expect((await admin(staff, `/api/products/${SCARF.id}`, { body })).status, JSON.stringify(body)).toBe(
        400,
      )
    expect((await admin(staff, '/api/products/999999999', { body: { price: 5 } })).status).toBe(404)
    const row = await env.DB.prepare('SELECT price FROM products WHERE id = ?')
      .bind(SCARF.id)
      .first<{ price: number }>()
    expect(row?.price).toBe(SCARF.price)
    expect(await auditActions(`product:${SCARF.sku}`)).toEqual(auditedBefore)
  })

  it('sets the stock of a sku, which the stock API answers at once; a viewer cannot', async () => {
    const staff = await operator('staff')
    const viewer = await operator('viewer')
    expect((await admin(viewer, `/api/stock/${SCARF.sku}`, { body: { qty: 1 } })).status).toBe(403)
    expect((await admin(staff, `/api/stock/${SCARF.sku}`, { body: { qty: -1 } })).status).toBe(400)
    expect((await admin(staff, `/api/stock/${SCARF.sku}`, { body: { qty: '1e3' } })).status).toBe(400)
    expect((await admin(staff, '/api/stock/NO-SUCH-SKU', { body: { qty: 1 } })).status).toBe(404)
    expect((await admin(staff, `/api/stock/${SCARF.sku}`, { body: { qty: 42 } })).status).toBe(200)
    expect(await stockOf(SCARF.sku)).toBe(42)
    const check = await api(`/stock/check?sku=${SCARF.sku}`)
    expect(check.json.result).toMatchObject({ qty: 42, is_in_stock: true })
    expect(await auditActions(`sku:${SCARF.sku}`)).toEqual(['stock.set'])
  })
})

describe('outbox', () => {
  const withProvider = {
    ...env,
    MAIL_PROVIDER_URL: 'https://mail.provider.test/send',
    MAIL_PROVIDER_KEY: 'k',
  } as Env

  async function call(who: Session, path: string, e: Env) {
    const res = await appFetch(
      `/admin${path}`,
      {
        method: 'POST',
        headers: { cookie: who.cookie, 'x-csrf-token': who.csrf, 'content-type': 'application/json' },
        body: '{}',
      },
      e,
    )
    return { status: res.status, json: await res.json<{ result: Record<string, unknown> }>() }
  }

  async function failedMail(status = 'failed') {
    const row = await env.DB.prepare(
      `INSERT INTO mail_outbox (kind, source_address, target_address, subject, body, status, provider_response, created_at)
       VALUES ('order-shipped', 'care@shop.test', 'asha@example.com', 'Your order', 'Body', ?, '500 busy', '2026-11-24 09:00:00') RETURNING id`,
    )
      .bind(status)
      .first<{ id: number }>()
    return row?.id as number
  }

  it('shows counts per status and retries a failed mail exactly once when retries race', async () => {
    const owner = await operator('owner')
    const id = await failedMail()
    const summary = await admin(owner, '/api/outbox')
    expect(summary.json.result.mail.counts.failed).toBeGreaterThanOrEqual(1)
    let sent = 0
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => {
      sent++
      return new Response('queued', { status: 202 })
    })
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => call(owner, `/api/outbox/mail/${id}/retry`, withProvider)),
    )
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1)
    expect(answers.filter((a) => a.status === 409)).toHaveLength(3)
    expect(sent).toBe(1)
    const row = await env.DB.prepare('SELECT status FROM mail_outbox WHERE id = ?')
      .bind(id)
      .first<{ status: string }>()
    expect(row?.status).toBe('sent')
    expect(await auditActions(`mail:${id}`)).toEqual(['outbox.retry'])
  })

  it('shows newsletter mail as its own outbox, retried through the mail provider', async () => {
    const owner = await operator('owner')
    const before = await admin(owner, '/api/outbox')
    const row = await env.DB.prepare(
      `INSERT INTO mail_outbox (kind, source_address, target_address, subject, body, status, provider_response, created_at)
       VALUES ('newsletter-confirm', 'care@shop.test', 'reader@example.com', 'Confirm', 'Body', 'failed', '500 busy', '2026-11-24 09:00:00') RETURNING id`,
    ).first<{ id: number }>()
    const after = await admin(owner, '/api/outbox')
    const failed = (name: string, res: typeof after) => (res.json.result[name].counts.failed ?? 0) as number
    expect(failed('newsletter', after)).toBe(failed('newsletter', before) + 1)
    expect(failed('mail', after)).toBe(failed('mail', before))
    expect(after.json.result.newsletter).toMatchObject({ box: 'mail' })
    expect(after.json.result.newsletter.failed.map((r: { id: number }) => r.id)).toContain(row?.id)
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response('queued', { status: 202 }))
    expect((await call(owner, `/api/outbox/mail/${row?.id}/retry`, withProvider)).status).toBe(200)
  })

  it('retries a dead mail; a provider that refuses again leaves it failed with its answer', async () => {
    const owner = await operator('owner')
    const id = await failedMail('dead')
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => new Response('still down', { status: 503 }))
    const res = await call(owner, `/api/outbox/mail/${id}/retry`, withProvider)
    expect(res.status).toBe(200)
    expect(res.json.result).toMatchObject({ status: 'failed' })
    const row = await env.DB.prepare('SELECT status, provider_response FROM mail_outbox WHERE id = ?')
      .bind(id)
      .first<{ status: string; provider_response: string }>()
    expect(row).toEqual({ status: 'failed', provider_response: '503 still down' })
  })

  it('retries a dead conversion event through the Conversions API, once however many retries race', async () => {
    const owner = await operator('owner')
    const row = await env.DB.prepare(
      `INSERT INTO analytics_outbox (event_name, event_id, payload, status, provider_response, created_at)
       VALUES ('Purchase', ?, '{"event_name":"Purchase"}', 'dead', '500 busy', '2026-11-24 09:00:00') RETURNING id`,
    )
      .bind(`ev-${Date.now()}`)
      .first<{ id: number }>()
    const id = row?.id as number
    const withPixel = { ...env, FB_PIXEL_ID: '123', FB_ACCESS_TOKEN: 'tok' } as Env
    expect((await call(owner, `/api/outbox/analytics/${id}/retry`, env)).status).toBe(409)
    const calls: string[] = []
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      calls.push(String(input instanceof Request ? input.url : input))
      return new Response('{"events_received":1}', { status: 200 })
    })
    const answers = await Promise.all(
      Array.from({ length: 3 }, () => call(owner, `/api/outbox/analytics/${id}/retry`, withPixel)),
    )
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1)
    expect(calls).toEqual(['https://graph.facebook.com/v19.0/123/events'])
    const after = await env.DB.prepare('SELECT status FROM analytics_outbox WHERE id = ?')
      .bind(id)
      .first<{ status: string }>()
    expect(after?.status).toBe('sent')
    expect(await auditActions(`event:${id}`)).toEqual(['outbox.retry'])
    expect((await call(owner, '/api/outbox/newsletter/1/retry', withPixel)).status).toBe(404)
  })

  it('refuses a retry without a provider, by staff, and of an unknown mail', async () => {
    const owner = await operator('owner')
    const staff = await operator('staff')
    const id = await failedMail()
    expect((await call(owner, `/api/outbox/mail/${id}/retry`, env)).status).toBe(409)
    expect((await call(staff, `/api/outbox/mail/${id}/retry`, withProvider)).status).toBe(403)
    expect((await call(owner, '/api/outbox/mail/99999999/retry', withProvider)).status).toBe(404)
  })
})

describe('cache purge and URL mappings', () => {
  it('purges by tag within the limits, as the owner only', async () => {
    const owner = await operator('owner')
    const staff = await operator('staff')
    expect((await admin(staff, '/api/cache/purge', { body: { tags: ['home'] } })).status).toBe(403)
    const many = Array.from({ length: 51 }, (_, i) => `P${i}`)
    expect((await admin(owner, '/api/cache/purge', { body: { tags: many } })).json.result).toMatch(
      /at most 50/,
    )
    expect((await admin(owner, '/api/cache/purge', { body: { tags: ['a b'] } })).status).toBe(400)
    const res = await admin(owner, '/api/cache/purge', { body: { tags: 'home,category' } })
    expect(res.status).toBe(200)
    expect(res.json.result.tags).toEqual(['home', 'category'])
    expect(await auditActions('tags:home,category')).toEqual(['cache.purge'])
  })

  it('stores a redirect mapping the shop follows, refuses one to another site, deletes it', async () => {
    const owner = await operator('owner')
    const path = `old-sale-${Date.now()}`
    const offsite = await admin(owner, '/api/urls', {
      body: { path, value: { type: 'redirect', to: '//evil.test/' } },
    })
    expect(offsite.status).toBe(400)
    expect(
      (
        await admin(owner, '/api/urls', {
          body: { path, value: { type: 'redirect', to: '/c/sale', status: 301 } },
        })
      ).status,
    ).toBe(200)
    const followed = await SELF.fetch(`https://shop.test/${path}`, { redirect: 'manual' })
    expect(followed.status).toBe(301)
    expect(new URL(followed.headers.get('location') ?? '', 'https://shop.test').pathname).toBe('/c/sale')
    expect((await admin(owner, `/api/urls?path=${path}`, { method: 'DELETE' })).status).toBe(200)
    expect(await env.URL_MAPPINGS.get(path)).toBeNull()
    expect(await auditActions(`url:${path}`)).toEqual(['url.put', 'url.delete'])
  })
})
