/**
 * The prepaid switch: a cash-on-delivery order not yet handed to the courier — still waiting for
 * confirmation ('pending'), or confirmed ('processing') with no shipment of its own written — can be
 * paid online instead, through a Razorpay Payment Link (POST /v1/payment_links) for the order's
 * total in its currency (INR), COD fee included, less the prepaid discount fixed with the link
 * (prepaid-discount.ts): the amount on the link = the amount shown = what the order records once paid. The link is a provider order like any other (`payments`, its id as
 * provider_order_id), so its payment is settled by settlePaid: the order becomes paid through
 * transitionOrder exactly once ('pending' → 'processing', or 'processing' kept), whether the
 * payment_link.paid webhook (once or many times) or the browser's return with its signed callback
 * comes first. The move is conditional on the same rule (SWITCHABLE) at the moment it is written, so
 * a payment that comes after "ready to ship" wrote the shipment, or after the order was canceled or
 * expired, changes nothing and is refunded. Once paid, the order's payment method is the online one,
 * so the courier collects nothing.
 *
 * Bounds: at most LINKS_PER_ORDER links per order (an open one is offered again, not made anew);
 * a link to confirm expires with the order's confirmation deadline, a confirmed order's in 24 h
 * (Razorpay needs at least 15 minutes).
 */

import { orderDateTime } from '@shared/components/order/order-text'
import { CASH_ON_DELIVERY_CODE } from '@shared/config/checkout'
import type { OrderStatus } from '@shared/config/order-status'
import { messageOrder } from '../../messages/orders'
import type { AppConfig } from '../../platform/env'
import { fail } from '../../platform/http'
import type { OrderRow } from '../order/repo'
import { razorpayConfig } from './config'
import { prepaidDiscountFor, prepaidDiscountSetting } from './prepaid-discount'
import { ProviderError, razorpayCall } from './razorpay'
import { insertPayment } from './repo'
import { type Later, settlePaid } from './settle'
import { hmacMatches } from './signature'

const LINKS_PER_ORDER = 3
/** Razorpay's shortest link life, and a minute to spare. */
const MIN_LINK_LIFE_S = 16 * 60
/** The longest a link lives when the order's deadline is further away. */
const MAX_LINK_LIFE_S = 24 * 3600
/** The payment method code an order paid through a link is recorded with. */
const ONLINE_METHOD = 'card'

interface RazorpayLink {
  id: string
  short_url: string
  amount: number
  currency: string
  status: string
  reference_id: string
  expire_by: number
}

interface OfferedLink {
  url: string
  amountMinor: number
  /** Paise off the order's total for paying now (0: none); amountMinor is the total less it. */
  discountMinor: number
  currency: string
  /** ms epoch after which the link no longer works. */
  expiresAt: number
}

interface LinkRow {
  provider_order_id: string
  amount_minor: number
  discount_minor: number
  currency: string
  status: string
  detail: string
}

/** The statuses a COD order switches from: to confirm, or confirmed and not yet packed. */
const SWITCH_FROM: readonly OrderStatus[] = ['pending', 'processing']

/**
 * The prepaid switch's rule on the order's row, as SQL: a cash-on-delivery order not paid, of which
 * no parcel has been written for the courier (a forward shipment of its own, whatever its state:
 * "ready to ship" writes it before the courier is called, with the cash to collect). Checked when a
 * link is offered and again, in the same statement as the move, when its payment is settled.
 */
const SWITCHABLE = `payment_method = '${CASH_ON_DELIVERY_CODE}' AND payment_state <> 'paid'
  AND NOT EXISTS (SELECT 1 FROM shipments s WHERE s.client_order_id = orders.client_order_id
    AND s.kind = 'forward' AND s.return_id IS NULL)`

/** Whether an order may switch to prepaid now (the rule above, its status, and a rupee total). */
export async function switchesToPrepaid(db: D1Database, order: OrderRow): Promise<boolean> {
  if (!SWITCH_FROM.includes(order.status as OrderStatus) || order.currency !== 'INR') return false
  if (!order.grand_total_minor) return false
  const row = await db
    .prepare(`SELECT 1 AS ok FROM orders WHERE client_order_id = ? AND ${SWITCHABLE}`)
    .bind(order.client_order_id)
    .first<{ ok: number }>()
  return row !== null
}

/**
 * What paying the order by link asks now: its open link's amount, else the total less the prepaid
 * discount the setting gives (what a new link would ask). The order page shows it and opens a link
 * only for it.
 */
