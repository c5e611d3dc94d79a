/**
 * Gift card codes. When an order is paid, every gift card unit in it gets its own code: 16
 * characters from an alphabet without look-alikes (0/O, 1/I/L), about 80 bits, shown as
 * XXXX-XXXX-XXXX-XXXX. Only its SHA-256 is stored; the code itself is mailed once to the buyer.
 * Its face value is what the buyer paid for that unit, in the order's currency. A signed-in shopper
 * redeems a code into store credit (which the checkout then applies); a code is redeemed once.
 */
import { baseCurrency } from '@shared/config/store'
import type { AppConfig } from '../../platform/env'
import { fail } from '../../platform/http'
import { sha256Hex } from '../auth/crypto'
import { deliverMail } from '../mail/deliver'
import { type OrderDocumentItem, parseOrderDocument } from '../order/document'
import { findOrderByClientId } from '../order/repo'
import { magentoDate } from '../user/repo'

const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789'
const CODE_LENGTH = 16

function newCode(): string {
  const out: string[] = []
  // Rejection sampling keeps every character equally likely.
  while (out.length < CODE_LENGTH) {
    for (const b of crypto.getRandomValues(new Uint8Array(32))) {
      if (b < 248 && out.length < CODE_LENGTH) out.push(ALPHABET[b % ALPHABET.length] as string)
    }
  }
  return out.join('').replace(/(.{4})(?=.)/g, '$1-')
}

/** The code as typed, normalised: upper case, separators and spaces dropped; null when malformed. */
function normaliseCode(input: string): string | null {
  const bare = input.toUpperCase().replace(/[\s-]/g, '')
  if (bare.length !== CODE_LENGTH || [...bare].some((ch) => !ALPHABET.includes(ch))) return null
  return bare
}

/** A line that is a gift card: a virtual product sold as a gift card. */
const isGiftCard = (it: Pick<OrderDocumentItem, 'product_type' | 'name'>) =>
  it.product_type === 'virtual' && /gift\s*card/i.test(it.name ?? '')

/** Issues the codes of a paid order's gift cards (once) and mails the new ones to the buyer. */
export async function issueGiftCards(env: Env, config: AppConfig, orderId: string, now: number) {
  const order = await findOrderByClientId(env.DB, orderId)
  if (!order || order.payment_state !== 'paid') return 0
  const items = (parseOrderDocument(order.doc).items ?? []).map((it, line) => ({
    it,
    line,
  }))
  const stamp = magentoDate(now)
  const issued: { code: string; name: string; amountMinor: number }[] = []
  for (const { it, line } of items.filter(({ it }) => isGiftCard(it))) {
    const amountMinor = Math.round((it.price_incl_tax ?? 0) * 100)
    if (amountMinor <= 0) continue
    for (let unit = 1; unit <= Math.min(it.qty_ordered ?? 1, 100); unit++) {
      const code = newCode()
      const res = await env.DB.prepare(
        `INSERT INTO gift_cards (code_hash, code_last4, client_order_id, line_no, unit_no, sku, amount_minor, currency, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      )
        .bind(
          await sha256Hex(normaliseCode(code) as string),
          code.slice(-4),
          orderId,
          line,
          unit,
          it.sku ?? '',
          amountMinor,
          order.currency,
          stamp,
        )
        .run()
      if (res.meta.changes === 1) issued.push({ code, name: it.name ?? 'Gift card', amountMinor })
    }
  }
  if (issued.length > 0) {
    const money = (minor: number) => `${(minor / 100).toFixed(2)} ${order.currency}`
    await deliverMail(
      env,
      {
        kind: 'gift-card',
        from: config.SUPPORT_EMAIL,
        to: order.customer_email,
        subject: `Your gift card${issued.length > 1 ? 's' : ''} from ${config.STORE_NAME} (order ${order.increment_id})`,
        text: [
          `Thank you for your order ${order.increment_id}. Here ${issued.length > 1 ? 'are your gift card codes' : 'is your gift card code'}:`,
          '',
          ...issued.map((g) => `  ${g.code}  — ${g.name}, ${money(g.amountMinor)}`),
          '',
          'Keep this e-mail: the code is shown only here. Redeem it at checkout (signed in) or in your',
          'account; its value becomes store credit.',
        ].join('\n'),
      },
      now,
    )
  }
  return issued.length
}

/**
 * Redeems a code into a customer's store credit: the code is marked redeemed and the credit and
 * ledger row are written in ONE batch, all guarded by this redemption's id, so a code used twice
 * (or by two people at once) credits exactly once.
 */
export async function redeemGiftCard(db: D1Database, customerId: number, input: string, now: number) {
  const bare = normaliseCode(input)
  if (!bare) fail(400, 'Invalid gift card: code must be 16 letters and digits (dashes optional)')
  const hash = await sha256Hex(bare)
  const card = await db
    .prepare('SELECT id, amount_minor, currency, status, code_last4 FROM gift_cards WHERE code_hash = ?')
    .bind(hash)
    .first<{ id: number; amount_minor: number; currency: string; status: string; code_last4: string }>()
  if (!card) fail(404, 'This gift card code is not known. Please check it and try again.')
  if (card.status !== 'issued') fail(409, 'This gift card has already been redeemed.')
  // Store credit is kept in the base currency: a card in another currency cannot become credit.
  if (card.currency !== baseCurrency())
    fail(409, `This gift card is in ${card.currency}; store credit is kept in ${baseCurrency()}.`)
  const redemption = crypto.randomUUID()
  const stamp = magentoDate(now)
  const mine = 'EXISTS (SELECT 1 FROM gift_cards WHERE id = ?1 AND redemption_id = ?2)'
  const results = await db.batch([
    db
      .prepare(
        `UPDATE gift_cards SET status = 'redeemed', redeemed_by = ?, redemption_id = ?, redeemed_at = ?
         WHERE id = ? AND status = 'issued'`,
      )
      .bind(customerId, redemption, stamp, card.id),
    db
      .prepare(
        `INSERT INTO store_credit (customer_id, balance_minor, updated_at) SELECT ?3, ?4, ?5 WHERE ${mine}
         ON CONFLICT(customer_id) DO UPDATE SET balance_minor = balance_minor + excluded.balance_minor, updated_at = excluded.updated_at`,
      )
      .bind(card.id, redemption, customerId, card.amount_minor, stamp),
    db
      .prepare(
        `INSERT INTO store_credit_ledger (customer_id, amount_minor, balance_after_minor, comment, created_at)
         SELECT customer_id, ?4, balance_minor, ?5, ?6 FROM store_credit WHERE customer_id = ?3 AND ${mine}`,
      )
      .bind(
        card.id,
        redemption,
        customerId,
        card.amount_minor,
        `Gift card …${card.code_last4} redeemed`,
        stamp,
      ),
  ])
  if ((results[0]?.meta.changes ?? 0) !== 1) fail(409, 'This gift card has already been redeemed.')
  const balance = await db
    .prepare('SELECT balance_minor FROM store_credit WHERE customer_id = ?')
    .bind(customerId)
    .first<{ balance_minor: number }>()
  return { credited: card.amount_minor / 100, total_balance: (balance?.balance_minor ?? 0) / 100 }
}
