/**
 * What an order's money is held in, for refunds and cancels: the store credit it spent (and got
 * back), and the gift cards it bought. The rule: a shopper never gets money back for a gift card
 * they still hold or have redeemed. So
 *   money back (provider refunds + store credit returned) ≤ paid + credit spent − value of its cards,
 * where a card's value is what was paid for it less what a refund already took back of it. A
 * refund that reaches into the cards' value takes it back from cards not yet redeemed (partly or
 * whole, last card first); the value of redeemed cards is never refunded — it is store credit
 * already, and giving it back is an operator's decision.
 * All amounts are minor units of the order's charge currency (store credit is only ever spent on
 * orders charged in the base currency, so its ledger amounts are in that currency too).
 */
import { formatMinorForOperator } from '@shared/domain/currency'
import { redeemableMinor } from './codes'
import { grantStoreCredit } from './routes'

interface OrderCard {
  id: number
  status: 'issued' | 'redeemed' | 'void'
  code_last4: string
  paid_minor: number
  clawed_minor: number
  amount_minor: number
  currency: string
  redeemed_by: number | null
}

/** An order's cards and store credit as one refund reads them. */
interface OrderHold {
  cards: OrderCard[]
  /** Net store credit of the order: spent (negative) plus returned (positive). */
  creditNetMinor: number
  /** The cards and credit as read: a refund or cancel applies only while they are still so. */
  fingerprint: string
}

/** SQL of the order's fingerprint (?1 = client order id): the cards' states and the credit net. */
export const HOLD_FINGERPRINT_SQL = `(COALESCE((SELECT group_concat(id || ':' || status || ':' || clawed_minor, ',')
  FROM (SELECT id, status, clawed_minor FROM gift_cards WHERE client_order_id = ?1 ORDER BY id)), '')
  || '|' || COALESCE((SELECT SUM(amount_minor) FROM store_credit_ledger WHERE order_id = ?1), 0))`

export async function orderHold(db: D1Database, orderId: string): Promise<OrderHold> {
  const [cards, fingerprint] = await db.batch([
    db
      .prepare(
        `SELECT id, status, code_last4, paid_minor, clawed_minor, amount_minor, currency, redeemed_by
         FROM gift_cards WHERE client_order_id = ? ORDER BY id`,
      )
      .bind(orderId),
    db
      .prepare(`SELECT ${HOLD_FINGERPRINT_SQL} AS fp, (SELECT COALESCE(SUM(amount_minor), 0)
      FROM store_credit_ledger WHERE order_id = ?1) AS net`)
      .bind(orderId),
  ])
  const head = (fingerprint?.results?.[0] ?? {}) as { fp?: string; net?: number }
  return {
    cards: (cards?.results ?? []) as OrderCard[],
    creditNetMinor: Number(head.net ?? 0),
    fingerprint: String(head.fp ?? ''),
  }
}

const valueLeft = (c: OrderCard) => (c.status === 'void' ? 0 : Math.max(0, c.paid_minor - c.clawed_minor))

/** How much of a refund the order has room for, and what of it would come out of its cards. */
export function refundRoom(order: { paid_minor: number; refunded_minor: number }, hold: OrderHold) {
  const held = hold.cards.reduce((s, c) => s + valueLeft(c), 0)
  const redeemed = hold.cards.filter((c) => c.status === 'redeemed')
  const redeemedMinor = redeemed.reduce((s, c) => s + valueLeft(c), 0)
  // Money the order may still give back without touching a card.
  const free = order.paid_minor - order.refunded_minor - hold.creditNetMinor - held
  // And at most this much more by taking back the value of cards not yet redeemed.
  const clawable = held - redeemedMinor
  return {
    free,
    clawable,
    /** The most a refund may be now (within what the provider was paid). */
    max: Math.max(0, Math.min(order.paid_minor - order.refunded_minor, free + clawable)),
    redeemedMinor,
    redeemed: redeemed.map((c) => `…${c.code_last4}`),
  }
}

