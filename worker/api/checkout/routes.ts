/**
 * Checkout look-ups the form asks while the shopper types. GET /api/checkout/cod?postcode=&country=
 * says whether cash on delivery is offered for that address, and why not. Only a well-formed PIN
 * code (six digits, the first not 0) is looked up; anything else is a 400 before D1 is touched, so
 * the endpoint cannot be used to scan for anything but PIN codes.
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
import { codServiceable } from './cod'

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
})

checkoutRoutes.get('/cod', query(CodQuery, 'cash on delivery query'), async (c) => {
  const { postcode, country = 'IN' } = c.req.valid('query')
  const available = await codServiceable(c.env.DB, country, postcode)
  c.header('Cache-Control', 'public, max-age=300')
  return ok(c, {
    postcode,
    country: country.toUpperCase(),
    available,
    message: codUnavailableMessage(country, postcode, available),
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
