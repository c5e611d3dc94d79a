/**
 * Gift card codes. When an order is paid in full (by a provider, or by store credit), every gift
 * card unit in it gets its own code: 16 characters from an alphabet without look-alikes (0/O,
 * 1/I/L), about 80 bits, shown as XXXX-XXXX-XXXX-XXXX. Only its SHA-256 is stored; the code itself
 * is mailed once to the buyer.
 *
 * A card is worth what was paid for it: its line's total after the coupon's share, split over the
 * line's units in whole minor units (the parts add up to the line exactly), in the order's charge
 * currency — whatever paid it (a provider, store credit, or both). Redeeming it adds that value in
 * the base currency (converted at the configured rate, rounded down) to the redeeming shopper's
 * store credit, once; a card whose order was refunded is worth what the refund left of it.
 */
import { baseCurrency, shopTimeZone } from '@shared/config/store'
import { formatMinor, toBaseCurrency } from '@shared/domain/currency'
import {
  GIFT_SEND_HOUR,
  type GiftCardDetails,
  giftDetailsFromOptions,
  isGiftCard,
  shopDayInWords,
} from '@shared/domain/gift-card-details'
import { allocateMinor } from '@shared/domain/money'
import { zonedWallToInstant } from '@shared/domain/shop-clock'
import type { AppConfig } from '../../platform/env'
import { fail } from '../../platform/http'
import { sha256Hex } from '../auth/crypto'
import { deliverMail } from '../mail/deliver'
import { type OrderDocument, parseOrderDocument } from '../order/document'
import { findOrderByClientId, type OrderRow } from '../order/repo'
import { magentoDate } from '../user/repo'
import { queueDueGiftCards } from './delivery'

const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789'
const CODE_LENGTH = 16
/** The most gift cards one order line may hold (each is its own code, mailed in one mail). */
const MAX_GIFT_CARDS_PER_LINE = 100

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

/** Why an order's lines cannot be sold as gift cards (more cards on a line than get codes), or null. */
export function giftCardLineProblem(
  lines: readonly { product: { type_id: string; name: string }; qty: number }[],
) {
  const over = lines.find(
    (l) =>
      isGiftCard({ product_type: l.product.type_id, name: l.product.name }) &&
      l.qty > MAX_GIFT_CARDS_PER_LINE,
  )
  return over
    ? `At most ${MAX_GIFT_CARDS_PER_LINE} of "${over.product.name}" can be ordered at once (each gift card gets its own code).`
    : null
}

/** One card unit of an order, what was paid for it (minor units of the order's currency), and whom it is for. */
interface CardUnit {
  line: number
  unit: number
  sku: string
  name: string
  paidMinor: number
  /** The recipient's details; null when the code goes to the buyer. */
  gift: GiftCardDetails | null
}

/** The gift card units of an order document, each with what was paid for it. */
function giftCardUnits(doc: Pick<OrderDocument, 'items'>): CardUnit[] {
  return (doc.items ?? []).flatMap((it, line) => {
    if (!isGiftCard(it)) return []
    const qty = Math.max(0, Math.trunc(it.qty_ordered ?? 0))
    const rowMinor = it.row_total_minor ?? Math.round((it.row_total_incl_tax ?? 0) * 100)
    const paidMinor = Math.max(0, rowMinor - Math.round((it.discount_amount ?? 0) * 100))
    const details = giftDetailsFromOptions(it.options)?.details
    return allocateMinor(paidMinor, new Array(qty).fill(1)).map((paid, i) => ({
      line,
      unit: i + 1,
      sku: it.sku ?? '',
      name: it.name ?? 'Gift card',
      paidMinor: paid,
      gift: details?.email ? details : null,
    }))
  })
}

/** When a card for someone else is due: 09:00 shop time on its day, or now when that has passed. */
function dueAt(gift: GiftCardDetails, now: number): number {
  const at = gift.sendOn ? zonedWallToInstant(`${gift.sendOn}T${GIFT_SEND_HOUR}`, shopTimeZone()) : null
  return at !== null && at > now ? at : now
}

/** The buyer's line about one card: its code, or whom it goes to and when. */
function buyerLine(g: CardUnit & { code: string }, currency: string, now: number): string {
  const value = `${g.name}, ${formatMinor(g.paidMinor, currency)}`
  if (!g.gift) return `  ${g.code}  — ${value}`
  const at = dueAt(g.gift, now)
  const when = at > now ? `on ${shopDayInWords(g.gift.sendOn as string)} at 9 am (India time)` : 'now'
  return `  ${value}: for ${g.gift.name}, e-mailed to ${g.gift.email} ${when} (code ending …${g.code.slice(-4)})`
}

