/**
 * WhatsApp order updates: what each order event sends, to the phone the shopper opted in with at
 * checkout (never to anyone else). Mail goes out for every event as well (notifyOrder), so a
 * shopper without WhatsApp, or whose message failed, still hears. Called by notifyOrder, the one
 * entry point for order events; never throws.
 *
 * Until an order is paid or confirmed (it is still in a holding status), anyone could have typed
 * the phone, so at most UNCONFIRMED_MESSAGES_PER_PHONE such messages go to one phone a day.
 */

import { orderDateTime } from '@shared/components/order/order-text'
import { HOLDING_STATUSES, type OrderStatus } from '@shared/config/order-status'
import { formatMinor } from '@shared/domain/currency'
import { withinLimits } from '../api/auth/rate-limit'
import { findOrderByClientId, type OrderRow } from '../api/order/repo'
import type { AppConfig } from '../platform/env'
import { buttonPayload } from './actions'
import { orderPhone } from './consent'
import { queueMessage } from './send'
import type { TemplateSend } from './whatsapp'

const UNCONFIRMED_MESSAGES_PER_PHONE = 3
const DAY_MS = 24 * 3600_000

const isCod = (o: OrderRow) => o.payment_method === 'cashondelivery'

/** The template send for an order event, or null when the event sends no message. */
async function messageFor(
  env: Env,
  config: AppConfig,
  event: string,
  o: OrderRow,
  detail: Record<string, string>,
): Promise<TemplateSend | null> {
  const n = o.increment_id
  const money = (minor: number) => formatMinor(minor, o.currency)
  switch (event) {
    case 'placed':
      if (isCod(o) && o.status === 'pending')
        return {
          template: 'cod_confirmation',
          values: [n, money(o.grand_total_minor ?? 0), o.expires_at ? orderDateTime(o.expires_at) : 'soon'],
          payloads: [
            await buttonPayload(env, config, 'confirm', n),
            await buttonPayload(env, config, 'cancel', n),
          ],
        }
      return { template: 'order_placed', values: [n, money(o.grand_total_minor ?? 0)] }
    case 'paid':
    case 'cod_collected':
      return { template: 'payment_received', values: [n, money(o.paid_minor)] }
    case 'shipped':
      return {
        template: 'order_shipped',
        values: [
          n,
          detail.carrier ?? 'our courier',
          detail.tracking_number ?? detail.tracking ?? detail.trackingNumber ?? '-',
        ],
      }
    case 'out_for_delivery':
      return { template: 'out_for_delivery', values: [n] }
    case 'delivered':
      return { template: 'order_delivered', values: [n] }
    case 'undelivered':
      return {
        template: 'delivery_failed',
        values: [n],
        payloads: [
          await buttonPayload(env, config, 'redeliver', n),
          await buttonPayload(env, config, 'call', n),
        ],
      }
    case 'pay_link': {
      // The link's own amount (the total less any prepaid discount), as the link asks it; with a
      // discount, what the shopper saves: the order's total less the link's amount.
      const asked = Number(detail.amount ?? o.grand_total_minor ?? 0)
      const saving = (o.grand_total_minor ?? 0) - asked
      if (saving > 0)
        return {
          template: 'pay_now_link_saving',
          values: [n, money(asked), money(saving), detail.url ?? '', detail.until ?? ''],
        }
      return { template: 'pay_now_link', values: [n, money(asked), detail.url ?? '', detail.until ?? ''] }
    }
    case 'refunded':
      return { template: 'refund_processed', values: [n, money(o.refunded_minor)] }
    default:
      return null
  }
}

/** Sends the WhatsApp message of an order event, when the order's shopper opted in. */
export async function messageOrder(
  env: Env,
  config: AppConfig,
  event: string,
  orderOrId: string | OrderRow,
  now: number,
  detail: Record<string, string> = {},
): Promise<string> {
  const orderId = typeof orderOrId === 'string' ? orderOrId : orderOrId.client_order_id
  try {
    // The number and the order are read together (one round trip where reads are coalesced).
    const [phone, order] = await Promise.all([
      orderPhone(env.DB, orderId),
      typeof orderOrId === 'string' ? findOrderByClientId(env.DB, orderId) : orderOrId,
    ])
    if (!phone) return 'no-phone'
    if (!order) return 'no-order'
    const send = await messageFor(env, config, event, order, detail)
    if (!send) return 'no-template'
    if (HOLDING_STATUSES.includes(order.status as OrderStatus)) {
      const allowed = await withinLimits(
        env.DB,
        [{ key: `order-msg:to:${phone}`, limit: UNCONFIRMED_MESSAGES_PER_PHONE, windowMs: DAY_MS }],
        now,
      )
      if (!allowed) return 'held-back'
    }
    // A refund is one event per amount refunded so far; any other event is sent once per order.
    const key = `${orderId}:${event}${event === 'refunded' ? `:${order.refunded_minor}` : ''}`
    return await queueMessage(env, { phone, orderId, send, dedupeKey: key }, now)
  } catch (err) {
    console.error(JSON.stringify({ msg: 'WhatsApp order message failed', event, err: String(err) }))
    return 'error'
  }
}
