/**
 * Cart reminders: a shopper who said yes to them and left an active cart with items gets one
 * reminder REMINDER_DELAYS_MS[0] after the cart's last snapshot (POST /api/state/send-state) and
 * one after REMINDER_DELAYS_MS[1]: never more than two per cart (cart_reminders' CHECK), none once
 * the cart became an order (it is no longer active) or the shopper ordered since, none after the
 * consent was withdrawn. Each carries a signed link back to the cart valid for RESTORE_LINK_DAYS.
 * - A signed-in shopper says yes in their account (reminder_consent); a reminder goes by WhatsApp
 *   when their phone is opted in, else by mail.
 * - A guest says yes at checkout for their own cart with the e-mail typed there
 *   (guest_reminder_consent, ./guest-reminders.ts); a reminder goes by mail with a signed link
 *   that stops them, and none goes to an address that stopped them or ordered since.
 *
 * A run sends at most REMINDER_BATCH reminders; each is claimed with one conditional write
 * before it is sent, so overlapping runs never send a reminder twice.
 */

import { deliverMail } from '../api/mail/deliver'
import { magentoDate } from '../api/user/repo'
import type { AppConfig } from '../platform/env'
import { stopLink } from './guest-reminders'
import { queueMessage } from './send'
import { signedLink, signedLinkSubject } from './signed-link'

const REMINDER_DELAYS_MS = [3600_000, 24 * 3600_000] as const
const REMINDER_BATCH = 50
const RESTORE_LINK_DAYS = 7

interface DueCart {
  cart_id: number
  /** 1 for a guest's cart (consent given at checkout), 0 for a customer's. */
  guest: number
  email: string
  sent_count: number | null
  items: number
  phone: string | null
}

/** Carts due a reminder at `now` (see above). */
async function dueCarts(db: D1Database, now: number): Promise<DueCart[]> {
  const { results } = await db
    .prepare(
      `SELECT c.id AS cart_id, 0 AS guest, cu.email, r.sent_count, cs.updated_at AS left_at,
         (SELECT SUM(qty) FROM cart_items WHERE cart_id = c.id) AS items,
         (SELECT phone FROM message_consent WHERE customer_id = c.customer_id AND opted_in = 1
            ORDER BY updated_at DESC LIMIT 1) AS phone
       FROM cart_states cs
       JOIN carts c ON c.id = CAST(cs.id AS INTEGER) AND c.is_active = 1 AND c.customer_id IS NOT NULL
       JOIN customers cu ON cu.id = c.customer_id
       JOIN reminder_consent rc ON rc.customer_id = c.customer_id AND rc.opted_in = 1
       LEFT JOIN cart_reminders r ON r.cart_id = c.id
       WHERE EXISTS (SELECT 1 FROM cart_items WHERE cart_id = c.id)
         AND ((r.cart_id IS NULL AND cs.updated_at <= ?1) OR (r.sent_count = 1 AND cs.updated_at <= ?2))
         AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.customer_id AND o.created_at >= cs.updated_at)
       UNION ALL
       SELECT c.id, 1, g.email, r.sent_count, cs.updated_at,
         (SELECT SUM(qty) FROM cart_items WHERE cart_id = c.id), NULL
       FROM guest_reminder_consent g
       JOIN cart_states cs ON cs.id = CAST(g.cart_id AS TEXT)
       JOIN carts c ON c.id = g.cart_id AND c.is_active = 1 AND c.customer_id IS NULL
       LEFT JOIN cart_reminders r ON r.cart_id = c.id
       WHERE g.opted_in = 1
         AND NOT EXISTS (SELECT 1 FROM reminder_stopped s WHERE s.email = g.email)
         AND EXISTS (SELECT 1 FROM cart_items WHERE cart_id = c.id)
         AND ((r.cart_id IS NULL AND cs.updated_at <= ?1) OR (r.sent_count = 1 AND cs.updated_at <= ?2))
         AND NOT EXISTS (SELECT 1 FROM orders o
                         WHERE o.customer_email = g.email COLLATE NOCASE AND o.created_at >= cs.updated_at)
       ORDER BY left_at LIMIT ?3`,
    )
    .bind(magentoDate(now - REMINDER_DELAYS_MS[0]), magentoDate(now - REMINDER_DELAYS_MS[1]), REMINDER_BATCH)
    .all<DueCart>()
  return results
}

