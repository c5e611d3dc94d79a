/**
 * What the WhatsApp webhook's notifications do, once their signature has been checked:
 * - statuses (sent, delivered, read, failed) of our messages: each message keeps the furthest
 *   state reported (sent < delivered < read). 'failed' replaces only 'sent' or nothing; a
 *   delivered or read reported after it proves the message arrived and replaces it. Meta delivers
 *   statuses out of order and more than once, so a repeat or an older state changes nothing.
 * - a quick-reply button: its payload (ours, with a mac: ./actions.ts) says what to do, and the
 *   reply must come from the phone the order's messages go to. Each inbound message is acted on
 *   once (its id is remembered), so a redelivered or replayed notification does nothing again.
 * - a text "STOP" (or unsubscribe / opt out) opts the phone out; "START" opts it back in.
 */
import { z } from 'zod'
import { orderEventStatement } from '../api/order/lifecycle'
import { findOrderByAnyId } from '../api/order/repo'
import { remember, seen } from '../api/payment/webhooks'
import { answerNdr, parcelToRedeliver } from '../fulfilment/ndr-action'
import type { AppConfig } from '../platform/env'
import { readButtonPayload } from './actions'
import { shopperCancels, shopperConfirms } from './cod'
import { orderPhone, setConsent } from './consent'

const id = z.string().min(1).max(200)
const Status = z.object({
  id,
  status: z.enum(['sent', 'delivered', 'read', 'failed']),
  timestamp: z.string().max(20).optional(),
  recipient_id: z.string().max(30).optional(),
  errors: z
    .array(z.object({ code: z.number().optional(), title: z.string().max(300).optional() }))
    .optional(),
})
const Inbound = z.object({
  from: z.string().max(30),
  id,
  type: z.string().max(30),
  button: z.object({ payload: z.string().max(300), text: z.string().max(100).optional() }).optional(),
  text: z.object({ body: z.string().max(4096) }).optional(),
})
/** The notification, read leniently: a field the shop does not know about is ignored. */
export const Notification = z.object({
  object: z.string().max(100),
  entry: z
    .array(
      z.object({
        changes: z
          .array(
            z.object({
              field: z.string().max(100),
              value: z.object({
                statuses: z.array(z.unknown()).max(100).optional(),
                messages: z.array(z.unknown()).max(100).optional(),
              }),
            }),
          )
          .max(50),
      }),
    )
    .max(50),
})

/** The most statuses and messages one notification is acted on for (Meta sends a few at a time). */
const MAX_ITEMS = 100

const RANK: Record<string, number> = { sent: 1, failed: 2, delivered: 3, read: 4 }
const STOP_WORDS = /^\s*(stop|unsubscribe|opt[ -]?out|stop all)\s*[.!]*\s*$/i
const START_WORDS = /^\s*(start|subscribe|opt[ -]?in)\s*[.!]*\s*$/i

/** Records a message's status when it is further than what is known (compare-and-set). */
async function applyStatus(db: D1Database, s: z.infer<typeof Status>, now: number): Promise<boolean> {
  const row = await db
    .prepare('SELECT delivery_status FROM message_outbox WHERE provider_message_id = ?')
    .bind(s.id)
    .first<{ delivery_status: string | null }>()
  if (!row) return false
  const current = row.delivery_status
  if ((RANK[s.status] ?? 0) <= (current ? (RANK[current] ?? 0) : 0)) return false
  const error =
    s.status === 'failed'
      ? (s.errors?.map((e) => `${e.code ?? ''} ${e.title ?? ''}`.trim()).join('; ') ?? '')
      : null
  const res = await db
    .prepare(
      `UPDATE message_outbox SET delivery_status = ?1, delivery_error = ?2, delivery_at = ?3
       WHERE provider_message_id = ?4 AND delivery_status IS ?5`,
    )
    .bind(s.status, error?.slice(0, 300) ?? null, now, s.id, current)
    .run()
  return res.meta.changes === 1
}

