/**
 * Checkout look-ups the form asks while the shopper types. GET /api/checkout/cod?postcode=&country=
 * says whether cash on delivery is offered for that address, and why not. Only a well-formed PIN
 * code (six digits, the first not 0) is looked up; anything else is a 400 before D1 is touched, so
 * the endpoint cannot be used to scan for anything but PIN codes. With the caller's own cart
 * (`cartId`, as the cart API names it) and the phone number the form holds, the answer also
 * applies the operator's rules for that order (phone blocklist, pieces made to order, the highest
 * total collected), so the shopper reads the refusal before the review; it is then private.
 * GET /api/checkout/delivery?postcode= says whether the courier delivers there, whether cash on
 * delivery is collected there and in how many days (worker/fulfilment/serviceability.ts): the
 * product page's PIN check and the checkout's delivery estimate.
 */
import { codUnavailableMessage, PINCODE_RE } from '@shared/config/checkout'
import { Hono } from 'hono'
import { z } from 'zod'
import { deliveryTo } from '../../fulfilment/serviceability'
import type { AppEnv } from '../../platform/env'
import { clientAddress, ok, query } from '../../platform/http'
import { callersCart } from '../cart/repo'
import { codServiceable } from './cod'
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
  const available = await codServiceable(c.env.DB, country, postcode)
  const address = { country_id: country.toUpperCase(), postcode, telephone: phone ?? '' }
  const refusal =
    available && cartId ? await cartCodRefusal(c, (await callersCart(c, cartId)).cart, address) : null
  c.header('Cache-Control', cartId ? 'private, no-store' : 'public, max-age=300')
  return ok(c, {
    postcode,
    country: country.toUpperCase(),
    available: available && refusal === null,
    message: refusal ?? codUnavailableMessage(country, postcode, available),
  })
})

const DeliveryQuery = z.object({ postcode: CodQuery.shape.postcode })

checkoutRoutes.get('/delivery', query(DeliveryQuery, 'delivery query'), async (c) => {
  const { postcode } = c.req.valid('query')
  const d = await deliveryTo(c.env, postcode, clientAddress(c), Date.now())
  c.header('Cache-Control', 'public, max-age=300')
  return ok(c, {
    ...d,
    message: d.serviceable
      ? `Delivered in about ${d.days} days${d.cod ? '; cash on delivery available' : ''}.`
      : `We cannot deliver to PIN ${postcode} yet.`,
  })
})
