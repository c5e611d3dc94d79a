/**
 * Order e-mails: the ONE entry point every part of the shop calls when something happens to an
 * order (placed, paid, payment failed, shipped, delivered, canceled, expired, refunded). The
 * shopper gets a mail for each, naming the order, its items with what the shopper chose, the
 * total, the payment state, the delivery address and the link to the order page; what the event
 * adds (carrier and tracking number, refunded amount) comes first. The merchant gets a new-order
 * mail at MERCHANT_EMAIL (else the store's SUPPORT_EMAIL) with the customer's contact details and
 * a reply-to of the customer — never the shopper's signed order link, which opens the order
 * without signing in. Each mail has an HTML part in the label's layout and a plain-text part
 * (../../mail/order-mail.ts), with the operator's edited words for the event when there are any.
 * Mail goes through deliverMails (provider when configured, else the outbox; retried by the
 * scheduled drain).
 *
 * Anyone may place an order for any e-mail address, so until an order has been paid or confirmed
 * by the shop (it has reached 'processing') its shopper mails are not a channel for the placer:
 * - they carry no words the placer wrote (no names, no delivery address, no free-text option such
 *   as an engraving): only the shop's own text, the catalogue's names and the order link;
 * - at most UNCONFIRMED_MAILS_PER_RECIPIENT of them go to one address a day, and at most
 *   UNCONFIRMED_MAILS_PER_SENDER a day are caused by one sender (the network address that placed
 *   the order); a mail over either limit is not sent, and the order's history says so. The order
 *   placement limits (../order/holds.ts) bound how many such orders anyone can make at all.
 */

import { orderPaymentName } from '@shared/components/order/order-text'
import { CASH_ON_DELIVERY_CODE } from '@shared/config/checkout'
import { shopTimeZone } from '@shared/config/store'
import { storedInstant, zonedDateTime } from '@shared/domain/shop-clock'
import { renderMerchantMail, renderOrderMail } from '../../mail/order-mail'
import { mailTemplate } from '../../mail/templates'
import { codConfirmLink } from '../../messages/cod-link'
import { messageOrder } from '../../messages/orders'
import { coalesceReads } from '../../platform/d1-reads'
import type { AppConfig } from '../../platform/env'
import { withinLimits } from '../auth/rate-limit'
import { parseOrderDocument } from '../order/document'
import { orderEventStatement } from '../order/lifecycle'
import { orderPageLink } from '../order/link'
import { findOrderByClientId, type OrderRow } from '../order/repo'
import { deliverMails } from './deliver'
import { mailLines, withoutTypedText } from './order-lines'
import { type OrderMailEvent, PAYMENT_STATE_LABELS } from './order-words'

/** Shopper mails about orders not yet paid or confirmed, per recipient address a day. */
export const UNCONFIRMED_MAILS_PER_RECIPIENT = 5
/** The same per sender (the network address that placed the orders) a day. */
export const UNCONFIRMED_MAILS_PER_SENDER = 10
const DAY_MS = 24 * 3600_000

const isCashOnDelivery = (order: OrderRow) => order.payment_method === CASH_ON_DELIVERY_CODE

/** Whether the order has been paid or confirmed by the shop (it reached 'processing' at some point). */
async function confirmedOrder(db: D1Database, orderId: string): Promise<boolean> {
  const row = await db
    .prepare(
      `SELECT EXISTS (SELECT 1 FROM order_events WHERE client_order_id = ?1 AND to_status = 'processing') AS yes`,
    )
    .bind(orderId)
    .first<{ yes: number }>()
  return row?.yes === 1
}

/**
 * Whether a shopper mail about an order not yet paid or confirmed may go out: counts it against
 * its recipient's and its sender's daily limits; over either, the order's history records the mail
 * that was held back.
 */
async function unconfirmedMailAllowed(env: Env, order: OrderRow, event: OrderMailEvent, now: number) {
  const allowed = await withinLimits(
    env.DB,
    [
      {
        key: `order-mail:to:${order.customer_email.toLowerCase()}`,
        limit: UNCONFIRMED_MAILS_PER_RECIPIENT,
        windowMs: DAY_MS,
      },
      ...(order.placed_from
        ? [
            {
              key: `order-mail:from:${order.placed_from}`,
              limit: UNCONFIRMED_MAILS_PER_SENDER,
              windowMs: DAY_MS,
            },
          ]
        : []),
    ],
    now,
  )
  if (!allowed)
    await orderEventStatement(
      env.DB,
      order.client_order_id,
      { kind: 'mail', actor: 'system', detail: { mail: `order-${event}`, held_back: 'daily mail limit' } },
      now,
    ).run()
  return allowed
}

