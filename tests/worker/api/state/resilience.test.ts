// /api/state/send-state writes the snapshot of the caller's own cart to D1: nobody writes over the
// snapshot of a cart that is not theirs, and its size, rate and retention are bounded. Over a
// limit → a 4xx envelope naming it, and nothing written.
import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import {
  MAX_SEND_STATE_BODY_BYTES,
  MAX_STATE_BYTES,
  MAX_STATE_DEPTH,
  MSG_STATE_BUDGET_SPENT,
  MSG_TOO_MANY_STATES,
  pruneCartStates,
  STATE_BYTES_PER_DAY,
  STATE_LIMIT_PER_IP,
  STATE_PRUNE_BATCH,
  STATE_RETENTION_DAYS,
} from '../../../../worker/api/state/routes'
import { magentoDate } from '../../../../worker/api/user/repo'
import app from '../../../../worker/app'
import { addressKey } from '../../../../worker/platform/http'
import { api, registerAndLogin } from '../../../helpers/user'

let ipCounter = 0
const freshIp = () => `198.18.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`

async function send(body: string | ReadableStream, ip = freshIp(), headers: Record<string, string> = {}) {
  const res = await SELF.fetch('https://shop.test/api/state/send-state', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': ip, ...headers },
    body,
    // A stream body needs a half-duplex request.
    ...(typeof body === 'string' ? {} : { duplex: 'half' }),
  } as RequestInit)
  const json = (await res.json()) as { code: number; result: unknown }
  return { status: res.status, json }
}

/** A new guest cart's token: the id its snapshots are sent with. */
const guestCart = async (): Promise<string> =>
  (await api('/cart/create', { method: 'POST', ip: freshIp() })).json.result as string

/** The snapshot row stored under `id` as it is. */
const storedUnder = (id: string) =>
  env.DB.prepare('SELECT state FROM cart_states WHERE id = ?').bind(id).first<{ state: string }>()

/** The snapshot stored for a cart (by its guest token or its id). */
const stored = (cart: string | number) =>
  env.DB.prepare(
    `SELECT state, updated_at FROM cart_states
     WHERE id = (SELECT CAST(id AS TEXT) FROM carts WHERE guest_token = ?1 OR id = ?1)`,
  )
    .bind(cart)
    .first<{ state: string; updated_at: string }>()

afterEach(() => vi.restoreAllMocks())

describe('whose cart', () => {
  it("stores a guest's snapshot of its own cart under the cart's row id, never under its token", async () => {
    const cart = await guestCart()
    const res = await send(JSON.stringify({ id: cart, state: { items: 1 } }))
    expect(res.status).toBe(200)
    expect((await stored(cart))?.state).toBe('{"items":1}')
    const token = await env.DB.prepare('SELECT COUNT(*) AS n FROM cart_states WHERE id = ?')
      .bind(cart)
      .first()
    expect(token).toEqual({ n: 0 })
  })

  it("writes nothing for an id that is no cart of the caller's, and leaves the owner's snapshot as it was", async () => {
    const owner = await registerAndLogin('state')
    const cartId = (await api('/cart/create', { method: 'POST', bearer: owner.token })).json.result as number
    const own = await send(JSON.stringify({ id: cartId, state: { mine: true } }), freshIp(), {
      authorization: `Bearer ${owner.token}`,
    })
    expect(own.status).toBe(200)
    const before = await stored(cartId)
    const other = await registerAndLogin('state')
    const cases: [unknown, Record<string, string>, number][] = [
      // Someone else's customer cart: without a token, and with another customer's.
      [cartId, {}, 401],
      [String(cartId), {}, 401],
      [cartId, { authorization: `Bearer ${other.token}` }, 403],
      // Ids that name no cart at all.
      ['victim-cart', {}, 400],
      ['0123456789abcdef0123456789abcdef', {}, 404],
      [987654321, { authorization: `Bearer ${other.token}` }, 404],
    ]
    for (const [id, headers, status] of cases) {
      const res = await send(JSON.stringify({ id, state: { evil: true } }), freshIp(), headers)
      expect(res.status, JSON.stringify(id)).toBe(status)
      // A readable sentence; the refusals of a missing or wrong cart name the field.
      expect(String(res.json.result)).toMatch(status === 400 || status === 404 ? /\bid\b/ : /\w+ \w+/)
    }
    expect(await stored(cartId)).toEqual(before)
    const written = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM cart_states WHERE state LIKE '%evil%'",
    ).first()
    expect(written).toEqual({ n: 0 })
  })
})

