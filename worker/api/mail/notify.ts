/**
 * Order e-mails: the ONE entry point every part of the shop calls when something happens to an
 * order (placed, paid, payment failed, shipped, delivered, canceled, expired, refunded). The
 * shopper gets a mail for each; the merchant also gets one for a new order. Each mail names the
 * order, its items with what the shopper chose, the address, the payment state and a link to the
 * order page. Mail goes through deliverMail (provider when configured, else the outbox).
 */
import { ORDER_STATUS_LABELS, type OrderStatus } from '@shared/config/order-status'
import { formatPrice } from '@shared/domain/currency'
import type { AppConfig } from '../../platform/env'
import { orderPageLink } from '../order/link'
import { findOrderByClientId, type OrderRow } from '../order/repo'
import { deliverMail } from './deliver'

type OrderMailEvent =
  | 'placed'
  | 'paid'
  | 'payment_failed'
  | 'shipped'
  | 'delivered'
  | 'canceled'
  | 'expired'
  | 'refunded'

const SUBJECTS: Record<OrderMailEvent, (n: string) => string> = {
  placed: (n) => `We have received your order ${n}`,
  paid: (n) => `Payment received for order ${n}`,
  payment_failed: (n) => `Payment for order ${n} did not go through`,
  shipped: (n) => `Your order ${n} is on its way`,
  delivered: (n) => `Your order ${n} has been delivered`,
  canceled: (n) => `Your order ${n} has been canceled`,
  expired: (n) => `Your order ${n} has expired`,
  refunded: (n) => `A refund for order ${n}`,
}

interface DocItem {
  name?: string
  sku?: string
  qty_ordered?: number
  row_total_incl_tax?: number
  /** What the shopper chose, as label/value pairs (options, bundle pieces, grouped pieces). */
  options?: readonly { label: string; value: string }[]
}
interface DocAddress {
  firstname?: string
  lastname?: string
  street?: readonly string[]
  city?: string
  postcode?: string
  country_id?: string
}

function addressLines(a: DocAddress | null | undefined): string[] {
  if (!a) return []
  return [
    [a.firstname, a.lastname].filter(Boolean).join(' '),
    ...(a.street ?? []),
    [a.postcode, a.city].filter(Boolean).join(' '),
    a.country_id ?? '',
  ].filter((l) => l.trim() !== '')
}

/** The plain-text body of an order mail. */
function orderMailText(
  event: OrderMailEvent,
  order: OrderRow,
  link: string,
  detail: Record<string, string> = {},
): string {
  const doc = JSON.parse(order.doc) as {
    items?: DocItem[]
    extension_attributes?: { shipping_assignments?: { shipping?: { address?: DocAddress | null } }[] }
  }
  const money = (minor: number) => formatPrice(minor / 100, order.currency, { convert: false })
  const items = (doc.items ?? []).map((it) => {
    const chosen = (it.options ?? []).map((o) => `\n    ${o.label}: ${o.value}`).join('')
    // Item amounts are in the order's charge currency, like its total.
    const total = it.row_total_incl_tax != null ? ` — ${money(Math.round(it.row_total_incl_tax * 100))}` : ''
    return `  ${it.qty_ordered ?? 1} × ${it.name ?? it.sku}${total}${chosen}`
  })
  const address = addressLines(doc.extension_attributes?.shipping_assignments?.[0]?.shipping?.address)
  const status = ORDER_STATUS_LABELS[order.status as OrderStatus] ?? order.status
  return [
    `Order ${order.increment_id} — ${status}`,
    '',
    ...Object.entries(detail).map(([k, v]) => `${k}: ${v}`),
    ...(Object.keys(detail).length ? [''] : []),
    'Items:',
    ...items,
    '',
    `Total: ${money(order.grand_total_minor ?? 0)}`,
    `Payment: ${order.payment_state.replace('_', ' ')}`,
    ...(address.length ? ['', 'Delivery address:', ...address.map((l) => `  ${l}`)] : []),
    '',
    `Your order: ${link}`,
  ].join('\n')
}

/**
 * Sends the mails for an order event (the shopper's, and the merchant's for a new order). Never
 * throws for the mail provider: an undelivered mail stays in the outbox.
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
  const link = await orderPageLink(env, config, order, now)
  const text = orderMailText(event, order, link, detail)
  const subject = SUBJECTS[event](order.increment_id)
  await deliverMail(
    env,
    { kind: `order-${event}`, from: config.SUPPORT_EMAIL, to: order.customer_email, subject, text },
    now,
  )
  if (event === 'placed') {
    await deliverMail(
      env,
      {
        kind: 'order-merchant',
        from: config.SUPPORT_EMAIL,
        to: config.SUPPORT_EMAIL,
        subject: `New order ${order.increment_id}`,
        text,
      },
      now,
    )
  }
}
