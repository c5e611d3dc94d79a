/**
 * /api/wishlist/*:
 *   POST /add-wishlist          {user_id, item_id} → the wishlist (product documents)
 *   POST /remove-wishlist       {user_id, item_id} → the wishlist
 *   POST /show-wishlist-history {user_id}          → the wishlist
 * The customer comes from the token; a user_id that is not the token's customer → 403.
 * The result array replaces the client's items: catalogue product docs plus qty 1, newest first.
 */
import type { Context } from 'hono'
import { Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../platform/env'
import { fail, jsonBody, noStore, ok } from '../../platform/http'
import { FORBIDDEN, requireCustomer, signedIn } from '../auth/guard'
import type { CustomerRow } from '../user/repo'
import { magentoDate } from '../user/repo'

const MAX_WISHLIST_ITEMS = 200
const UserId = z.union([z.number().int(), z.string().trim().max(20)]).nullish()
const ItemBodySchema = z.object({
  user_id: UserId,
  item_id: z.coerce.number({ error: 'item_id is required' }).int().positive('item_id is required'),
})
const HistoryBodySchema = z.object({ user_id: UserId })

export const wishlistRoutes = new Hono<AppEnv>()
wishlistRoutes.use('*', noStore)

function assertSameUser(customer: CustomerRow, userId: number | string | null | undefined) {
  if (userId != null && userId !== '' && String(userId) !== String(customer.id)) fail(403, FORBIDDEN)
}

async function wishlist(c: Context<AppEnv>, customerId: number) {
  const { results } = await c.env.DB.prepare(
    `SELECT p.doc FROM wishlist_items w JOIN products p ON p.id = w.product_id
     WHERE w.customer_id = ? ORDER BY w.added_at DESC, w.rowid DESC`,
  )
    .bind(customerId)
    .all<{ doc: string }>()
  return results.map((r) => ({ ...JSON.parse(r.doc), qty: 1 }))
}

wishlistRoutes.post('/add-wishlist', signedIn, jsonBody(ItemBodySchema), async (c) => {
  const customer = await requireCustomer(c)
  const { user_id, item_id } = c.req.valid('json')
  assertSameUser(customer, user_id)
  const product = await c.env.DB.prepare('SELECT id FROM products WHERE id = ?').bind(item_id).first()
  if (!product) fail(404, `Product ${item_id} does not exist.`)
  const count = await c.env.DB.prepare('SELECT COUNT(*) AS n FROM wishlist_items WHERE customer_id = ?')
    .bind(customer.id)
    .first<{ n: number }>()
  if ((count?.n ?? 0) >= MAX_WISHLIST_ITEMS)
    fail(400, `A wishlist holds at most ${MAX_WISHLIST_ITEMS} products.`)
  await c.env.DB.prepare(
    'INSERT OR IGNORE INTO wishlist_items (customer_id, product_id, added_at) VALUES (?, ?, ?)',
  )
    .bind(customer.id, item_id, magentoDate(Date.now()))
    .run()
  return ok(c, await wishlist(c, customer.id))
})

wishlistRoutes.post('/remove-wishlist', signedIn, jsonBody(ItemBodySchema), async (c) => {
  const customer = await requireCustomer(c)
  const { user_id, item_id } = c.req.valid('json')
  assertSameUser(customer, user_id)
  await c.env.DB.prepare('DELETE FROM wishlist_items WHERE customer_id = ? AND product_id = ?')
    .bind(customer.id, item_id)
    .run()
  return ok(c, await wishlist(c, customer.id))
})

wishlistRoutes.post('/show-wishlist-history', signedIn, jsonBody(HistoryBodySchema), async (c) => {
  const customer = await requireCustomer(c)
  const { user_id } = c.req.valid('json')
  assertSameUser(customer, user_id)
  return ok(c, await wishlist(c, customer.id))
})