describe('size', () => {
  it('refuses a body over the limit before reading it all (declared or streamed), naming the limit', async () => {
    const cart = await guestCart()
    const big = JSON.stringify({ id: cart, state: { a: 'x'.repeat(MAX_SEND_STATE_BODY_BYTES) } })
    const declared = await send(big)
    expect(declared.status).toBe(400)
    expect(declared.json.result).toContain(String(MAX_SEND_STATE_BODY_BYTES))
    expect(await stored(cart)).toBeNull()

    // No Content-Length: the body arrives in chunks and is counted as it is read.
    const chunk = new TextEncoder().encode('x'.repeat(16 * 1024))
    let sent = 0
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(`{"id":"${cart}","state":{"a":"`))
      },
      pull(controller) {
        if (sent > MAX_SEND_STATE_BODY_BYTES * 4) {
          controller.enqueue(new TextEncoder().encode('"}}'))
          controller.close()
          return
        }
        sent += chunk.byteLength
        controller.enqueue(chunk)
      },
    })
    const streamed = await send(stream)
    expect(streamed.status).toBe(400)
    expect(streamed.json.result).toContain(String(MAX_SEND_STATE_BODY_BYTES))
    expect(await stored(cart)).toBeNull()
  })

  it('measures the state in UTF-8 bytes: 40,000 "€" (120,000 bytes) is too large', async () => {
    const euro = '€'.repeat(Math.ceil(MAX_STATE_BYTES / 3) + 10)
    expect(euro.length).toBeLessThan(MAX_STATE_BYTES)
    const cart = await guestCart()
    const res = await send(JSON.stringify({ id: cart, state: { note: euro } }))
    expect(res.status).toBe(400)
    expect(String(res.json.result)).toMatch(new RegExp(`${MAX_STATE_BYTES}|${MAX_SEND_STATE_BODY_BYTES}`))
    expect(await stored(cart)).toBeNull()
  })

  it('accepts a state of exactly MAX_STATE_BYTES and refuses one byte more', async () => {
    const wrapper = JSON.stringify({ a: '' }).length
    const exact = { a: 'y'.repeat(MAX_STATE_BYTES - wrapper) }
    const cart = await guestCart()
    expect((await send(JSON.stringify({ id: cart, state: exact }))).status).toBe(200)
    expect(new TextEncoder().encode((await stored(cart))?.state).byteLength).toBe(MAX_STATE_BYTES)
    const over = { a: 'y'.repeat(MAX_STATE_BYTES - wrapper + 1) }
    const res = await send(JSON.stringify({ id: await guestCart(), state: over }))
    expect(res.status).toBe(400)
    expect(res.json.result).toBe(`state is too large (at most ${MAX_STATE_BYTES} bytes)`)
  })

  it('refuses a state nested deeper than MAX_STATE_DEPTH, and a pathological id', async () => {
    const nest = (n: number) => `${'['.repeat(n - 1)}${']'.repeat(n - 1)}`
    const ok = await send(`{"id":"${await guestCart()}","state":{"a":${nest(MAX_STATE_DEPTH)}}}`)
    expect(ok.status).toBe(200)
    const deepCart = await guestCart()
    const deep = await send(`{"id":"${deepCart}","state":{"a":${nest(MAX_STATE_DEPTH + 1)}}}`)
    expect(deep.status).toBe(400)
    expect(deep.json.result).toBe(`state nests too deeply (at most ${MAX_STATE_DEPTH} levels)`)
    expect(await stored(deepCart)).toBeNull()
    // Far deeper bodies are refused before they are parsed, whatever the route.
    const pathological = await send(`{"id":"${deepCart}","state":{"a":${nest(20_000)}}}`)
    expect(pathological.status).toBe(400)
    expect(pathological.json.result).toMatch(/nested deeper than \d+ levels/)
    expect(await stored(deepCart)).toBeNull()
    for (const id of ['x'.repeat(101), 1e300, 1.5, '   ', null, { $gt: '' }])
      expect((await send(JSON.stringify({ id, state: {} }))).status, JSON.stringify(id)).toBe(400)
  })
})

