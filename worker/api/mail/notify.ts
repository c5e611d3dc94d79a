/**
 * Order e-mails: the ONE entry point every part of the shop calls when something happens to an
 * order (placed, paid, payment failed, shipped, delivered, canceled, expired, refunded). The
 * shopper gets a mail for each, naming the order, its items with what the shopper chose, the
 * total, the payment state, the delivery address and the link to the order page; what the event
 * adds (carrier and tracking number, refunded amount) comes first. The merchant gets a new-order
 * mail at MERCHANT_EMAIL (else the store's SUPPORT_EMAIL) with the customer's contact details and
 * a reply-to of the customer — never the shopper's signed order link, which opens the order
 * without signing in. Mail goes through deliverMail (provider when configured, else the outbox;
 * retried by the scheduled drain).
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

import { documentMoneyRows } from '@shared/components/order/money-rows'
import { orderDateTime, orderPaymentName } from '@shared/components/order/order-text'
import { CASH_ON_DELIVERY_CODE, countryName } from '@shared/config/checkout'
import { ORDER_STATUS_LABELS, type OrderStatus } from '@shared/config/order-status'
import { shopTimeZone } from '@shared/config/store'
import { formatPrice } from '@shared/domain/currency'
import { storedInstant, zonedDateTime } from '@shared/domain/shop-clock'
import { codConfirmLink } from '../../messages/cod-link'
import { messageOrder } from '../../messages/orders'
import type { AppConfig } from '../../platform/env'
import { withinLimits } from '../auth/rate-limit'
import { type OrderDocument, type OrderDocumentAddress, parseOrderDocument } from '../order/document'
import { orderEventStatement } from '../order/lifecycle'
import { orderPageLink } from '../order/link'
import { findOrderByClientId, type OrderRow } from '../order/repo'
import { deliverMail } from './deliver'
import { type MailLine, mailLines, oneLine, withoutTypedText } from './order-lines'
import {
  DETAIL_LABELS,
  MAX_DETAIL_FIELDS,
  type OrderMailEvent,
  PAYMENT_STATE_LABELS,
  SUBJECTS,
} from './order-words'

/** Shopper mails about orders not yet paid or confirmed, per recipient address a day. */
export const UNCONFIRMED_MAILS_PER_RECIPIENT = 5
/** The same per sender (the network address that placed the orders) a day. */
export const UNCONFIRMED_MAILS_PER_SENDER = 10
const DAY_MS = 24 * 3600_000

function addressLines(a: OrderDocumentAddress | null | undefined): string[] {
  if (!a) return []
  return [
    [a.firstname, a.lastname].filter(Boolean).join(' '),
    ...(a.street ?? []),
    [a.postcode, a.city].filter(Boolean).join(' '),
    a.region ?? '',
    countryName(a.country_id),
    a.telephone ? `Phone ${a.telephone}` : '',
  ]
    .map((l) => oneLine(l, 200))
    .filter((l) => l !== '')
}

function detailLines(detail: Record<string, string>): string[] {
  return Object.entries(detail)
    .slice(0, MAX_DETAIL_FIELDS)
    .map(([k, v]) => [DETAIL_LABELS[k] ?? oneLine(k.replace(/[_-]+/g, ' '), 40), oneLine(v, 200)] as const)
    .filter(([, v]) => v !== '')
    .map(([k, v]) => `${k.charAt(0).toUpperCase()}${k.slice(1)}: ${v}`)
}

const isCashOnDelivery = (order: OrderRow) => order.payment_method === CASH_ON_DELIVERY_CODE