/** A card's value in the base currency, from what was paid in `currency`: never more than paid. */
const baseValueMinor = (paidMinor: number, currency: string) =>
  currency === baseCurrency() ? paidMinor : Math.floor(toBaseCurrency(paidMinor, currency))

/** An order paid in full: by a provider, or (nothing due) by the store credit it spent. */
async function paidInFull(db: D1Database, order: OrderRow): Promise<boolean> {
  if (order.status === 'canceled' || order.status === 'expired') return false
  if (order.payment_state === 'paid') return true
  if ((order.grand_total_minor ?? 0) !== 0 || order.status !== 'processing') return false
  const spent = await db
    .prepare('SELECT -COALESCE(SUM(amount_minor), 0) AS minor FROM store_credit_ledger WHERE order_id = ?')
    .bind(order.client_order_id)
    .first<{ minor: number }>()
  return (spent?.minor ?? 0) > 0
}

/**
 * Issues the codes of a paid order's gift cards (once) and mails the buyer: the codes of cards
 * for themselves, and for each card addressed to someone else whom it goes to and when (its code
 * waits on the card until then, ./delivery.ts). Returns how many cards were issued.
 */
export async function issueGiftCards(env: Env, config: AppConfig, orderId: string, now: number) {
  const db = env.DB
  const order = await findOrderByClientId(db, orderId)
  if (!order || !(await paidInFull(db, order))) return 0
  const units = giftCardUnits(parseOrderDocument(order.doc)).filter(
    (u) => u.paidMinor > 0 && u.unit <= MAX_GIFT_CARDS_PER_LINE,
  )
  if (units.length === 0) return 0
  const stamp = magentoDate(now)
  const codes = units.map(() => newCode())
  const hashes = await Promise.all(codes.map((code) => sha256Hex(normaliseCode(code) as string)))
  // One batch; a unit issued before (another run) keeps its code, and a card is never issued for an
  // order canceled or expired in the meantime.
  const results = await db.batch(
    units.map((u, i) =>
      db
        .prepare(
          `INSERT INTO gift_cards (code_hash, code_last4, client_order_id, line_no, unit_no, sku, amount_minor, currency,
             paid_minor, paid_currency, created_at, recipient_name, recipient_email, gift_message, send_on, send_at,
             pending_code)
           SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM orders
             WHERE client_order_id = ?3 AND status NOT IN ('canceled', 'expired'))
           ON CONFLICT DO NOTHING`,
        )
        .bind(
          hashes[i],
          (codes[i] as string).slice(-4),
          orderId,
          u.line,
          u.unit,
          u.sku,
          baseValueMinor(u.paidMinor, order.currency),
          baseCurrency(),
          u.paidMinor,
          order.currency,
          stamp,
          u.gift?.name ?? null,
          u.gift?.email ?? null,
          u.gift?.message || null,
          u.gift?.sendOn ?? null,
          u.gift ? dueAt(u.gift, now) : null,
          u.gift ? (codes[i] as string) : null,
        ),
    ),
  )
  const issued = units
    .map((u, i) => ({ ...u, code: codes[i] as string }))
    .filter((_, i) => results[i]?.meta.changes === 1)
  if (issued.length > 0) {
    const several = issued.length > 1
    const own = issued.filter((g) => !g.gift)
    const forOthers = issued.length - own.length
    await deliverMail(
      env,
      {
        kind: 'gift-card',
        from: config.SUPPORT_EMAIL,
        to: order.customer_email,
        subject: `Your gift card${several ? 's' : ''} from ${config.STORE_NAME} (order ${order.increment_id})`,
        text: [
          `Thank you for your order ${order.increment_id}. Your gift card${several ? 's' : ''}:`,
          '',
          ...issued.map((g) => buyerLine(g, order.currency, now)),
          '',
          ...(own.length
            ? [
                'Keep this e-mail: a code is shown only here. Redeem it at checkout (signed in) or in your',
                `account, under My store credit; its value becomes store credit in ${baseCurrency()}.`,
              ]
            : []),
          ...(forOthers
            ? [
                `The recipient${forOthers > 1 ? 's get' : ' gets'} the code by e-mail with your message, and redeem${forOthers > 1 ? '' : 's'} it in their account.`,
              ]
            : []),
        ].join('\n'),
      },
      now,
    )
    if (forOthers) await queueDueGiftCards(env, config, now, orderId)
  }
  return issued.length
}