/**
 * "Deliver again" after a failed delivery: the courier is asked for another attempt at once (the
 * same one answer per attempt as the back office's); when it cannot be asked (already answered,
 * no failed delivery, the courier refusing), the request is left in the order's history for the
 * operator. Either way the order's history says what the shopper asked and what was done.
 */
async function shopperAsksRedelivery(env: Env, orderId: string, now: number): Promise<string> {
  const answered = await answerNdr(
    env,
    await parcelToRedeliver(env.DB, orderId),
    're-attempt',
    'The shopper asked on WhatsApp for another attempt',
    now,
  )
  const text = answered.ok
    ? `The shopper asked on WhatsApp for another delivery attempt; the courier was asked to deliver ${answered.shipment.awb} again.`
    : `The shopper asked on WhatsApp for another delivery attempt; the courier was not asked: ${answered.message}`
  await orderEventStatement(env.DB, orderId, { kind: 'note', actor: 'shopper', detail: { text } }, now).run()
  return answered.ok ? 'redeliver-asked' : 'redeliver'
}

/** Acts on one inbound message (a button press or a text); returns what it did. */
async function applyInbound(
  env: Env,
  config: AppConfig,
  m: z.infer<typeof Inbound>,
  now: number,
): Promise<string> {
  const db = env.DB
  if (await seen(db, 'whatsapp', m.id)) return 'duplicate'
  let outcome = 'ignored'
  if (m.type === 'button' && m.button) {
    const asked = await readButtonPayload(env, config, m.button.payload)
    const order = asked ? await findOrderByAnyId(db, asked.number) : null
    if (!asked || !order) outcome = 'unknown-button'
    else if ((await orderPhone(db, order.client_order_id)) !== m.from) outcome = 'not-this-phone'
    else if (asked.action === 'confirm')
      outcome = await shopperConfirms(env, order.client_order_id, 'WhatsApp', now)
    else if (asked.action === 'cancel')
      outcome = await shopperCancels(env, config, order.client_order_id, 'WhatsApp', now)
    else if (asked.action === 'redeliver')
      outcome = await shopperAsksRedelivery(env, order.client_order_id, now)
    else {
      // "Call me" is for the operator, who calls and arranges the delivery with the courier.
      await orderEventStatement(
        db,
        order.client_order_id,
        {
          kind: 'note',
          actor: 'shopper',
          detail: { text: 'The shopper asked on WhatsApp to be called about the delivery.' },
        },
        now,
      ).run()
      outcome = asked.action
    }
  } else if (m.type === 'text' && m.text) {
    if (STOP_WORDS.test(m.text.body)) {
      await setConsent(db, m.from, false, 'reply', null, now).run()
      outcome = 'opted-out'
    } else if (START_WORDS.test(m.text.body)) {
      await setConsent(db, m.from, true, 'reply', null, now).run()
      outcome = 'opted-in'
    }
  }
  await remember(db, 'whatsapp', m.id, `${m.type}:${outcome}`, now)
  return outcome
}

/** Applies a verified notification; returns what each status and message did, in order. */
export async function applyNotification(
  env: Env,
  config: AppConfig,
  n: z.infer<typeof Notification>,
  now: number,
): Promise<string[]> {
  const done: string[] = []
  for (const entry of n.entry)
    for (const change of entry.changes) {
      if (change.field !== 'messages' || done.length >= MAX_ITEMS) continue
      for (const raw of (change.value.statuses ?? []).slice(0, MAX_ITEMS - done.length)) {
        const s = Status.safeParse(raw)
        done.push(
          s.success
            ? (await applyStatus(env.DB, s.data, now))
              ? `status:${s.data.status}`
              : 'status:kept'
            : 'status:unreadable',
        )
      }
      for (const raw of (change.value.messages ?? []).slice(0, Math.max(0, MAX_ITEMS - done.length))) {
        const m = Inbound.safeParse(raw)
        done.push(m.success ? await applyInbound(env, config, m.data, now) : 'message:unreadable')
      }
    }
  return done
}