export async function prepaidAmountMinor(db: D1Database, order: OrderRow, now: number): Promise<number> {
  const open = await db
    .prepare(
      `SELECT amount_minor FROM payments WHERE client_order_id = ? AND provider = 'razorpay'
       AND provider_order_id LIKE 'plink%' AND status = 'created'
       AND COALESCE(json_extract(detail, '$.expire_by'), 0) >= ? ORDER BY id LIMIT 1`,
    )
    .bind(order.client_order_id, Math.floor(now / 1000) + 60)
    .first<{ amount_minor: number }>()
  if (open) return open.amount_minor
  return (order.grand_total_minor ?? 0) - prepaidDiscountFor(await prepaidDiscountSetting(db), order)
}

/**
 * Why an order cannot switch to prepaid, in words for its shopper (null: it can). A COD order to
 * confirm, or confirmed and not yet given to the courier, can; once its parcel is booked (packed,
 * shipped and after) it is paid on delivery, and a paid, canceled or expired order has nothing left
 * to pay.
 */
async function switchRefusal(db: D1Database, order: OrderRow): Promise<string | null> {
  const n = order.increment_id
  if (SWITCH_FROM.includes(order.status as OrderStatus) && order.payment_state !== 'paid') {
    if (order.payment_method !== CASH_ON_DELIVERY_CODE)
      return `Order ${n} cannot be paid online now: only a cash-on-delivery order not yet handed to the courier can.`
    if (order.currency !== 'INR' || !order.grand_total_minor)
      return `Order ${n} cannot be paid by payment link (it is charged in ${order.currency}).`
    if (await switchesToPrepaid(db, order)) return null
  }
  if (order.payment_state === 'paid') return `Order ${n} is paid already. There is nothing more to pay.`
  if (order.payment_method !== CASH_ON_DELIVERY_CODE)
    return `Order ${n} cannot be paid online now: only a cash-on-delivery order not yet handed to the courier can.`
  if (order.status === 'processing' || order.status === 'packed')
    return `Order ${n} is being handed to the courier for cash on delivery, so it can no longer be paid online. Please pay cash on delivery.`
  if (order.status === 'canceled' || order.status === 'expired' || order.status === 'closed')
    return `Order ${n} is ${order.status}: there is nothing to pay.`
  // Every other status comes after the order left the label (shipped and what follows).
  return `Order ${n} has been shipped already, so it can no longer be paid online. Please pay cash on delivery.`
}

/**
 * The payment link for a COD order that may switch: the open one if there is one, else a new one.
 * 409 for an order that cannot switch (not COD, its parcel booked, too near its confirmation
 * deadline) or has had LINKS_PER_ORDER links; 503 without Razorpay.
 */
