/**
 * Sending WhatsApp template messages through the message outbox, with the mail outbox's rules
 * (worker/api/mail/outbox.ts: claim, retry pauses, dead after a permanent refusal or too many
 * tries, an age limit). A message is recorded first and then sent, so a send cut short is retried.
 * Consent is checked when the message is recorded AND again when it is sent: a STOP that arrives
 * while a message waits for a retry stops it. Without WhatsApp configured messages are not
 * recorded at all (mail is the channel then).
 */
import { callProvider, drainOutbox, type OutboxDrain, SEND_CLAIM_MS, settleRow } from '../api/mail/outbox'
import { magentoDate } from '../api/user/repo'
import { type WhatsAppConfig, whatsappConfig } from './config'
import { hasConsent } from './consent'
import type { TemplateName } from './templates'
import { sentMessageId, type TemplateSend, templateRequest } from './whatsapp'

/** How the message outbox is drained. */
const MESSAGE_DRAIN: OutboxDrain = {
  table: 'message_outbox',
  retryable: `'queued', 'sending', 'failed'`,
  columns: 'target_phone, payload',
  /**
   * Order updates older than a day are dead instead of sent late (a "shipped" a day late misleads);
   * it also bounds how long a message waits for a provider that answers 429.
   */
  maxAgeMs: 24 * 60 * 60_000,
}

interface MessageRow {
  id: number
  attempts: number
  target_phone: string
  payload: string
}

type Outcome = 'sent' | 'failed' | 'dead'

/** Sends one claimed row (consent checked again first) and records the outcome on it. */
async function sendClaimed(env: Env, cfg: WhatsAppConfig, row: MessageRow, now: number): Promise<Outcome> {
  if (!(await hasConsent(env.DB, row.target_phone))) {
    await env.DB.prepare(
      `UPDATE message_outbox SET status = 'dead', next_attempt_at = 0, provider_response = 'not sent: the shopper opted out' WHERE id = ?`,
    )
      .bind(row.id)
      .run()
    return 'dead'
  }
  const req = templateRequest(cfg, row.target_phone, JSON.parse(row.payload) as TemplateSend)
  const outcome = await callProvider('WhatsApp', req.url, req.init)
  const status = await settleRow(env.DB, 'message_outbox', row.id, row.attempts, outcome, now)
  if (status === 'sent') {
    const wamid = sentMessageId(outcome.response.replace(/^\d+ /, ''))
    if (wamid)
      await env.DB.prepare('UPDATE message_outbox SET provider_message_id = ? WHERE id = ?')
        .bind(wamid, row.id)
        .run()
  }
  return status
}

type QueueOutcome = 'sent' | 'failed' | 'no-consent' | 'duplicate' | 'not-configured'

/**
 * Records a template message to `phone` and sends it at once. Nothing is recorded without
 * WhatsApp configured or without the phone's consent; a second message with the same dedupe key
 * (the same event of the same order) is not recorded again.
 */
export async function queueMessage(
  env: Env,
  msg: { phone: string; orderId: string | null; send: TemplateSend; dedupeKey: string },
  now: number,
): Promise<QueueOutcome> {
  const cfg = whatsappConfig(env)
  if (!cfg) return 'not-configured'
  if (!(await hasConsent(env.DB, msg.phone))) return 'no-consent'
  const row = await env.DB.prepare(
    `INSERT INTO message_outbox (kind, target_phone, client_order_id, payload, dedupe_key, status, attempts,
       next_attempt_at, created_at)
     VALUES (?, ?, ?, ?, ?, 'sending', 1, ?, ?) ON CONFLICT(dedupe_key) DO NOTHING RETURNING id`,
  )
    .bind(
      msg.send.template satisfies TemplateName,
      msg.phone,
      msg.orderId,
      JSON.stringify(msg.send),
      msg.dedupeKey,
      now + SEND_CLAIM_MS,
      magentoDate(now),
    )
    .first<{ id: number }>()
  if (!row) return 'duplicate'
  const status = await sendClaimed(
    env,
    cfg,
    { id: row.id, attempts: 1, target_phone: msg.phone, payload: JSON.stringify(msg.send) },
    now,
  )
  return status === 'sent' ? 'sent' : 'failed'
}

/** The scheduled drain of the message outbox: retries what is due. */
export async function drainMessageOutbox(env: Env, now: number) {
  const cfg = whatsappConfig(env)
  if (!cfg) return 'no provider'
  return drainOutbox(env.DB, MESSAGE_DRAIN, now, (row: MessageRow) => sendClaimed(env, cfg, row, now))
}