/**
 * What an order's mails are made of, read from the database: the order document, its lines (with
 * pictures), the payment in words, the invoice number, whether it is paid or confirmed, the shop.
 * The links and the event's own words are the caller's. The reads are made together: through a
 * database whose concurrent reads go as one batch (coalesceReads), they cost one round trip.
 */
export async function orderMailParts(
  db: D1Database,
  config: AppConfig,
  order: OrderRow,
  detail: Record<string, string>,
) {
  const doc = parseOrderDocument(order.doc)
  const method = orderPaymentName(doc.payment)
  const [invoice, confirmed, lines] = await Promise.all([
    db
      .prepare("SELECT number FROM tax_documents WHERE kind = 'invoice' AND client_order_id = ?")
      .bind(order.client_order_id)
      .first<{ number: string }>(),
    confirmedOrder(db, order.client_order_id),
    mailLines(db, doc.items ?? []),
  ])
  return {
    order,
    doc,
    confirmed,
    lines,
    invoice: invoice?.number ?? null,
    payment: [PAYMENT_STATE_LABELS[order.payment_state] ?? order.payment_state, method && `(${method})`]
      .filter(Boolean)
      .join(' '),
    detail,
    shop: { name: config.STORE_NAME, origin: config.PUBLIC_ORIGIN, supportEmail: config.SUPPORT_EMAIL },
  }
}

/**
 * Sends the mails for an order event (the shopper's, and the merchant's for a new order) and its
 * WhatsApp message. `order` is the order as its caller holds it (placement reads it back as it
 * writes it), or its id. Never throws for the mail provider: an undelivered mail stays in the
 * outbox for the drain. The database is asked: the order (unless given) with the message's reads;
 * what the mails are made of; the shopper's daily limits (an order not yet paid or confirmed);
 * the mails' outbox rows, written together; with a provider, their outcomes.
 */
export async function notifyOrder(
  env: Env,
  config: AppConfig,
  event: OrderMailEvent,
  orderOrId: string | OrderRow,
  now: number,
  detail: Record<string, string> = {},
): Promise<void> {
  // Reads made at the same moment go as one batch: the message's go with the mails'.
  const reads = coalesceReads(env.DB)
  const order = typeof orderOrId === 'string' ? await findOrderByClientId(reads, orderOrId) : orderOrId
  // The WhatsApp message of the event, to a shopper who opted in at checkout (mail goes either way).
  const message = messageOrder({ ...env, DB: reads }, config, event, order ?? orderOrId, now, detail)
  if (!order) {
    await message
    return
  }
  // The mail's parts and the operator's words for the event: one round trip.
  const [{ confirmed, lines, invoice, ...common }, custom] = await Promise.all([
    orderMailParts(reads, config, order, detail),
    mailTemplate(reads, event),
  ])
  const mails: Parameters<typeof deliverMails>[1] = []
  if (confirmed || (await unconfirmedMailAllowed(env, order, event, now))) {
    const link = await orderPageLink(env, config, order, now)
    const mail = renderOrderMail({
      ...common,
      event,
      // Everything the order says once paid or confirmed; before, none of the placer's words.
      lines: confirmed ? lines : withoutTypedText(lines),
      withheld: !confirmed,
      orderLink: link,
      invoice,
      codLink: event === 'placed' ? await codConfirmLink(env, config, order) : null,
      custom,
    })
    mails.push({ kind: `order-${event}`, from: config.SUPPORT_EMAIL, to: order.customer_email, ...mail })
  }
  // The merchant hears of an order once it is taken: at placement, or for an order paid online
  // (whose placement sends nothing), when its payment arrives.
  if (event === 'placed' || (event === 'paid' && !isCashOnDelivery(order))) {
    const mail = renderMerchantMail({
      ...common,
      lines,
      orderLink: '',
      invoice: null,
      detail: {},
      // On the shop's clock, like every time the back office shows.
      placedAt: `${zonedDateTime(storedInstant(order.created_at) ?? 0, shopTimeZone())} ${shopTimeZone()}`,
    })
    // The merchant's copy names the customer and the address: it goes to the shop's own inbox.
    mails.push({
      kind: 'order-merchant',
      from: config.SUPPORT_EMAIL,
      replyTo: order.customer_email,
      to: config.MERCHANT_EMAIL || config.SUPPORT_EMAIL,
      ...mail,
    })
  }
  await Promise.all([deliverMails(env, mails, now), message])
}