export async function offerPaymentLink(
  env: Env,
  config: AppConfig,
  order: OrderRow,
  now: number,
): Promise<OfferedLink> {
  const cfg = razorpayConfig(env)
  if (!cfg) return fail(503, 'Paying online is not available on this store at the moment.')
  const refusal = await switchRefusal(env.DB, order)
  if (refusal) return fail(409, refusal)
  const nowS = Math.floor(now / 1000)
  // Only an order still to confirm has a deadline; a confirmed one waits for no one.
  const deadlineS =
    order.status === 'pending' && order.expires_at
      ? Math.floor(order.expires_at / 1000)
      : nowS + MAX_LINK_LIFE_S
  const expireBy = Math.min(deadlineS, nowS + MAX_LINK_LIFE_S)
  if (expireBy < nowS + MIN_LINK_LIFE_S)
    return fail(
      409,
      `Order ${order.increment_id} is too close to its confirmation deadline to be paid by link.`,
    )
  const { results: rows } = await env.DB.prepare(
    `SELECT provider_order_id, amount_minor, discount_minor, currency, status, detail FROM payments
     WHERE client_order_id = ? AND provider = 'razorpay' AND provider_order_id LIKE 'plink%' ORDER BY id`,
  )
    .bind(order.client_order_id)
    .all<LinkRow>()
  const open = rows.find((r) => r.status === 'created' && (JSON.parse(r.detail).expire_by ?? 0) >= nowS + 60)
  if (open) {
    const d = JSON.parse(open.detail) as { short_url: string; expire_by: number }
    return {
      url: d.short_url,
      amountMinor: open.amount_minor,
      discountMinor: open.discount_minor,
      currency: open.currency,
      expiresAt: d.expire_by * 1000,
    }
  }
  if (rows.length >= LINKS_PER_ORDER)
    return fail(
      409,
      `Order ${order.increment_id} has had ${LINKS_PER_ORDER} payment links already. Please pay cash on delivery.`,
    )
  const referenceId = `${order.increment_id}-L${rows.length + 1}`.slice(0, 40)
  // The prepaid discount is fixed now, with the link: a later change of the setting leaves it be.
  const discountMinor = prepaidDiscountFor(await prepaidDiscountSetting(env.DB), order)
  const amountMinor = (order.grand_total_minor ?? 0) - discountMinor
  const body = {
    amount: amountMinor,
    currency: order.currency,
    accept_partial: false,
    reference_id: referenceId,
    description: `Order ${order.increment_id}`,
    customer: { email: order.customer_email },
    // The shop tells the shopper itself (its page, mail and WhatsApp): no SMS or mail from Razorpay.
    notify: { sms: false, email: false },
    reminder_enable: false,
    expire_by: expireBy,
    callback_url: `${config.PUBLIC_ORIGIN}/api/payment/link/return`,
    callback_method: 'get',
    upi_link: false,
    notes: { order: order.increment_id },
  }
  let link: RazorpayLink
  try {
    link = await razorpayCall<RazorpayLink>(cfg, 'POST', '/payment_links', body)
  } catch (err) {
    // A reused reference id: an earlier call made the link and its answer was lost. Read it back.
    if (!(err instanceof ProviderError) || err.status !== 400) throw err
    const found = await razorpayCall<{ payment_links: RazorpayLink[] }>(
      cfg,
      'GET',
      `/payment_links?reference_id=${encodeURIComponent(referenceId)}`,
    )
    const earlier = found.payment_links.find((l) => l.reference_id === referenceId)
    if (!earlier) throw err
    link = earlier
  }
  if (link.amount !== amountMinor || link.currency !== order.currency)
    return fail(
      502,
      'The payment provider made a link for another amount. Nothing was charged; please pay cash on delivery.',
    )
  await insertPayment(
    env.DB,
    {
      provider: 'razorpay',
      provider_order_id: link.id,
      client_order_id: order.client_order_id,
      amount_minor: link.amount,
      currency: link.currency,
    },
    now,
  )
  await env.DB.prepare('UPDATE payments SET detail = ?, discount_minor = ? WHERE provider_order_id = ?')
    .bind(
      JSON.stringify({ short_url: link.short_url, expire_by: link.expire_by, reference_id: referenceId }),
      discountMinor,
      link.id,
    )
    .run()
  await messageOrder(env, config, 'pay_link', order.client_order_id, now, {
    url: link.short_url,
    amount: String(link.amount),
    until: orderDateTime(link.expire_by * 1000),
  })
  return {
    url: link.short_url,
    amountMinor: link.amount,
    discountMinor,
    currency: link.currency,
    expiresAt: link.expire_by * 1000,
  }
}

/**
 * A payment reported on a payment link: settled like any payment, from 'pending' or a confirmed
 * 'processing', only while the order may still switch (SWITCHABLE, checked with the move).
 */
export async function settleLinkPayment(
  env: Env,
  config: AppConfig,
  report: {
    linkId: string
    paymentId: string
    amountMinor: number
    currency: string
    /** How the shopper paid, as Razorpay reports it ('upi', 'card', …): the order page names it. */
    method?: string | undefined
    via: string
  },
  now: number,
  later: Later,
) {
  // Settled by the discount the link was made with (stored with it), not by today's setting.
  const link = await env.DB.prepare('SELECT discount_minor FROM payments WHERE provider_order_id = ?')
    .bind(report.linkId)
    .first<{ discount_minor: number }>()
  const settled = await settlePaid(
    env,
    config,
    {
      provider: 'razorpay',
      providerOrderId: report.linkId,
      paymentId: report.paymentId,
      amountMinor: report.amountMinor,
      currency: report.currency,
      method: report.method,
      via: report.via,
      payableFrom: SWITCH_FROM,
      onlyIf: SWITCHABLE,
      discountMinor: link?.discount_minor ?? 0,
    },
    now,
    later,
  )
  if (settled.outcome === 'paid' && settled.order)
    // Paid online: nothing is collected on delivery.
    await env.DB.prepare(
      `UPDATE orders SET payment_method = ? WHERE client_order_id = ? AND payment_method = ? AND payment_state = 'paid'`,
    )
      .bind(ONLINE_METHOD, settled.order.client_order_id, CASH_ON_DELIVERY_CODE)
      .run()
  return settled
}

/** The browser's return from a paid link: its signature (key secret) over link|reference|status|payment. */
export function linkCallbackGenuine(
  keySecret: string,
  q: { linkId: string; referenceId: string; status: string; paymentId: string; signature: string },
) {
  return hmacMatches(keySecret, `${q.linkId}|${q.referenceId}|${q.status}|${q.paymentId}`, q.signature)
}
