// Outbox retries: a mail or conversion event the provider did not take is tried again by the
// scheduled drain with growing pauses, never twice at once, and ends 'dead' when it cannot be
// delivered (a refusal no retry changes, too many attempts, too old).
import { env } from 'cloudflare:test'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { deliverMail } from '../../../../worker/api/mail/deliver'
import { drainOutboxes, OUTBOX_MAX_ATTEMPTS, retryPause } from '../../../../worker/api/mail/outbox'
import { runCron } from '../../../helpers/in-isolate'
import { MAIL_API_URL, mailApiStandIn } from './mail-provider-stand-in'

const KEY = 'mail-key-for-retries'
const withMail = { MAIL_PROVIDER_URL: MAIL_API_URL, MAIL_PROVIDER_KEY: KEY }
let standIn: ReturnType<typeof mailApiStandIn>
let fbCalls: { url: string; body: unknown }[]
let fbAnswers: number[]

beforeEach(async () => {
  await env.DB.prepare('DELETE FROM mail_outbox').run()
  await env.DB.prepare('DELETE FROM analytics_outbox').run()
  standIn = mailApiStandIn(KEY)
  fbCalls = []
  fbAnswers = []
  const real = globalThis.fetch
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const req = new Request(input, init)
    if (req.url === MAIL_API_URL) return standIn.fetch(req)
    if (req.url.startsWith('https://graph.facebook.com/')) {
      fbCalls.push({ url: req.url, body: await req.json() })
      const status = fbAnswers.shift() ?? 200
      return Response.json({ events_received: status === 200 ? 1 : 0 }, { status })
    }
    return real(input, init)
  })
})
afterEach(() => vi.restoreAllMocks())

const mail = (subject: string) => ({
  kind: 'retry-test',
  from: 'care@ode-atelier.example',
  to: 'shopper@example.com',
  subject,
  text: 'Hello',
})
const rowOf = (subject: string) =>
  env.DB.prepare(
    'SELECT id, status, attempts, next_attempt_at, provider_response FROM mail_outbox WHERE subject = ?',
  )
    .bind(subject)
    .first<{
      id: number
      status: string
      attempts: number
      next_attempt_at: number
      provider_response: string
    }>()
const mailEnv = (vars: Record<string, unknown> = withMail) => ({ ...env, ...vars }) as Env

