/**
 * Checkout look-ups the form asks while the shopper types. GET /api/checkout/cod?postcode=&country=
 * says whether cash on delivery is offered for that address, and why not. Only a well-formed PIN
 * code (six digits, the first not 0) is looked up; anything else is a 400 before D1 is touched, so
 * the endpoint cannot be used to scan for anything but PIN codes. With the caller's own cart
 * (`cartId`, as the cart API names it) and the phone number the form holds, the answer also
 * applies the operator's rules for that order (phone blocklist, pieces made to order, the highest
 * total collected), so the shopper reads the refusal before the review; it is then private.
 * Both ask the courier for the PIN (worker/fulfilment/serviceability.ts) and carry its estimate:
 * GET /api/checkout/delivery?postcode= says whether the courier delivers there, whether cash on
 * delivery is collected there and by which day (the product page's PIN check); the COD answer
 * carries the same sentence for the checkout's shipping step. An answer given while the courier
 * has not answered yet says so (`pending`) and is not cached: the page asks again.
 */
import { codUnavailableMessage, PINCODE_RE } from '@shared/config/checkout'
import { type Context, Hono } from 'hono'
import { z } from 'zod'
import { deliveryEstimate, deliveryMessage, deliveryTo } from '../../fulfilment/serviceability'
import type { AppEnv } from '../../platform/env'
import { clientAddress, ok, query } from '../../platform/http'
import { callersCart } from '../cart/repo'
import { codAddressAllowed } from './cod'
import { cartCodRefusal } from './cod-cart'

export const checkoutRoutes = new Hono<AppEnv>()

const CodQuery = z.object({
  postcode: z
    .string({ error: 'postcode is required' })
    .trim()
    .regex(PINCODE_RE, 'postcode must be an Indian PIN code: six digits, the first not 0'),
  country: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'country must be a two-letter country code')
    .optional(),
  phone: z
    .string()
    .trim()
    .max(20, 'phone is at most 20 characters')
    .regex(/^[0-9+\-() ]*$/, 'phone may hold only digits, spaces and + - ( )')
    .optional(),
  cartId: z.string().trim().max(64, 'cartId is at most 64 characters').optional(),
})

checkoutRoutes.get('/cod', query(CodQuery, 'cash on delivery query'), async (c) => {
  const { postcode, country = 'IN', phone, cartId } = c.req.valid('query')
  const allowed = await codAddressAllowed(c.env.DB, country, postcode)
  // The courier's word for the PIN (asked now when not cached, within a bounded wait), the same
  // answer the delivery estimate beside it states.
  const delivery = country.toUpperCase() === 'IN' ? await askDelivery(c, postcode) : null
  const available = allowed && delivery?.cod === true
  const address = { country_id: country.toUpperCase(), postcode, telephone: phone ?? '' }
  const refusal =
    available && cartId ? await cartCodRefusal(c, (await callersCart(c, cartId)).cart, address) : null
  noteCaching(c, delivery, !!cartId)
  return ok(c, {
    postcode,
    country: country.toUpperCase(),
    available: available && refusal === null,
    message: refusal ?? codUnavailableMessage(country, postcode, available),
    ...(delivery
      ? { source: delivery.source, pending: delivery.pending, estimate: deliveryEstimate(delivery) }
      : {}),
  })
})

const askDelivery = (c: Context<AppEnv>, postcode: string) =>
  deliveryTo(c.env, postcode, clientAddress(c), Date.now(), (p) => c.executionCtx.waitUntil(p))

/** Answers are cached for five minutes, never one still waiting for the courier or for a cart. */
function noteCaching(c: Context<AppEnv>, d: { pending: boolean } | null, personal: boolean) {
  c.header('Cache-Control', personal || d?.pending ? 'private, no-store' : 'public, max-age=300')
}

const DeliveryQuery = z.object({ postcode: CodQuery.shape.postcode })

checkoutRoutes.get('/delivery', query(DeliveryQuery, 'delivery query'), async (c) => {
  const { postcode } = c.req.valid('query')
  const d = await askDelivery(c, postcode)
  noteCaching(c, d, false)
  return ok(c, { ...d, message: deliveryMessage(d) })
})
