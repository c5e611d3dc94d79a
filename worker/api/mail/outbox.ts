/**
 * Outbox retries: the rules for when a message the provider did not take is tried again, when it
 * is given up ('dead'), and the scheduled drain that does it for the mail outbox (which also holds
 * the newsletter's confirmation mails) and the conversion-events outbox.
 *
 * - A failed call is retried after 1 min, then 4, 16, 64, 256 min, then every 6 h, at most
 *   OUTBOX_MAX_ATTEMPTS calls in all; the Cron Trigger (every 5 min) is the finest step.
 * - A refusal that a retry cannot change (a 4xx answer other than 408 Request Timeout and 429 Too
 *   Many Requests) is dead at once.
 * - A message older than its outbox's age limit is dead instead of sent late: 72 h for mail (its
 *   links and news are stale by then), 7 days for conversion events (the Conversions API refuses
 *   older events).
 * - Rows waiting for a provider that is not configured ('queued' mail, 'recorded' events) are
 *   left alone; once the provider is configured the drain sends those still within the age limit.
 * - Each send first claims its row with one conditional UPDATE (status 'sending', the claim lapsing
 *   after SEND_CLAIM_MS), so overlapping drains never send a row twice, and a send cut short is
 *   taken up again once its claim lapses. Mail carries an Idempotency-Key unique to its row, so a
 *   provider that honours it drops a repeat of a send whose answer was lost.
 */
import { readConfig } from '../../platform/env'
import { fetchOutbound } from '../../platform/fetch'
import { FB_GRAPH_URL } from '../analytics/routes'
import { magentoDate } from '../user/repo'

/** Most provider calls one message gets. */
export const OUTBOX_MAX_ATTEMPTS = 6
const FIRST_RETRY_MS = 60_000
const LONGEST_PAUSE_MS = 6 * 60 * 60_000
/**
 * How long a claimed row is reserved for its sender before another drain may take it: longer than
 * a whole batch can take (DRAIN_BATCH calls of at most the outbound time-out each).
 */
export const SEND_CLAIM_MS = 10 * 60_000
/** Most rows of one outbox a drain run sends (the rest wait for the next trigger). */
const DRAIN_BATCH = 50
const MAIL_MAX_AGE_MS = 72 * 60 * 60_000
const EVENT_MAX_AGE_MS = 7 * 24 * 60 * 60_000
/** The longest provider answer kept in an outbox row. */
const MAX_KEPT_RESPONSE_CHARS = 500

/** The pause before the next call after `attempts` failed calls. */
export function retryPause(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 4 ** Math.max(0, attempts - 1), LONGEST_PAUSE_MS)
}

/** What one provider call gave: taken (2xx), or refused/unanswered with the HTTP status if any. */
interface CallOutcome {
  ok: boolean
  httpStatus: number | null
  response: string
}

/** Calls a provider and reports the outcome; never throws. */
export async function callProvider(service: string, url: string, init: RequestInit): Promise<CallOutcome> {
  try {
    const res = await fetchOutbound(service, url, init)
    const text = await res.text()
    return {
      ok: res.ok,
      httpStatus: res.status,
      response: `${res.status} ${text.slice(0, MAX_KEPT_RESPONSE_CHARS)}`,
    }
  } catch (err) {
    return { ok: false, httpStatus: null, response: String(err).slice(0, MAX_KEPT_RESPONSE_CHARS) }
  }
}

/** A refusal no retry can change: a 4xx answer except 408 and 429. */
const permanent = (status: number | null) =>
  status !== null && status >= 400 && status < 500 && status !== 408 && status !== 429

/**
 * The outbox tables; the courier's (shipments being booked) is drained by worker/fulfilment/book.ts,
 * the WhatsApp messages' by worker/messages/send.ts.
 */
type Outbox = 'mail_outbox' | 'analytics_outbox' | 'courier_outbox' | 'message_outbox'

/** Records the outcome of the call made for a claimed row: sent, failed (with its next time) or dead. */
export async function settleRow(...row: Parameters<typeof settlement>): Promise<'sent' | 'failed' | 'dead'> {
  const { statement, status } = settlement(...row)
  await statement.run()
  return status
}

/** The status a call's outcome gives an outbox row, and the statement that records it. */
export function settlement(
  db: D1Database,
  table: Outbox,
  id: number,
  attempts: number,
  outcome: CallOutcome,
  now: number,
): { statement: D1PreparedStatement; status: 'sent' | 'failed' | 'dead' } {
  const status = outcome.ok
    ? 'sent'
    : permanent(outcome.httpStatus) || attempts >= OUTBOX_MAX_ATTEMPTS
      ? 'dead'
      : 'failed'
  const next = status === 'failed' ? now + retryPause(attempts) : 0
  const statement = db
    .prepare(`UPDATE ${table} SET status = ?1, provider_response = ?2, next_attempt_at = ?3 WHERE id = ?4`)
    .bind(status, outcome.response, next, id)
  return { statement, status }
}

