// /api/state/send-state is an anonymous D1 write: its size, rate and retention are bounded. Over a
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
import { addressKey } from '../../../../worker/platform/http'
import app from '../../../../worker/app'

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

const stored = (id: string) =>
  env.DB.prepare('SELECT state, updated_at FROM cart_states WHERE id = ?')
    .bind(id)
    .first<{ state: string; updated_at: string }>()

afterEach(() => vi.restoreAllMocks())

describe('size', () => {
  it('refuses a body over the limit before reading it all (declared or streamed), naming the limit', async () => {
    const big = JSON.stringify({ id: 'size-declared', state: { a: 'x'.repeat(MAX_SEND_STATE_BODY_BYTES) } })
    const declared = await send(big)
    expect(declared.status).toBe(400)
    expect(declared.json.result).toContain(String(MAX_SEND_STATE_BODY_BYTES))
    expect(await stored('size-declared')).toBeNull()

    // No Content-Length: the body arrives in chunks and is counted as it is read.
    const chunk = new TextEncoder().encode('x'.repeat(16 * 1024))
    let sent = 0
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"id":"size-streamed","state":{"a":"'))
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
    expect(await stored('size-streamed')).toBeNull()
  })

  it('measures the state in UTF-8 bytes: 40,000 "€" (120,000 bytes) is too large', async () => {
    const euro = '€'.repeat(Math.ceil(MAX_STATE_BYTES / 3) + 10)
    expect(euro.length).toBeLessThan(MAX_STATE_BYTES)
    const res = await send(JSON.stringify({ id: 'size-utf8', state: { note: euro } }))
    expect(res.status).toBe(400)
    expect(String(res.json.result)).toMatch(new RegExp(`${MAX_STATE_BYTES}|${MAX_SEND_STATE_BODY_BYTES}`))
    expect(await stored('size-utf8')).toBeNull()
  })

  it('accepts a state of exactly MAX_STATE_BYTES and refuses one byte more', async () => {
    const wrapper = JSON.stringify({ a: '' }).length
    const exact = { a: 'y'.repeat(MAX_STATE_BYTES - wrapper) }
    expect((await send(JSON.stringify({ id: 'size-exact', state: exact }))).status).toBe(200)
    expect(new TextEncoder().encode((await stored('size-exact'))?.state).byteLength).toBe(MAX_STATE_BYTES)
    const over = { a: 'y'.repeat(MAX_STATE_BYTES - wrapper + 1) }
    const res = await send(JSON.stringify({ id: 'size-over', state: over }))
    expect(res.status).toBe(400)
    expect(res.json.result).toBe(`state is too large (at most ${MAX_STATE_BYTES} bytes)`)
  })

  it('refuses a state nested deeper than MAX_STATE_DEPTH, and a pathological id', async () => {
    const nest = (n: number) => `${'['.repeat(n - 1)}${']'.repeat(n - 1)}`
    const ok = await send(`{"id":"depth-ok","state":{"a":${nest(MAX_STATE_DEPTH)}}}`)
    expect(ok.status).toBe(200)
    const deep = await send(`{"id":"depth-deep","state":{"a":${nest(20_000)}}}`)
    expect(deep.status).toBe(400)
    expect(deep.json.result).toBe(`state nests too deeply (at most ${MAX_STATE_DEPTH} levels)`)
    expect(await stored('depth-deep')).toBeNull()
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
    const sameNet = await send(JSON.stringify({ id: 'v6-same', state: {} }), `${net}:9:8:7:6`)
    expect(sameNet.status).toBe(429)
    expect(sameNet.json.result).toBe(MSG_TOO_MANY_STATES)
    expect(await stored('v6-same')).toBeNull()
    const otherNet = await send(JSON.stringify({ id: 'v6-other', state: {} }), '2001:db8:77:2::1')
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
    const over = await send(JSON.stringify({ id: 'budget-over', state: { a: 'more than ten bytes' } }))
    expect(over.status).toBe(429)
    expect(over.json.result).toBe(MSG_STATE_BUDGET_SPENT)
    expect(await stored('budget-over')).toBeNull()
    await env.DB.prepare("UPDATE rate_limits SET window_start = ? WHERE key = 'state:bytes:day'")
      .bind(now - 86_400_001)
      .run()
    expect((await send(JSON.stringify({ id: 'budget-next-day', state: { a: 1 } }))).status).toBe(200)
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
    expect(await stored('young')).not.toBeNull()
    const plan = await env.DB.prepare(
      "EXPLAIN QUERY PLAN SELECT rowid FROM cart_states WHERE updated_at < '2000-01-01' ORDER BY updated_at LIMIT 5",
    ).all<{ detail: string }>()
    expect(plan.results.map((r) => r.detail).join(' ')).toContain('cart_states_updated_at')
  })

  it('a write prunes now and then (about 1 %): with the dice loaded, the next write prunes', async () => {
    await env.DB.prepare('INSERT INTO cart_states (id, state, updated_at) VALUES (?, ?, ?)')
      .bind('expired-by-write', '{}', magentoDate(Date.now() - (STATE_RETENTION_DAYS + 2) * 86_400_000))
      .run()
    vi.spyOn(Math, 'random').mockReturnValue(0)
    const ctx = createExecutionContext()
    const res = await app.fetch(
      new Request('https://shop.test/api/state/send-state', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'cf-connecting-ip': freshIp() },
        body: JSON.stringify({ id: 'pruning-write', state: { a: 1 } }),
      }),
      env,
      ctx,
    )
    expect(res.status).toBe(200)
    await waitOnExecutionContext(ctx)
    expect(await stored('expired-by-write')).toBeNull()
    expect(await stored('pruning-write')).not.toBeNull()
  })
})