/** Claims the next reminder of a cart; true when this run may send it. */
async function claim(db: D1Database, cart: DueCart, channel: string, now: number): Promise<boolean> {
  const res =
    cart.sent_count === null
      ? await db
          .prepare(
            `INSERT INTO cart_reminders (cart_id, sent_count, channel, first_sent_at) VALUES (?, 1, ?, ?)
             ON CONFLICT DO NOTHING`,
          )
          .bind(cart.cart_id, channel, now)
          .run()
      : await db
          .prepare(
            'UPDATE cart_reminders SET sent_count = 2, second_sent_at = ? WHERE cart_id = ? AND sent_count = 1',
          )
          .bind(now, cart.cart_id)
          .run()
  return res.meta.changes === 1
}

const RESTORE = { path: '/api/messages/cart-return', typ: 'cart-restore', days: RESTORE_LINK_DAYS }

/** The signed link back to a cart. */
const restoreLink = (env: Env, config: AppConfig, cartId: number, now: number) =>
  signedLink(env, config, { ...RESTORE, sub: String(cartId) }, now)

/** The cart a restore link names, when the link is genuine and not expired; its click is counted. */
export async function readRestoreLink(env: Env, config: AppConfig, token: string, now: number) {
  const sub = await signedLinkSubject(env, config, token, RESTORE, now)
  if (sub === null) return null
  const cartId = Number(sub)
  await env.DB.prepare('UPDATE cart_reminders SET clicked_at = COALESCE(clicked_at, ?) WHERE cart_id = ?')
    .bind(now, cartId)
    .run()
  return cartId
}

/** The scheduled job: sends the reminders due now; returns how many went by each channel. */
export async function sendCartReminders(env: Env, config: AppConfig, now: number) {
  const out = { mail: 0, whatsapp: 0 }
  for (const cart of await dueCarts(env.DB, now)) {
    const channel = cart.phone ? 'whatsapp' : 'mail'
    if (!(await claim(env.DB, cart, channel, now))) continue
    const link = await restoreLink(env, config, cart.cart_id, now)
    const what = cart.items === 1 ? 'a piece' : `${cart.items} pieces`
    const n = (cart.sent_count ?? 0) + 1
    const sent =
      cart.phone &&
      (await queueMessage(
        env,
        {
          phone: cart.phone,
          orderId: null,
          send: { template: 'cart_reminder', values: [what, link] },
          dedupeKey: `cart:${cart.cart_id}:${n}`,
        },
        now,
      )) === 'sent'
    if (sent) out.whatsapp++
    else {
      // Mail when WhatsApp is not configured or did not take it: the shopper still hears once.
      const why = cart.guest
        ? [
            'You get this mail because you ticked "E-mail me a reminder if I leave my bag" at checkout.',
            `To get no more cart reminders, open ${await stopLink(env, config, cart.email, now)}`,
          ]
        : [
            'You get this mail because you asked for cart reminders in your account; switch them off there at any time.',
          ]
      await deliverMail(
        env,
        {
          kind: 'cart-reminder',
          from: config.SUPPORT_EMAIL,
          to: cart.email,
          subject: 'Your bag is waiting for you',
          text: [`You left ${what} in your bag. It is kept for you here:`, link, '', ...why].join('\n'),
        },
        now,
      )
      out.mail++
    }
  }
  return out
}

/** Reminders sent, carts reminded twice, links followed and carts ordered after one, since `since`. */
export async function reminderCounts(db: D1Database, since: number) {
  return db
    .prepare(
      `SELECT COUNT(*) AS carts, COALESCE(SUM(sent_count), 0) AS reminders,
         COALESCE(SUM(sent_count = 2), 0) AS twice, COUNT(clicked_at) AS clicked,
         COALESCE(SUM((SELECT is_active FROM carts WHERE id = cart_id) = 0), 0) AS ordered
       FROM cart_reminders WHERE first_sent_at >= ?`,
    )
    .bind(since)
    .first<{ carts: number; reminders: number; twice: number; clicked: number; ordered: number }>()
}
