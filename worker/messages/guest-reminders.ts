/**
 * Cart reminders for guests. A guest says yes at checkout (an unticked box beside the e-mail),
 * which sends the cart's snapshot with `reminder: {email, consent}` (POST /api/state/send-state):
 * the cart's token proves the cart is the caller's, so nobody gives consent for another's cart.
 * Only a guest cart takes it (a signed-in shopper chooses in their account).
 *
 * Nobody can make the shop mail strangers through it:
 * - a network address records at most GUEST_CONSENTS_PER_HOUR consents an hour (429 beyond),
 *   counted before the cart is looked up, and each needs a cart of its own holding items;
 * - one e-mail address is given consent for at most GUEST_CARTS_PER_EMAIL_PER_DAY carts a day,
 *   and never again once it stopped reminders (further consents are not recorded; the answer
 *   does not say so, so nobody learns who stopped them);
 * - each cart gets at most two reminders (./reminders.ts), each mail carries a signed link that
 *   stops every reminder to the address, and the mail holds nothing the sender typed.
 */

import type { AppConfig } from '../platform/env'
import { signedLink, signedLinkSubject } from './signed-link'

/** Consents one network address may record an hour. */
export const GUEST_CONSENTS_PER_HOUR = 10
/** Carts one e-mail address may be given consent for in 24 hours. */
export const GUEST_CARTS_PER_EMAIL_PER_DAY = 2
/** How long a reminder's stop link works. */
const STOP_LINK_DAYS = 60

const DAY_MS = 86_400_000

/**
 * Records a guest's answer for their cart: a yes only while the address has not stopped reminders
 * and fewer than GUEST_CARTS_PER_EMAIL_PER_DAY other carts got a yes for it in the last day; a no
 * always (it only ever stops mail).
 */
export function recordGuestConsent(
  db: D1Database,
  cartId: number,
  email: string,
  consent: boolean,
  now: number,
) {
  return db
    .prepare(
      `INSERT INTO guest_reminder_consent (cart_id, email, opted_in, updated_at)
       SELECT ?1, ?2, ?3, ?4
       WHERE ?3 = 0 OR (
         NOT EXISTS (SELECT 1 FROM reminder_stopped WHERE email = ?2)
         AND (SELECT COUNT(*) FROM guest_reminder_consent
              WHERE email = ?2 AND opted_in = 1 AND cart_id <> ?1 AND updated_at > ?5) < ?6)
       ON CONFLICT(cart_id) DO UPDATE SET email = excluded.email, opted_in = excluded.opted_in,
         updated_at = excluded.updated_at`,
    )
    .bind(cartId, email.toLowerCase(), consent ? 1 : 0, now, now - DAY_MS, GUEST_CARTS_PER_EMAIL_PER_DAY)
    .run()
}

const STOP = { path: '/api/messages/cart-reminders/stop', typ: 'reminder-stop', days: STOP_LINK_DAYS }

/** The signed link in a guest's reminder that stops every cart reminder to its address. */
export const stopLink = (env: Env, config: AppConfig, email: string, now: number) =>
  signedLink(env, config, { ...STOP, sub: email.toLowerCase() }, now)

/** The address a stop link names, when the link is genuine and not expired. */
export const readStopLink = (env: Env, config: AppConfig, token: string, now: number) =>
  signedLinkSubject(env, config, token, STOP, now)

/** Stops every cart reminder to an address: no guest cart of it is reminded again. */
export function stopReminders(db: D1Database, email: string, now: number) {
  return db.batch([
    db
      .prepare('INSERT INTO reminder_stopped (email, stopped_at) VALUES (?1, ?2) ON CONFLICT DO NOTHING')
      .bind(email, now),
    db
      .prepare('UPDATE guest_reminder_consent SET opted_in = 0, updated_at = ?2 WHERE email = ?1')
      .bind(email, now),
  ])
}
