/**
 * E-gift cards addressed to someone else: the code waits on its card (pending_code) until the day
 * the buyer chose, then its mail to the recipient is written to the mail outbox in one batch with
 * the card's "sent" mark, so each card is mailed exactly once however many runs overlap; the
 * outbox's drain sends it (its retries, age limit and provider rules apply). A card voided in the
 * meantime (its order refunded or canceled) is never mailed: its code is dropped.
 * The scheduled job runs before the outbox drain, so a card due is sent on the same trigger.
 */
import { formatMinor } from '@shared/domain/currency'
import { renderAccountMail } from '../../mail/account-mail'
import type { MailTemplateText } from '../../mail/blocks'
import { mailTemplate } from '../../mail/templates'
import type { AppConfig } from '../../platform/env'
import { magentoDate } from '../user/repo'

/** Most cards one run mails (the rest wait for the next trigger). */
const DUE_BATCH = 50

interface DueCard {
  id: number
  status: string
  pending_code: string
  recipient_name: string
  recipient_email: string
  gift_message: string | null
  paid_minor: number
  paid_currency: string
  buyer: string | null
}

/** The recipient's mail of one card (text and HTML, with the operator's words when edited). */
function recipientMail(config: AppConfig, card: DueCard, custom: MailTemplateText | null) {
  return renderAccountMail(
    'gift_card',
    {
      recipient: card.recipient_name,
      from: card.buyer?.trim() || 'Someone',
      value: formatMinor(card.paid_minor, card.paid_currency),
      message: card.gift_message,
      code: card.pending_code,
      redeemUrl: `${config.PUBLIC_ORIGIN}/my-account/credit-details`,
    },
    { name: config.STORE_NAME, supportEmail: config.SUPPORT_EMAIL },
    custom,
  )
}

/**
 * Writes the mails of the cards due by `now` (all of one order when `orderId` is given) to the
 * mail outbox; returns how many were queued.
 */
export async function queueDueGiftCards(env: Env, config: AppConfig, now: number, orderId?: string) {
  const db = env.DB
  const { results } = await db
    .prepare(
      `SELECT g.id, g.status, g.pending_code, g.recipient_name, g.recipient_email, g.gift_message,
         g.paid_minor, g.paid_currency, json_extract(o.doc, '$.customer_firstname') AS buyer
       FROM gift_cards g JOIN orders o ON o.client_order_id = g.client_order_id
       WHERE g.pending_code IS NOT NULL AND g.send_at <= ?1 AND (?2 IS NULL OR g.client_order_id = ?2)
       ORDER BY g.send_at, g.id LIMIT ?3`,
    )
    .bind(now, orderId ?? null, DUE_BATCH)
    .all<DueCard>()
  if (results.length === 0) return 0
  const custom = await mailTemplate(db, 'gift_card')
  const stamp = magentoDate(now)
  let queued = 0
  for (const card of results) {
    if (card.status !== 'issued') {
      await db.prepare('UPDATE gift_cards SET pending_code = NULL WHERE id = ?').bind(card.id).run()
      continue
    }
    const mail = recipientMail(config, card, custom)
    const waiting = 'EXISTS (SELECT 1 FROM gift_cards WHERE id = ?1 AND pending_code IS NOT NULL)'
    const [inserted] = await db.batch([
      db
        .prepare(
          `INSERT INTO mail_outbox (kind, from_address, source_address, target_address, subject, body, html,
             status, attempts, next_attempt_at, created_at)
           SELECT 'gift-card-recipient', ?2, ?2, ?3, ?4, ?5, ?7, 'queued', 0, 0, ?6 WHERE ${waiting}`,
        )
        .bind(card.id, config.SUPPORT_EMAIL, card.recipient_email, mail.subject, mail.text, stamp, mail.html),
      db
        .prepare(
          'UPDATE gift_cards SET pending_code = NULL, sent_at = ?2 WHERE id = ?1 AND pending_code IS NOT NULL',
        )
        .bind(card.id, stamp),
    ])
    if ((inserted?.meta.changes ?? 0) === 1) queued++
  }
  return queued
}