describe('rate', () => {
  it('counts an IPv6 /64 as one address (and an IPv4-mapped address as its IPv4)', async () => {
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe(addressKey('2001:0db8:0001:0002:ffff:1:2:3'))
    expect(addressKey('2001:db8:1:2::1')).not.toBe(addressKey('2001:db8:1:3::1'))
    expect(addressKey('::ffff:192.0.2.7')).toBe('192.0.2.7')
    expect(addressKey('192.0.2.7')).toBe('192.0.2.7')

    const net = '2001:db8:77:1'
    await env.DB.prepare('INSERT INTO rate_limits (key, window_start, count) VALUES (?, ?, ?)')
      .bind(`state:ip:${addressKey(`${net}::1`)}`, Date.now(), STATE_LIMIT_PER_IP)
      .run()
    // Another address of the same /64 is over the limit too.
    const cart = await guestCart()
    const sameNet = await send(JSON.stringify({ id: cart, state: {} }), `${net}:9:8:7:6`)
    expect(sameNet.status).toBe(429)
    expect(sameNet.json.result).toBe(MSG_TOO_MANY_STATES)
    expect(await stored(cart)).toBeNull()
    const otherNet = await send(JSON.stringify({ id: cart, state: {} }), '2001:db8:77:2::1')
    expect(otherNet.status).toBe(200)
  })

  it("stops at the shop's daily byte budget (429, nothing written), and starts again the next day", async () => {
    const now = Date.now()
    await env.DB.prepare(
      `INSERT INTO rate_limits (key, window_start, count) VALUES ('state:bytes:day', ?1, ?2)
       ON CONFLICT(key) DO UPDATE SET window_start = ?1, count = ?2`,
    )
      .bind(now, STATE_BYTES_PER_DAY - 10)
      .run()
    const cart = await guestCart()
    const over = await send(JSON.stringify({ id: cart, state: { a: 'more than ten bytes' } }))
    expect(over.status).toBe(429)
    expect(over.json.result).toBe(MSG_STATE_BUDGET_SPENT)
    expect(await stored(cart)).toBeNull()
    await env.DB.prepare("UPDATE rate_limits SET window_start = ? WHERE key = 'state:bytes:day'")
      .bind(now - 86_400_001)
      .run()
    expect((await send(JSON.stringify({ id: cart, state: { a: 1 } }))).status).toBe(200)
  })
})

describe('retention', () => {
  it(`deletes snapshots untouched for ${STATE_RETENTION_DAYS} days, keeps newer ones, at most a batch per pass`, async () => {
    const now = Date.now()
    const old = magentoDate(now - (STATE_RETENTION_DAYS + 1) * 86_400_000)
    const young = magentoDate(now - (STATE_RETENTION_DAYS - 1) * 86_400_000)
    const rows = STATE_PRUNE_BATCH + 20
    for (let i = 0; i < rows; i += 100)
      await env.DB.batch(
        Array.from({ length: Math.min(100, rows - i) }, (_, j) =>
          env.DB.prepare('INSERT INTO cart_states (id, state, updated_at) VALUES (?, ?, ?)').bind(
            `expired-${i + j}`,
            '{}',
            old,
          ),
        ),
      )
    await env.DB.prepare('INSERT INTO cart_states (id, state, updated_at) VALUES (?, ?, ?)')
      .bind('young', '{}', young)
      .run()
    expect(await pruneCartStates(env.DB, now)).toBe(STATE_PRUNE_BATCH)
    expect(await pruneCartStates(env.DB, now)).toBe(20)
    expect(await pruneCartStates(env.DB, now)).toBe(0)
    expect(await storedUnder('young')).not.toBeNull()
    const plan = await env.DB.prepare(
      "EXPLAIN QUERY PLAN SELECT rowid FROM cart_states WHERE updated_at < '2000-01-01' ORDER BY updated_at LIMIT 5",
    ).all<{ detail: string }>()
    expect(plan.results.map((r) => r.detail).join(' ')).toContain('cart_states_updated_at')
  })

  it('a write prunes now and then (about 1 %): with the dice loaded, the next write prunes', async () => {
    await env.DB.prepare('INSERT INTO cart_states (id, state, updated_at) VALUES (?, ?, ?)')
      .bind('expired-by-write', '{}', magentoDate(Date.now() - (STATE_RETENTION_DAYS + 2) * 86_400_000))
      .run()
    const cart = await guestCart()
    vi.spyOn(Math, 'random').mockReturnValue(0)
    const ctx = createExecutionContext()
    const res = await app.fetch(
      new Request('https://shop.test/api/state/send-state', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'cf-connecting-ip': freshIp() },
        body: JSON.stringify({ id: cart, state: { a: 1 } }),
      }),
      env,
      ctx,
    )
    expect(res.status).toBe(200)
    await waitOnExecutionContext(ctx)
    expect(await storedUnder('expired-by-write')).toBeNull()
    expect(await stored(cart)).not.toBeNull()
  })
})
