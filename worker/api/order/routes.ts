/**
 * /api/order:
 *   POST /         order body → {magentoOrderId, orderNumber, backendOrderId, transferedAt, status,
 *                  paymentPending, message, accessKey} (placement in place.ts)
 *   POST /get      {orderId, accessKey?} → the order (customer: own orders via token; guest: the
 *                  access key, which travels only in this body, never in a URL)
 *   GET  /get?orderId=   → the order for its customer (token); an access key in a URL never counts
 */

import { OrderBodySchema } from '@shared/schemas/order'
import type { Context } from 'hono'
import { Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../platform/env'
import { fail, jsonBody, noStore, ok, query } from '../../platform/http'
import { sha256Hex } from '../auth/crypto'
import { NOT_AUTHORIZED, optionalCustomer } from '../auth/guard'
import { withLineImages } from './line-images'
import { placeOrder } from './place'
import { sameHash } from './replay'
import { findOrderByAnyId, orderDoc } from './repo'

/**
 * The largest order body read: clients send whole cart lines (tens of KB for a few lines), and
 * an order holds at most 100 lines.
 */
const MAX_ORDER_BODY_BYTES = 1024 * 1024
/** The largest POST /get body read (an order id and an access key). */
const MAX_ORDER_GET_BODY_BYTES = 4 * 1024

export const orderRoutes = new Hono<AppEnv>()
orderRoutes.use('*', noStore)

// The placement burst limit (holds.ts) has answered before this: it is mounted ahead of /api's
// body limit in ../index.ts, which reads a body sent without a length before any route runs.
orderRoutes.post('/', jsonBody(OrderBodySchema, { what: 'order', maxBytes: MAX_ORDER_BODY_BYTES }), (c) =>
  placeOrder(c, c.req.valid('json')),
)

const OrderIdSchema = z
  .string({ error: 'orderId is required' })
  .trim()
  .min(1, 'orderId is required')
  .max(100, 'orderId must be at most 100 characters')

const GetOrderQuerySchema = z.object({ orderId: OrderIdSchema })
const GetOrderBodySchema = z.object({
  orderId: OrderIdSchema,
  accessKey: z.string().max(200, 'accessKey must be at most 200 characters').optional(),
})

const KEY_NOT_IN_URL =
  'An access key is only accepted in the JSON body of POST /api/order/get, never in a URL.'

/**
 * The order for its customer (token) or for whoever holds its guest access key. The key is a
 * bearer secret and is read only from a POST body: a URL ends up in logs, history and Referer
 * headers, so a key in the query string never unlocks anything.
 */
async function getOrder(c: Context<AppEnv>, orderId: string, accessKey: string | undefined) {
  const customer = await optionalCustomer(c)
  const row = await findOrderByAnyId(c.env.DB, orderId)
  if (!row) fail(404, `Order ${orderId} not found.`)
  const ownCustomerOrder = customer !== null && row.customer_id === customer.id
  const keyMatches = accessKey ? sameHash(await sha256Hex(accessKey), row.access_key_hash) : false
  if (!ownCustomerOrder && !keyMatches) {
    if (!customer && row.customer_id !== null) fail(401, NOT_AUTHORIZED)
    const keyInUrl = c.req.query('accessKey') !== undefined
    fail(403, `You are not allowed to see this order.${keyInUrl ? ` ${KEY_NOT_IN_URL}` : ''}`)
  }
  const doc = orderDoc(row)
  // Each line with the picture it was bought with.
  // Each line with the picture it was bought with; an unpaid order says until when it is held.
  return ok(c, {
    ...doc,
    expires_at: row.expires_at,
    items: await withLineImages(c.env.DB, row.client_order_id, doc.items ?? []),
  })
}

orderRoutes.get('/get', query(GetOrderQuerySchema), async (c) => {
  const { orderId } = c.req.valid('query')
  return getOrder(c, orderId, undefined)
})

orderRoutes.post('/get', jsonBody(GetOrderBodySchema, { maxBytes: MAX_ORDER_GET_BODY_BYTES }), async (c) => {
  const { orderId, accessKey } = c.req.valid('json')
  return getOrder(c, orderId, accessKey)
})