/** The first lines of a shopper's mail: what happened, in a sentence or two. */
function intro(event: OrderMailEvent, order: OrderRow, money: (minor: number) => string): string[] {
  switch (event) {
    case 'placed':
      if (order.payment_state === 'awaiting')
        return ['Thank you for your order. It is reserved for you until your payment arrives.']
      if (order.status === 'pending' && order.expires_at !== null)
        return [
          `Thank you for your order. We will confirm it with you before we pack it; if it is not confirmed by ${orderDateTime(order.expires_at)}, it expires and its items go back on sale.`,
        ]
      return ['Thank you for your order. We will let you know as soon as it ships.']
    case 'paid':
      return [`We have received your payment of ${money(order.paid_minor)}. We are preparing your order.`]
    case 'payment_failed':
      return ['Your payment did not go through. You can try again from your order page.']
    case 'shipped':
      return ['Your order is on its way.']
    case 'delivered':
      return ['Your order has been delivered. We hope you love it.']
    case 'canceled':
      return order.paid_minor > order.refunded_minor
        ? [
            'Your order has been canceled. The money you paid will be refunded; you will get a mail when it is.',
          ]
        : ['Your order has been canceled.']
    case 'expired':
      return isCashOnDelivery(order)
        ? ['Your order was not confirmed in time, so it has expired and its items are available again.']
        : ['Your order was not paid in time, so it has expired and its items are available again.']
    case 'out_for_delivery':
      return ['Your order is out for delivery today. Please keep your phone at hand for the courier.']
    case 'undelivered':
      return [
        'The courier could not deliver your order. They will try again; reply to this mail if you would like another day or address.',
      ]
    case 'rto':
      return ['Your order could not be delivered and is coming back to us. We will write when it arrives.']
    case 'returned':
      return ['Your order has come back to us.']
    case 'cod_collected':
      return [`The courier has collected ${money(order.paid_minor)} in cash for your order. Thank you.`]
    case 'return_requested':
      return ['We have booked the courier to pick up your return. Please pack the pieces with their tags on.']
    case 'return_picked_up':
      return ['The courier has picked up your return. We will inspect it when it arrives.']
    case 'return_received':
      return ['Your return has arrived and been inspected.']
    case 'return_rejected':
      return ['Your return did not pass our inspection; the pieces will be sent back to you.']
    case 'exchange_shipped':
      return ['Your exchange is on its way, at no extra cost.']
    case 'refunded':
      return [
        order.refunded_minor >= order.paid_minor
          ? `We have refunded the full ${money(order.refunded_minor)} you paid.`
          : `We have refunded ${money(order.refunded_minor)} of the ${money(order.paid_minor)} you paid.`,
        'Refunds usually reach your account within 5–7 working days.',
      ]
  }
}

function itemLines(lines: readonly MailLine[], order: OrderRow): string[] {
  // Stored line totals are in the order's charge currency, like every amount of the order.
  const money = (amount: number) => formatPrice(amount, order.currency, { convert: false })
  return lines.flatMap((l) => [
    `  ${l.qty} × ${l.name}${l.rowTotal !== null ? ` — ${money(l.rowTotal)}` : ''}`,
    ...l.chosen.map((o) => `      ${o.label}: ${o.value}`),
  ])
}

interface MailParts {
  order: OrderRow
  doc: OrderDocument
  lines: MailLine[]
  money: (minor: number) => string
  payment: string
  address: string[]
  /** The placer's words were left out (the order is not paid or confirmed yet). */
  withheld: boolean
}

function summary(p: MailParts): string[] {
  return [
    'Items:',
    ...itemLines(p.lines, p.order),
    '',
    // The order's money, row by row (store credit and a gift card spent through it included).
    ...documentMoneyRows(p.doc).map(
      (r) => `${r.title}: ${r.minor < 0 ? '−' : ''}${p.money(Math.abs(r.minor))}`,
    ),
    `Payment: ${p.payment}`,
    ...(p.address.length ? ['', 'Delivery address:', ...p.address.map((l) => `  ${l}`)] : []),
    ...(p.withheld
      ? ['', 'The delivery address and anything you wrote for this order are on your order page.']
      : []),
  ]
}

/** The plain-text body of a shopper's order mail. */
function shopperText(
  event: OrderMailEvent,
  p: MailParts,
  link: string,
  config: AppConfig,
  detail: Record<string, string>,
  invoice: string | null,
  codLink: string | null,
): string {
  const extra = detailLines(detail)
  const status = ORDER_STATUS_LABELS[p.order.status as OrderStatus] ?? p.order.status
  return [
    ...intro(event, p.order, p.money),
    // A cash-on-delivery order waiting for the shopper: the signed link that confirms it.
    ...(codLink ? ['', `Confirm it (or cancel it) here: ${codLink}`] : []),
    ...(extra.length ? ['', ...extra] : []),
    '',
    `Order ${p.order.increment_id} — ${status}`,
    '',
    ...summary(p),
    '',
    `Your order: ${link}`,
    // The invoice opens from the order page; this link asks the page to download it at once.
    ...(invoice ? [`Your tax invoice ${invoice}: ${link}&doc=invoice`] : []),
    `Questions? Write to ${config.SUPPORT_EMAIL} and mention order ${p.order.increment_id}.`,
  ].join('\n')
}

