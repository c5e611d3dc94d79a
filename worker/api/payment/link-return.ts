/**
 * GET /api/payment/link/return: where Razorpay sends the browser after a payment link is paid.
 * Only a genuine return counts (razorpay_signature over link|reference|status|payment with the key
 * secret, for a link this shop made): the payment is read back from the provider and settled
 * (settleLinkPayment: once, whatever the webhook did first), and the browser goes on to the order
 * page with its signed link. Anything else goes to the home page and changes nothing.
 */
import type { Context } from 'hono'
import type { AppEnv } from '../../platform/env'
import { orderPageLink } from '../order/link'
import { findOrderByClientId } from '../order/repo'
import { razorpayConfig } from './config'
import { linkCallbackGenuine, settleLinkPayment } from './payment-link'
import { later } from './provider-call'
import { capturedFigures, fetchRazorpayPayment } from './razorpay'
import { findPayment } from './repo'

export async function linkReturn(
  c: Context<AppEnv>,
  q: {
    razorpay_payment_id: string
    razorpay_payment_link_id: string
    razorpay_payment_link_reference_id: string
    razorpay_payment_link_status: string
    razorpay_signature: string
  },
): Promise<string> {
  const home = `${c.var.config.PUBLIC_ORIGIN}/`
  const cfg = razorpayConfig(c.env)
  if (!cfg) return home
  const genuine = await linkCallbackGenuine(cfg.keySecret, {
    linkId: q.razorpay_payment_link_id,
    referenceId: q.razorpay_payment_link_reference_id,
    status: q.razorpay_payment_link_status,
    paymentId: q.razorpay_payment_id,
    signature: q.razorpay_signature,
  })
  const pay = genuine ? await findPayment(c.env.DB, 'razorpay', q.razorpay_payment_link_id) : null
  const order = pay ? await findOrderByClientId(c.env.DB, pay.client_order_id) : null
  if (!pay || !order) return home
  const now = Date.now()
  if (q.razorpay_payment_link_status === 'paid') {
    try {
      const payment = await fetchRazorpayPayment(cfg, q.razorpay_payment_id)
      if (payment.status === 'captured' || payment.status === 'refunded')
        await settleLinkPayment(
          c.env,
          c.var.config,
          {
            linkId: pay.provider_order_id,
            ...capturedFigures(payment),
            via: 'callback',
          },
          now,
          later(c),
        )
    } catch (err) {
      // The webhook settles it when the provider could not be read now; the page shows the state.
      console.error(JSON.stringify({ msg: 'payment link return not settled', err: String(err) }))
    }
  }
  return orderPageLink(c.env, c.var.config, order, now)
}
