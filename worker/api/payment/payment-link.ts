/**
 * The prepaid switch: a cash-on-delivery order still waiting for confirmation ('pending') can be
 * paid online instead, through a Razorpay Payment Link (POST /v1/payment_links) for exactly the
 * order's total in its currency (INR): the amount on the link = the amount shown = what the order
 * records. The link is a provider order like any other (`payments`, its id as provider_order_id),
 * so its payment is settled by settlePaid: the order moves 'pending' → 'processing' paid through
 * transitionOrder exactly once, whether the payment_link.paid webhook (once or many times) or the
 * browser's return with its signed callback comes first; a payment after the order expired or was
 * canceled is refunded. Once paid, the order's payment method is the online one, so the courier
 * collects nothing.
 *
 * Bounds: at most LINKS_PER_ORDER links per order (an open one is offered again, not made anew);
 * the link expires with the order's confirmation deadline (Razorpay needs at least 15 minutes).
 */

import { orderDateTime } from '@shared/components/order/order-text'
import { CASH_ON_DELIVERY_CODE } from '@shared/config/checkout'
import { messageOrder } from '../../messages/orders'
import type { AppConfig } from '../../platform/env'
import { fail } from '../../platform/http'
import type { OrderRow } from '../order/repo'
import { razorpayConfig } from './config'
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
  currency: string
  /** ms epoch after which the link no longer works. */
  expiresAt: number
}

interface LinkRow {
  provider_order_id: string
  amount_minor: number
  currency: string
  status: string
  detail: string
}

/**
 * Why an order cannot switch to prepaid, in words for its shopper (null: it can). Only a COD order
 * still waiting for confirmation ('pending') can: once confirmed, packed or shipped it is paid on
 * delivery, and a paid, canceled or expired order has nothing left to pay.
 */
function switchRefusal(order: OrderRow): string | null {
  const n = order.increment_id
  if (order.payment_method === CASH_ON_DELIVERY_CODE && order.status === 'pending') return null
  if (order.payment_state === 'paid') return `Order ${n} is paid already. There is nothing more to pay.`
  if (order.payment_method !== CASH_ON_DELIVERY_CODE)
    return `Order ${n} cannot be paid online now: only a cash-on-delivery order waiting for confirmation can.`
  if (order.status === 'processing' || order.status === 'packed')
    return `Order ${n} is confirmed for cash on delivery and being prepared, so it can no longer be paid online. Please pay cash on delivery.`
  if (order.status === 'canceled' || order.status === 'expired' || order.status === 'closed')
    return `Order ${n} is ${order.status}: there is nothing to pay.`
  // Every other status comes after the order left the label (shipped and what follows).
  return `Order ${n} has been shipped already, so it can no longer be paid online. Please pay cash on delivery.`
}

/**
 * The payment link for a pending COD order: the open one if there is one, else a new one. 409
 * for an order that cannot switch (not COD, confirmed already, too near its deadline) or has had
 * LINKS_PER_ORDER links; 503 without Razorpay.
 */
export async function offerPaymentLink(
  env: Env,
  config: AppConfig,
  order: OrderRow,
  now: number,
): Promise<OfferedLink> {
  const cfg = razorpayConfig(env)
  if (!cfg) return fail(503, 'Paying online is not available on this store at the moment.')
  const refusal = switchRefusal(order)
  if (refusal) return fail(409, refusal)
  if (order.currency !== 'INR' || !order.grand_total_minor)
    return fail(
      409,
      `Order ${order.increment_id} cannot be paid by payment link (it is charged in ${order.currency}).`,
    )
  const nowS = Math.floor(now / 1000)
  const deadlineS = order.expires_at ? Math.floor(order.expires_at / 1000) : nowS + MAX_LINK_LIFE_S
  const expireBy = Math.min(deadlineS, nowS + MAX_LINK_LIFE_S)
  if (expireBy < nowS + MIN_LINK_LIFE_S)
    return fail(
      409,
      `Order ${order.increment_id} is too close to its confirmation deadline to be paid by link.`,
    )
  const { results: rows } = await env.DB.prepare(
    `SELECT provider_order_id, amount_minor, currency, status, detail FROM payments
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
  const body = {
    amount: order.grand_total_minor,
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
  if (link.amount !== order.grand_total_minor || link.currency !== order.currency)
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
  await env.DB.prepare('UPDATE payments SET detail = ? WHERE provider_order_id = ?')
    .bind(
      JSON.stringify({ short_url: link.short_url, expire_by: link.expire_by, reference_id: referenceId }),
      link.id,
    )
    .run()
  await messageOrder(env, config, 'pay_link', order.client_order_id, now, {
    url: link.short_url,
    until: orderDateTime(link.expire_by * 1000),
  })
  return {
    url: link.short_url,
    amountMinor: link.amount,
    currency: link.currency,
    expiresAt: link.expire_by * 1000,
  }
}

/** A payment reported on a payment link: settled like any payment, from 'pending' as well. */
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
      payableFrom: ['pending', 'pending_payment', 'payment_failed'],
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
