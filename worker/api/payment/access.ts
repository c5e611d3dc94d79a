/**
 * Who may see an order and start its payment: its customer (access token), whoever holds its
 * guest access key (sent only in a POST body), or whoever holds its signed order link (sent in the
 * x-order-link header by the order page, which reads it from the URL fragment). Anyone else gets
 * the same refusal whether or not the order exists, so order numbers cannot be probed.
 */
import type { Context } from 'hono'
import type { AppEnv } from '../../platform/env'
import { fail } from '../../platform/http'
import { sha256Hex } from '../auth/crypto'
import { optionalCustomer } from '../auth/guard'
import { ORDER_LINK_HEADER, verifyOrderLinkToken } from '../order/link'
import { sameHash } from '../order/replay'
import type { OrderRow } from '../order/repo'

const NOT_YOUR_ORDER =
  'This order cannot be opened with what was sent: sign in as its customer, or open it from its order link.'

/** The order with number `orderNumber`, when the caller may act on it; otherwise a 403. */
export async function openOrder(
  c: Context<AppEnv>,
  orderNumber: string,
  accessKey: string | undefined,
): Promise<OrderRow> {
  const row = await c.env.DB.prepare('SELECT * FROM orders WHERE increment_id = ?')
    .bind(orderNumber)
    .first<OrderRow>()
  const customer = await optionalCustomer(c)
  if (row) {
    if (customer && row.customer_id === customer.id) return row
    if (accessKey && sameHash(await sha256Hex(accessKey), row.access_key_hash)) return row
    const link = c.req.header(ORDER_LINK_HEADER)
    if (link && link.length <= 2048) {
      const oid = await verifyOrderLinkToken(c.env, c.var.config, link, orderNumber, Date.now())
      if (oid === row.client_order_id) return row
    }
  }
  return fail(403, NOT_YOUR_ORDER)
}
