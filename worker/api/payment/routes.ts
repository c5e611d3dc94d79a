/**
 * /api/payment:
 *   POST /start              {orderNumber, accessKey?} → what the browser needs to pay (Razorpay
 *                            Standard Checkout options, or the PayPal approval URL)
 *   POST /order              {orderNumber, accessKey?} → the order as its page shows it
 *   POST /razorpay/verify    {orderNumber, razorpay_payment_id, razorpay_signature} → the order's state
 *   POST /razorpay/webhook   Razorpay webhooks (webhooks.ts)
 *   POST /paypal/capture     {orderNumber, accessKey?} → captures the approved PayPal order
 *   POST /paypal/webhook     PayPal webhooks (webhooks.ts)
 * start, order and capture need the order's customer token, its guest access key (in the body) or
 * its order link (x-order-link header). Verify needs no session: only a signature made with our
 * key secret over the provider order WE stored for that order counts.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../platform/env'
import { jsonBody, noStore, ok, query } from '../../platform/http'
import { reservePerIp } from '../auth/rate-limit'
import { openOrder } from './access'
import { capturePayPal, verifyRazorpayCallback } from './callbacks'
import { linkReturn } from './link-return'
import { orderView } from './order-view'
import { offerPaymentLink } from './payment-link'
import { viaProvider } from './provider-call'
import { startPayment } from './start'
import { webhookRoutes } from './webhooks'

export const paymentRoutes = new Hono<AppEnv>()
paymentRoutes.use('*', noStore)

/** The largest payment call body read (ids and a signature). */
const MAX_BODY_BYTES = 4 * 1024

const OrderNumber = z
  .string({ error: 'orderNumber is required' })
  .regex(/^[0-9]{1,18}$/, 'orderNumber must be the order number (digits)')
const AccessKey = z.string().max(200, 'accessKey must be at most 200 characters').optional()
const OrderRef = z.object({ orderNumber: OrderNumber, accessKey: AccessKey })

const ProviderId = (name: string) =>
  z
    .string({ error: `${name} is required` })
    .regex(/^[A-Za-z0-9_-]{1,64}$/, `${name} must be 1 to 64 letters, digits, _ or -`)

const VerifyBody = z.object({
  orderNumber: OrderNumber,
  razorpay_payment_id: ProviderId('razorpay_payment_id'),
  // Sent by the checkout, never trusted: the signature is checked against the order id we stored.
  razorpay_order_id: z.string().max(100).optional(),
  razorpay_signature: z
    .string({ error: 'razorpay_signature is required' })
    .regex(/^[0-9a-f]{64}$/, 'razorpay_signature must be 64 hex digits'),
})

paymentRoutes.post(
  '/start',
  jsonBody(OrderRef, { what: 'payment start', maxBytes: MAX_BODY_BYTES }),
  async (c) => {
    const { orderNumber, accessKey } = c.req.valid('json')
    const order = await openOrder(c, orderNumber, accessKey)
    const answer = await viaProvider(() => startPayment(c.env, c.var.config, order, Date.now()))
    return ok(c, answer)
  },
)

/** Payment links one network address may ask for an hour (each may call the provider). */
const LINK_REQUESTS_PER_HOUR = 20

paymentRoutes.post(
  '/link',
  jsonBody(OrderRef, { what: 'payment link', maxBytes: MAX_BODY_BYTES }),
  async (c) => {
    const { orderNumber, accessKey } = c.req.valid('json')
    const now = Date.now()
    await reservePerIp(
      c,
      'paylink',
      LINK_REQUESTS_PER_HOUR,
      now,
      'Too many payment link requests from your network address. Please try again in an hour.',
      3600_000,
    )
    const order = await openOrder(c, orderNumber, accessKey)
    return ok(c, await viaProvider(() => offerPaymentLink(c.env, c.var.config, order, now)))
  },
)

const LinkReturn = z.object({
  razorpay_payment_id: ProviderId('razorpay_payment_id'),
  razorpay_payment_link_id: ProviderId('razorpay_payment_link_id'),
  razorpay_payment_link_reference_id: z.string().max(40),
  razorpay_payment_link_status: z.string().max(20),
  razorpay_signature: z.string().regex(/^[0-9a-f]{64}$/, 'razorpay_signature must be 64 hex digits'),
})

/** The browser's way back from a paid link: settled when genuine, then on to the order page. */
paymentRoutes.get('/link/return', query(LinkReturn, 'payment link return'), async (c) => {
  const q = c.req.valid('query')
  const answer = await linkReturn(c, q)
  return c.redirect(answer, 303)
})

paymentRoutes.post('/order', jsonBody(OrderRef, { what: 'order', maxBytes: MAX_BODY_BYTES }), async (c) => {
  const { orderNumber, accessKey } = c.req.valid('json')
  return ok(c, await orderView(c.env.DB, await openOrder(c, orderNumber, accessKey)))
})

paymentRoutes.post(
  '/razorpay/verify',
  jsonBody(VerifyBody, { what: 'payment verification', maxBytes: MAX_BODY_BYTES }),
  async (c) => ok(c, await verifyRazorpayCallback(c, c.req.valid('json'))),
)

paymentRoutes.post(
  '/paypal/capture',
  jsonBody(OrderRef, { what: 'payment capture', maxBytes: MAX_BODY_BYTES }),
  async (c) => {
    const { orderNumber, accessKey } = c.req.valid('json')
    return ok(c, await capturePayPal(c, await openOrder(c, orderNumber, accessKey)))
  },
)

paymentRoutes.route('/', webhookRoutes)