/** The mail provider's endpoint and key, when both are configured. */
export function mailProvider(env: Env): { url: string; key: string } | null {
  return env.MAIL_PROVIDER_URL && env.MAIL_PROVIDER_KEY
    ? { url: env.MAIL_PROVIDER_URL, key: env.MAIL_PROVIDER_KEY }
    : null
}

/**
 * The idempotency key of an outbox mail: the environment, the row id and its creation time, so
 * two databases sharing one provider account (staging and production, or a database restored to
 * an earlier point, which hands out the same ids again) never share a key.
 */
export function mailIdempotencyKey(env: Env, id: number, createdAt: string): string {
  return `mail/${readConfig(env).ENVIRONMENT}/${id}/${createdAt.replace(/\D/g, '')}`
}

/** One call of the mail provider's JSON API, under `idempotencyKey`. */
export function sendMailCall(
  provider: { url: string; key: string },
  idempotencyKey: string,
  mail: {
    from: string
    to: string
    replyTo?: string
    subject: string
    text: string
    /** The HTML part, when the mail has one (the text part is always sent). */
    html?: string | null
    headers?: Record<string, string>
  },
): Promise<CallOutcome> {
  return callProvider('Mail provider', provider.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${provider.key}`,
      'idempotency-key': idempotencyKey,
    },
    body: JSON.stringify({
      from: mail.from,
      to: mail.to,
      reply_to: mail.replyTo,
      subject: mail.subject,
      text: mail.text,
      html: mail.html ?? undefined,
      headers: mail.headers,
    }),
  })
}

type Tally = Record<'sent' | 'failed' | 'dead', number>
const tally = (): Tally => ({ sent: 0, failed: 0, dead: 0 })

/** Marks rows past the age limit dead; returns how many. */
async function expireOld(db: D1Database, table: Outbox, statuses: string, maxAgeMs: number, now: number) {
  const res = await db
    .prepare(
      `UPDATE ${table} SET status = 'dead', next_attempt_at = 0,
         provider_response = substr(COALESCE(provider_response || ' | ', '') || ?1, 1, 600)
       WHERE status IN (${statuses}) AND created_at < ?2`,
    )
    .bind(`not delivered within ${Math.round(maxAgeMs / 3_600_000)} h`, magentoDate(now - maxAgeMs))
    .run()
  return res.meta.changes ?? 0
}

/** Claims up to DRAIN_BATCH due rows (one statement: overlapping drains never share a row). */
export async function claimDue<T>(
  db: D1Database,
  table: Outbox,
  statuses: string,
  columns: string,
  now: number,
) {
  const { results } = await db
    .prepare(
      `UPDATE ${table} SET status = 'sending', attempts = attempts + 1, next_attempt_at = ?1
       WHERE id IN (SELECT id FROM ${table} WHERE status IN (${statuses}) AND next_attempt_at <= ?2
                    ORDER BY next_attempt_at, id LIMIT ?3)
         AND status IN (${statuses}) AND next_attempt_at <= ?2
       RETURNING id, attempts, ${columns}`,
    )
    .bind(now + SEND_CLAIM_MS, now, DRAIN_BATCH)
    .all<T & { id: number; attempts: number }>()
  return results
}

/**
 * One scheduled pass over an outbox: its rows older than `box.maxAgeMs` are marked dead, then the
 * due ones (up to DRAIN_BATCH) are claimed with `box.columns` and each is handed to `send`, which
 * records its outcome; returns how many were sent, failed and died.
 */
export async function drainOutbox<Row extends { id: number; attempts: number }>(
  db: D1Database,
  box: OutboxDrain,
  now: number,
  send: (row: Row) => Promise<keyof Tally>,
): Promise<Tally> {
  const out = tally()
  out.dead += await expireOld(db, box.table, box.retryable, box.maxAgeMs, now)
  const rows = await claimDue<Omit<Row, 'id' | 'attempts'>>(db, box.table, box.retryable, box.columns, now)
  for (const row of rows) out[await send(row as Row)]++
  return out
}

/**
 * How an outbox is drained: its table, the statuses a row is retried in, the columns a claimed row
 * is sent from, and the age past which a row is dead instead of sent late.
 */
export interface OutboxDrain {
  table: Outbox
  retryable: string
  columns: string
  maxAgeMs: number
}

const MAIL_RETRYABLE = `'queued', 'sending', 'failed'`
const EVENT_RETRYABLE = `'recorded', 'sending', 'failed'`

/** The columns a claimed mail row is sent from. */
const MAIL_COLUMNS = 'from_address, created_at, source_address, target_address, subject, body, html, headers'
/** How each outbox an operator sees is drained and retried. */
const DRAINS: Record<OutboxName, OutboxDrain> = {
  mail: { table: 'mail_outbox', retryable: MAIL_RETRYABLE, columns: MAIL_COLUMNS, maxAgeMs: MAIL_MAX_AGE_MS },
  analytics: {
    table: 'analytics_outbox',
    retryable: EVENT_RETRYABLE,
    columns: 'payload',
    maxAgeMs: EVENT_MAX_AGE_MS,
  },
}

interface MailRow {
  id: number
  attempts: number
  from_address: string | null
  created_at: string
  source_address: string
  target_address: string
  subject: string
  body: string
  /** The HTML part, or null for a plain-text mail. */
  html: string | null
  /** Extra headers as a JSON object, or null. */
  headers: string | null
}

/** Sends one claimed mail row and records the outcome on it (sent, failed with its next time, dead). */
async function sendClaimedMail(
  env: Env,
  provider: { url: string; key: string },
  row: MailRow,
  now: number,
): Promise<'sent' | 'failed' | 'dead'> {
  const from = row.from_address ?? readConfig(env).SUPPORT_EMAIL
  const outcome = await sendMailCall(provider, mailIdempotencyKey(env, row.id, row.created_at), {
    from,
    to: row.target_address,
    replyTo: row.source_address !== from ? row.source_address : undefined,
    subject: row.subject,
    text: row.body,
    html: row.html,
    headers: row.headers ? (JSON.parse(row.headers) as Record<string, string>) : undefined,
  })
  return settleRow(env.DB, 'mail_outbox', row.id, row.attempts, outcome, now)
}

/** A claimed conversion event: the Conversions API's request body, as recorded. */
interface EventRow {
  id: number
  attempts: number
  payload: string
}

/** Sends one claimed conversion event to Meta's Conversions API and records the outcome on its row. */
async function sendClaimedEvent(
  env: Env,
  pixel: { id: string; token: string },
  row: EventRow,
  now: number,
): Promise<'sent' | 'failed' | 'dead'> {
  const outcome = await callProvider(
    'Conversions API',
    `${FB_GRAPH_URL}/${encodeURIComponent(pixel.id)}/events`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: [JSON.parse(row.payload)], access_token: pixel.token }),
    },
  )
  return settleRow(env.DB, 'analytics_outbox', row.id, row.attempts, outcome, now)
}

/** The Conversions API credentials, or null when events are only recorded. */
function conversionsPixel(env: Env): { id: string; token: string } | null {
  return env.FB_PIXEL_ID && env.FB_ACCESS_TOKEN ? { id: env.FB_PIXEL_ID, token: env.FB_ACCESS_TOKEN } : null
}

/** The outboxes an operator can retry a row of. */
export type OutboxName = 'mail' | 'analytics'

/**
 * An operator's retry of one failed or dead row of an outbox: the row is claimed (so a drain or a
 * second retry never sends it as well), its attempts start again, and it is sent now through the
 * same call the drain makes. 'no provider' when the outbox has nowhere to send to; null when the
 * row is not failed or dead (or does not exist).
 */
export async function retryOutboxRow(
  env: Env,
  box: OutboxName,
  id: number,
  now: number,
): Promise<{ status: 'sent' | 'failed' | 'dead'; providerResponse: string | null } | null | 'no provider'> {
  const { table, columns } = DRAINS[box]
  const mail = box === 'mail' ? mailProvider(env) : null
  const pixel = box === 'analytics' ? conversionsPixel(env) : null
  if (!mail && !pixel) return 'no provider'
  const claim = env.DB.prepare(
    `UPDATE ${table} SET status = 'sending', attempts = 1, next_attempt_at = ?2
     WHERE id = ?1 AND status IN ('failed', 'dead')
     RETURNING id, attempts, ${columns}`,
  ).bind(id, now + SEND_CLAIM_MS)
  let status: 'sent' | 'failed' | 'dead'
  if (mail) {
    const row = await claim.first<MailRow>()
    if (!row) return null
    status = await sendClaimedMail(env, mail, row, now)
  } else {
    const row = await claim.first<EventRow>()
    if (!row || !pixel) return null
    status = await sendClaimedEvent(env, pixel, row, now)
  }
  const after = await env.DB.prepare(`SELECT provider_response FROM ${table} WHERE id = ?`)
    .bind(id)
    .first<{ provider_response: string | null }>()
  return { status, providerResponse: after?.provider_response ?? null }
}

/** The scheduled drain: retries due mail and conversion events; returns what it did, per outbox. */
export async function drainOutboxes(env: Env, now: number) {
  const mail = mailProvider(env)
  const pixel = conversionsPixel(env)
  return {
    mail: mail
      ? await drainOutbox(env.DB, DRAINS.mail, now, (row: MailRow) => sendClaimedMail(env, mail, row, now))
      : ('no provider' as const),
    analytics: pixel
      ? await drainOutbox(env.DB, DRAINS.analytics, now, (row: EventRow) =>
          sendClaimedEvent(env, pixel, row, now),
        )
      : ('no provider' as const),
  }
}