describe('mail outbox retries', () => {
  it('retries a failed mail after its pause, with the same idempotency key, until it is sent', async () => {
    const t0 = Date.UTC(2026, 10, 24, 10, 0, 0)
    standIn.script = [503, 'hang']
    expect(await deliverMail(mailEnv(), mail('flaky'), t0)).toBe('failed')
    const first = await rowOf('flaky')
    expect(first).toMatchObject({ status: 'failed', attempts: 1, next_attempt_at: t0 + retryPause(1) })

    // Not due yet: the drain leaves it alone.
    expect(await drainOutboxes(mailEnv(), t0 + retryPause(1) - 1)).toMatchObject({
      mail: { sent: 0, failed: 0, dead: 0 },
    })
    // Due: the provider does not answer this time (time-out) — failed again, longer pause.
    const t1 = t0 + retryPause(1)
    expect((await drainOutboxes(mailEnv(), t1)).mail).toEqual({ sent: 0, failed: 1, dead: 0 })
    expect(await rowOf('flaky')).toMatchObject({
      status: 'failed',
      attempts: 2,
      next_attempt_at: t1 + retryPause(2),
    })
    expect(retryPause(2)).toBeGreaterThan(retryPause(1))
    // Due again: the provider takes it.
    const t2 = t1 + retryPause(2)
    expect((await drainOutboxes(mailEnv(), t2)).mail).toEqual({ sent: 1, failed: 0, dead: 0 })
    expect(await rowOf('flaky')).toMatchObject({ status: 'sent', attempts: 3 })
    expect(standIn.accepted).toHaveLength(1)
    expect(standIn.accepted[0]?.idempotencyKey).toBe(`mail/test/${first?.id}/20261124100000`)
    // Sent rows are never sent again.
    expect((await drainOutboxes(mailEnv(), t2 + 86_400_000)).mail).toEqual({ sent: 0, failed: 0, dead: 0 })
  }, 20000)

  it('gives up after the last attempt and on a refusal no retry can change', async () => {
    const t0 = Date.UTC(2026, 10, 24, 11, 0, 0)
    standIn.script = Array(OUTBOX_MAX_ATTEMPTS).fill(500)
    await deliverMail(mailEnv(), mail('always-500'), t0)
    let t = t0
    for (let i = 1; i < OUTBOX_MAX_ATTEMPTS; i++) {
      t += retryPause(i)
      await drainOutboxes(mailEnv(), t)
    }
    expect(await rowOf('always-500')).toMatchObject({ status: 'dead', attempts: OUTBOX_MAX_ATTEMPTS })
    expect(standIn.calls).toBe(OUTBOX_MAX_ATTEMPTS)
    await drainOutboxes(mailEnv(), t + 7 * 86_400_000)
    expect(standIn.calls).toBe(OUTBOX_MAX_ATTEMPTS)

    // A wrong key (401) is dead at once; a rate limit (429) is retried.
    await deliverMail(mailEnv({ ...withMail, MAIL_PROVIDER_KEY: 'wrong' }), mail('bad-key'), t0)
    expect(await rowOf('bad-key')).toMatchObject({ status: 'dead', attempts: 1 })
    standIn.script = [429]
    await deliverMail(mailEnv(), mail('rate-limited'), t0)
    expect(await rowOf('rate-limited')).toMatchObject({ status: 'failed' })
  })

  it('sends mail queued while no provider was configured once one is, unless it is older than 72 h', async () => {
    const now = Date.UTC(2026, 10, 24, 12, 0, 0)
    expect(await deliverMail(mailEnv({}), mail('queued-fresh'), now - 3_600_000)).toBe('queued')
    expect(await deliverMail(mailEnv({}), mail('queued-stale'), now - 73 * 3_600_000)).toBe('queued')
    // No provider: the drain touches nothing.
    expect((await drainOutboxes(mailEnv({}), now)).mail).toBe('no provider')
    expect(await rowOf('queued-fresh')).toMatchObject({ status: 'queued', attempts: 0 })
    const drained = await drainOutboxes(mailEnv(), now)
    expect(drained.mail).toEqual({ sent: 1, failed: 0, dead: 1 })
    expect(await rowOf('queued-fresh')).toMatchObject({ status: 'sent', attempts: 1 })
    expect(await rowOf('queued-stale')).toMatchObject({ status: 'dead', attempts: 0 })
    expect((await rowOf('queued-stale'))?.provider_response).toContain('not delivered within 72 h')
    expect(standIn.accepted.map((m) => m.subject)).toEqual(['queued-fresh'])
  })

  it('never sends a row twice when drains overlap, and takes up a send cut short once its claim lapses', async () => {
    const now = Date.UTC(2026, 10, 24, 13, 0, 0)
    for (let i = 0; i < 5; i++) await deliverMail(mailEnv({}), mail(`burst-${i}`), now)
    const results = await Promise.all(Array.from({ length: 4 }, () => drainOutboxes(mailEnv(), now)))
    const sent = results.reduce((s, r) => s + (typeof r.mail === 'object' ? r.mail.sent : 0), 0)
    expect(sent).toBe(5)
    expect(standIn.accepted.map((m) => m.subject).sort()).toEqual([0, 1, 2, 3, 4].map((i) => `burst-${i}`))

    // A send whose isolate died between claim and answer: 'sending' with a lapsed claim.
    await deliverMail(mailEnv({}), mail('cut-short'), now)
    await env.DB.prepare(
      "UPDATE mail_outbox SET status = 'sending', attempts = 1, next_attempt_at = ? WHERE subject = 'cut-short'",
    )
      .bind(now + 60_000)
      .run()
    expect((await drainOutboxes(mailEnv(), now)).mail).toMatchObject({ sent: 0 })
    expect((await drainOutboxes(mailEnv(), now + 60_000)).mail).toMatchObject({ sent: 1 })
    expect(await rowOf('cut-short')).toMatchObject({ status: 'sent', attempts: 2 })
  })

  it('runs from the Cron Trigger', async () => {
    const now = Date.now()
    await deliverMail(mailEnv({}), mail('from-cron'), now)
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    await runCron(now, mailEnv())
    expect(await rowOf('from-cron')).toMatchObject({ status: 'sent' })
    const line = log.mock.calls.map((c) => String(c[0])).find((l) => l.includes('drain-outboxes'))
    expect(JSON.parse(line as string).result.mail).toEqual({ sent: 1, failed: 0, dead: 0 })
  })
})

describe('conversion events outbox retries', () => {
  const fb = { FB_PIXEL_ID: '1234', FB_ACCESS_TOKEN: 'fb-token' }
  const record = (eventId: string, status: string, createdAt: number) =>
    env.DB.prepare(
      `INSERT INTO analytics_outbox (event_name, event_id, payload, status, provider_response, created_at)
       VALUES ('Purchase', ?, ?, ?, NULL, ?)`,
    )
      .bind(
        eventId,
        JSON.stringify({ event_name: 'Purchase', event_id: eventId }),
        status,
        new Date(createdAt).toISOString().slice(0, 19).replace('T', ' '),
      )
      .run()

  it('resends failed and recorded events once the Conversions API is configured; older than 7 days are dead', async () => {
    const now = Date.UTC(2026, 10, 24, 14, 0, 0)
    await record('ev-failed', 'failed', now - 60_000)
    await record('ev-recorded', 'recorded', now - 86_400_000)
    await record('ev-old', 'failed', now - 8 * 86_400_000)
    expect((await drainOutboxes(mailEnv({}), now)).analytics).toBe('no provider')
    fbAnswers = [200, 500]
    const result = await drainOutboxes(mailEnv(fb), now)
    expect(result.analytics).toEqual({ sent: 1, failed: 1, dead: 1 })
    expect(fbCalls.map((c) => (c.body as { data: { event_id: string }[] }).data[0]?.event_id)).toEqual([
      'ev-failed',
      'ev-recorded',
    ])
    expect(fbCalls[0]?.url).toBe('https://graph.facebook.com/v19.0/1234/events')
    const statuses = (
      await env.DB.prepare('SELECT event_id, status FROM analytics_outbox ORDER BY event_id').all()
    ).results
    expect(statuses).toEqual([
      { event_id: 'ev-failed', status: 'sent' },
      { event_id: 'ev-old', status: 'dead' },
      { event_id: 'ev-recorded', status: 'failed' },
    ])
  })
})