interface CardRow {
  id: number
  amount_minor: number
  currency: string
  status: string
  code_last4: string
  paid_minor: number
  clawed_minor: number
  redeemed_by: number | null
}

const UNKNOWN_CODE = 'This gift card code is not known. Please check it and try again.'

/** What redeeming a card adds to store credit now (base currency minor units). */
export function redeemableMinor(
  card: Pick<CardRow, 'amount_minor' | 'currency' | 'paid_minor' | 'clawed_minor'>,
) {
  const left = Math.max(0, card.paid_minor - card.clawed_minor)
  const base = card.paid_minor > 0 ? Math.floor((card.amount_minor * left) / card.paid_minor) : 0
  // Cards issued before values were kept in the base currency are converted now, rounded down.
  return card.currency === baseCurrency() ? base : Math.floor(toBaseCurrency(base, card.currency))
}

/**
 * Redeems a code into a customer's store credit: the code is marked redeemed and the credit and
 * ledger row are written in ONE batch, all guarded by this redemption's id and by the card being
 * as it was read (a refund taking part of it back in the meantime makes this a 409), so a code
 * used twice (or by two people at once) credits exactly once.
 */
export async function redeemGiftCard(db: D1Database, customerId: number, input: string, now: number) {
  const bare = normaliseCode(input)
  if (!bare) fail(400, 'Invalid gift card: code must be 16 letters and digits (dashes optional)')
  const hash = await sha256Hex(bare)
  const card = await db
    .prepare(
      `SELECT id, amount_minor, currency, status, code_last4, paid_minor, clawed_minor, redeemed_by
       FROM gift_cards WHERE code_hash = ?`,
    )
    .bind(hash)
    .first<CardRow>()
  // A card someone else redeemed is answered as a code never issued: a stranger learns nothing
  // of it (whether it exists, that it was used); its own redeemer is told where its value went.
  if (!card || (card.status === 'redeemed' && card.redeemed_by !== customerId)) fail(404, UNKNOWN_CODE)
  if (card.status === 'void')
    fail(409, 'This gift card is no longer valid: the order it was bought with was refunded.')
  if (card.status !== 'issued')
    fail(409, 'You have already redeemed this gift card: its value is in your store credit.')
  const credit = redeemableMinor(card)
  if (credit <= 0) fail(409, 'This gift card has no value left: the order it was bought with was refunded.')
  const redemption = crypto.randomUUID()
  const stamp = magentoDate(now)
  const mine = 'EXISTS (SELECT 1 FROM gift_cards WHERE id = ?1 AND redemption_id = ?2)'
  const results = await db.batch([
    db
      .prepare(
        `UPDATE gift_cards SET status = 'redeemed', redeemed_by = ?, redemption_id = ?, redeemed_at = ?
         WHERE id = ? AND status = 'issued' AND clawed_minor = ?`,
      )
      .bind(customerId, redemption, stamp, card.id, card.clawed_minor),
    db
      .prepare(
        `INSERT INTO store_credit (customer_id, balance_minor, updated_at) SELECT ?3, ?4, ?5 WHERE ${mine}
         ON CONFLICT(customer_id) DO UPDATE SET balance_minor = balance_minor + excluded.balance_minor, updated_at = excluded.updated_at`,
      )
      .bind(card.id, redemption, customerId, credit, stamp),
    db
      .prepare(
        `INSERT INTO store_credit_ledger (customer_id, amount_minor, balance_after_minor, comment, created_at)
         SELECT customer_id, ?4, balance_minor, ?5, ?6 FROM store_credit WHERE customer_id = ?3 AND ${mine}`,
      )
      .bind(card.id, redemption, customerId, credit, `Gift card …${card.code_last4} redeemed`, stamp),
  ])
  // Lost a race: to another shopper (answered as unknown, as above) or to a refund.
  if ((results[0]?.meta.changes ?? 0) !== 1) {
    const after = await db
      .prepare('SELECT status, redeemed_by FROM gift_cards WHERE id = ?')
      .bind(card.id)
      .first<{ status: string; redeemed_by: number | null }>()
    if (after?.status === 'redeemed' && after.redeemed_by !== customerId) fail(404, UNKNOWN_CODE)
    fail(409, 'This gift card has already been redeemed, or its order was refunded meanwhile.')
  }
  const balance = await db
    .prepare('SELECT balance_minor FROM store_credit WHERE customer_id = ?')
    .bind(customerId)
    .first<{ balance_minor: number }>()
  return {
    credited: credit / 100,
    total_balance: (balance?.balance_minor ?? 0) / 100,
    code_last4: card.code_last4,
  }
}
