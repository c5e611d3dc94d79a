// /api/fbconversion/callFbConversionApi (D1 outbox without FB secrets) and /api/state/send-state.
import { env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { MSG_TOO_MANY_STATES, STATE_LIMIT_PER_IP } from '../../../../worker/api/state/routes'
import { api } from '../../../helpers/user'

const event = (over: Record<string, unknown> = {}) => ({
  event_name: 'Purchase',
  event_id: 'Purchase-a1b2c3d4',
  event_time: 1_790_000_000,
  user_data: { em: ' Asha@Example.com ', fbp: 'fb.1.123.456', ph: '+91 98765 43210' },
  event_source_url: 'https://shop.test/checkout',
  action_source: 'website',
  custom_data: { currency: 'INR', value: 3920 },
  ...over,
})

describe('conversion API', () => {
  it('records the event in the outbox with personal data hashed', async () => {
    const res = await api('/fbconversion/callFbConversionApi', { body: event() })
    expect(res.status).toBe(200)
    expect(res.json.result).toBe('recorded')
    const row = await env.DB.prepare(
      "SELECT * FROM analytics_outbox WHERE event_id = 'Purchase-a1b2c3d4'",
    ).first<{
      payload: string
      status: string
    }>()
    expect(row?.status).toBe('recorded')
    const payload = JSON.parse(row?.payload ?? '{}')
    expect(payload.user_data.em).toMatch(/^[0-9a-f]{64}$/)
    expect(payload.user_data.ph).toMatch(/^[0-9a-f]{64}$/)
    expect(payload.user_data.fbp).toBe('fb.1.123.456')
    expect(JSON.stringify(payload)).not.toContain('Asha@Example.com')
    expect(payload.custom_data).toEqual({ currency: 'INR', value: 3920 })
  })

  it('rejects unknown events and malformed bodies', async () => {
    const pageView = await api('/fbconversion/callFbConversionApi', {
      body: event({ event_name: 'PageView' }),
    })
    expect(pageView.status).toBe(400)
    expect(pageView.json.result).toContain('event_name')
    const noUrl = await api('/fbconversion/callFbConversionApi', {
      body: event({ event_source_url: 'nope' }),
    })
    expect(noUrl.status).toBe(400)
  })
})

describe('abandoned cart state', () => {
  /** A new guest cart's token: the id its snapshots are sent with. */
  const guestCart = async () => (await api('/cart/create', { method: 'POST' })).json.result as string
  /** The snapshot stored for a guest cart (under the cart's row id). */
  const stored = async (cart: string) =>
    (
      await env.DB.prepare(
        'SELECT state FROM cart_states WHERE id = (SELECT CAST(id AS TEXT) FROM carts WHERE guest_token = ?)',
      )
        .bind(cart)
        .first<{ state: string }>()
    )?.state ?? null

  it('keeps the latest state per cart', async () => {
    const cart = await guestCart()
    expect((await api('/state/send-state', { body: { id: cart, state: { items: [1] } } })).json.result).toBe(
      true,
    )
    await api('/state/send-state', { body: { id: cart, state: { items: [1, 2] } } })
    expect(JSON.parse((await stored(cart)) ?? '{}')).toEqual({ items: [1, 2] })
    expect((await api('/state/send-state', { body: { state: {} } })).status).toBe(400)
    expect((await api('/state/send-state', { body: { id: cart, state: 'text' } })).status).toBe(400)
  })

  it('limits one address to STATE_LIMIT_PER_IP snapshots per window (429, nothing written)', async () => {
    const ip = '198.51.100.77'
    const [first, second, third] = [await guestCart(), await guestCart(), await guestCart()]
    await env.DB.prepare('INSERT INTO rate_limits (key, window_start, count) VALUES (?, ?, ?)')
      .bind(`state:ip:${ip}`, Date.now(), STATE_LIMIT_PER_IP - 1)
      .run()
    const last = await api('/state/send-state', { body: { id: first, state: { a: 1 } }, ip })
    expect(last.status).toBe(200)
    const over = await api('/state/send-state', { body: { id: second, state: { a: 2 } }, ip })
    expect(over.status).toBe(429)
    expect(over.json.result).toBe(MSG_TOO_MANY_STATES)
    expect(await stored(second as string)).toBeNull()
    // Another address is not affected.
    expect(
      (await api('/state/send-state', { body: { id: third, state: {} }, ip: '198.51.100.78' })).status,
    ).toBe(200)
  })
})