/** The plain-text body of the merchant's new-order mail. */
function merchantText(p: MailParts, config: AppConfig): string {
  const name = oneLine([p.doc.customer_firstname, p.doc.customer_lastname].filter(Boolean).join(' '), 200)
  const phone = p.doc.billing_address?.telephone
  return [
    // On the shop's clock, like every time the back office shows.
    `New order ${p.order.increment_id} (${zonedDateTime(storedInstant(p.order.created_at) ?? 0, shopTimeZone())} ${shopTimeZone()})`,
    '',
    `Customer: ${name || '—'} <${p.order.customer_email}>${p.order.customer_id ? '' : ' (guest)'}`,
    ...(phone ? [`Phone: ${oneLine(phone, 40)}`] : []),
    '',
    ...summary(p),
    '',
    `Open it in the back office: ${config.PUBLIC_ORIGIN}/admin`,
  ].join('\n')
}

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
 * Sends the mails for an order event (the shopper's, and the merchant's for a new order). Never
 * throws for the mail provider: an undelivered mail stays in the outbox for the drain.
 */
export async function notifyOrder(
  env: Env,
  config: AppConfig,
  event: OrderMailEvent,
  orderId: string,
  now: number,
  detail: Record<string, string> = {},
): Promise<void> {
  const order = await findOrderByClientId(env.DB, orderId)
  if (!order) return
  const confirmed = await confirmedOrder(env.DB, orderId)
  const doc = parseOrderDocument(order.doc)
  const method = orderPaymentName(doc.payment)
  // Everything the order says (the merchant's copy, and the shopper's once paid or confirmed).
  const full: MailParts = {
    order,
    doc,
    lines: await mailLines(env.DB, doc.items ?? []),
    money: (minor) => formatPrice(minor / 100, order.currency, { convert: false }),
    payment: [PAYMENT_STATE_LABELS[order.payment_state] ?? order.payment_state, method && `(${method})`]
      .filter(Boolean)
      .join(' '),
    address: addressLines(doc.extension_attributes?.shipping_assignments?.[0]?.shipping?.address),
    withheld: false,
  }
  const parts = confirmed
    ? full
    : { ...full, lines: withoutTypedText(full.lines), address: [], withheld: true }
  if (confirmed || (await unconfirmedMailAllowed(env, order, event, now))) {
    const link = await orderPageLink(env, config, order, now)
    const invoice = await env.DB.prepare(
      "SELECT number FROM tax_documents WHERE kind = 'invoice' AND client_order_id = ?",
    )
      .bind(order.client_order_id)
      .first<{ number: string }>()
    await deliverMail(
      env,
      {
        kind: `order-${event}`,
        from: config.SUPPORT_EMAIL,
        to: order.customer_email,
        subject: SUBJECTS[event](order.increment_id),
        text: shopperText(
          event,
          parts,
          link,
          config,
          detail,
          invoice?.number ?? null,
          event === 'placed' ? await codConfirmLink(env, config, order) : null,
        ),
      },
      now,
    )
  }
  // The WhatsApp message of the event, to a shopper who opted in at checkout (mail goes either way).
  await messageOrder(env, config, event, orderId, now, detail)
  // The merchant hears of an order once it is taken: at placement, or for an order paid online
  // (whose placement sends nothing), when its payment arrives.
  if (event === 'placed' || (event === 'paid' && !isCashOnDelivery(order))) {
    // The merchant's copy names the customer and the address: it goes to the shop's own inbox.
    await deliverMail(
      env,
      {
        kind: 'order-merchant',
        from: config.SUPPORT_EMAIL,
        replyTo: order.customer_email,
        to: config.MERCHANT_EMAIL || config.SUPPORT_EMAIL,
        subject: `New order ${order.increment_id} — ${parts.money(order.grand_total_minor ?? 0)}`,
        text: merchantText(full, config),
      },
      now,
    )
  }
}
