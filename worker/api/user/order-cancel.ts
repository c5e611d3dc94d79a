/**
 * A signed-in shopper cancels their own order from the account while SHOPPER_CANCELABLE_STATUSES
 * allows it: the same move as the Cancel of the order mail and of WhatsApp (worker/messages/cod.ts:
 * stock and store credit back once, the "canceled" mail). Another shopper's order and an unknown
 * number are the same 404, so the answer tells nobody which order numbers exist. Repeating the
 * cancel of a canceled order answers the same success and changes nothing; any other status is a
 * 409 in words.
 */
import { SHOPPER_CANCELABLE_STATUSES } from '@shared/config/order-status'
import type { Context } from 'hono'
import { shopperCancels } from '../../messages/cod'
import type { AppEnv } from '../../platform/env'
import { fail, ok } from '../../platform/http'
import { requireCustomer } from '../auth/guard'

const NOT_FOUND = 'This order could not be found.'
const TOO_LATE = 'This order can no longer be canceled from your account. Please contact us.'

export async function cancelOwnOrder(c: Context<AppEnv>, number: string) {
  const customer = await requireCustomer(c)
  if (!/^[0-9]{1,18}$/.test(number)) fail(404, NOT_FOUND)
  const read = () =>
    c.env.DB.prepare('SELECT client_order_id, status FROM orders WHERE increment_id = ? AND customer_id = ?')
      .bind(number, customer.id)
      .first<{ client_order_id: string; status: string }>()
  const order = await read()
  if (!order) fail(404, NOT_FOUND)
  if (order.status === 'canceled') return ok(c, { status: 'canceled' })
  if (!(SHOPPER_CANCELABLE_STATUSES as readonly string[]).includes(order.status)) fail(409, TOO_LATE)
  const answer = await shopperCancels(c.env, c.var.config, order.client_order_id, 'account', Date.now())
  // Raced by a confirmation or an expiry: the order is whatever won.
  if (answer !== 'canceled' && (await read())?.status !== 'canceled') fail(409, TOO_LATE)
  return ok(c, { status: 'canceled' })
}