/** Which unredeemed cards give back how much of `needMinor` (last card first). */
export function clawBackPlan(hold: OrderHold, needMinor: number): { id: number; minor: number }[] {
  const plan: { id: number; minor: number }[] = []
  let need = needMinor
  for (const card of [...hold.cards].reverse()) {
    if (need <= 0) break
    if (card.status !== 'issued') continue
    const take = Math.min(need, valueLeft(card))
    if (take > 0) plan.push({ id: card.id, minor: take })
    need -= take
  }
  return need > 0 ? [] : plan
}

/**
 * The statements that take a plan's value back from its cards, each applied only when the
 * statement before it in the batch changed a row (the refund's reservation and record, then the
 * card before): they happen with the refund or not at all. A card taken back whole is void.
 */
export function clawBackStatements(db: D1Database, plan: readonly { id: number; minor: number }[]) {
  return plan.map((p) =>
    db
      .prepare(
        `UPDATE gift_cards SET clawed_minor = clawed_minor + ?1,
           status = CASE WHEN clawed_minor + ?1 >= paid_minor THEN 'void' ELSE status END
         WHERE id = ?2 AND status = 'issued' AND clawed_minor + ?1 <= paid_minor AND changes() = 1`,
      )
      .bind(p.minor, p.id),
  )
}

/**
 * Gives a plan's value back to its cards after the refund it was taken for did not happen. A card
 * redeemed in between was credited only what was left of it: its shopper gets the rest as store
 * credit, so nothing is lost either way.
 */
export async function undoClawBack(
  db: D1Database,
  plan: readonly { id: number; minor: number }[],
  orderNumber: string,
  now: number,
) {
  for (const p of plan) {
    const back = await db
      .prepare(
        `UPDATE gift_cards SET clawed_minor = clawed_minor - ?1, status = 'issued'
         WHERE id = ?2 AND status IN ('issued', 'void') AND clawed_minor >= ?1`,
      )
      .bind(p.minor, p.id)
      .run()
    if (back.meta.changes === 1) continue
    const card = await db
      .prepare(
        'SELECT id, status, code_last4, paid_minor, clawed_minor, amount_minor, currency, redeemed_by FROM gift_cards WHERE id = ?',
      )
      .bind(p.id)
      .first<OrderCard>()
    if (card?.status !== 'redeemed' || card.redeemed_by === null) continue
    const owed =
      redeemableMinor({ ...card, clawed_minor: card.clawed_minor - p.minor }) - redeemableMinor(card)
    if (owed > 0) {
      await grantStoreCredit(
        db,
        card.redeemed_by,
        owed / 100,
        `Gift card …${card.code_last4}: the refund of order ${orderNumber} did not go through`,
        now,
      )
    }
  }
}

/** The history's note on a canceled order whose gift cards were redeemed. */
export function heldForRedeemedCards(
  order: { increment_id: string; currency: string },
  room: ReturnType<typeof refundRoom>,
) {
  return `${formatMinorForOperator(room.redeemedMinor, order.currency)} of order ${order.increment_id} paid for gift card${room.redeemed.length > 1 ? 's' : ''} ${room.redeemed.join(', ')}, already redeemed as store credit: it was not given back. Giving it back is a decision to make by hand.`
}

/** What the operator reads about a refund the cards' value refused. */
export function redeemedRefusal(
  order: { increment_id: string; currency: string },
  room: ReturnType<typeof refundRoom>,
  askedMinor: number,
) {
  return `A refund of ${formatMinorForOperator(askedMinor, order.currency)} would give back ${formatMinorForOperator(room.redeemedMinor, order.currency)} paid for gift card${room.redeemed.length > 1 ? 's' : ''} ${room.redeemed.join(', ')} of order ${order.increment_id}, already redeemed as store credit. At most ${formatMinorForOperator(room.max, order.currency)} can be refunded; giving back the rest is a decision to make by hand.`
}
