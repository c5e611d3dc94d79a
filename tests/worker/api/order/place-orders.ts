// Placing test orders of the cart fixtures' scarf (FX-SCARF), from a chosen network address, for
// the order-limit tests.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test'
import app from '../../../../worker/app'
import { seedCartFixtures } from '../../../helpers/cart-fixtures'
import { freshEmail, newOrderId, orderBody, testAddress } from '../../../helpers/orders'
import { api, freshIp, type Json } from '../../../helpers/user'

interface PlaceOptions {
  ip?: string
  email?: string
  qty?: number
  payment?: string
  bearer?: string
  userId?: number
  cartId?: string
  orderId?: string
  /** Another environment (e.g. without the burst binding, or other settings); through app.fetch. */
  useEnv?: Env
}

interface Placed {
  status: number
  json: Json
  headers: Headers
  orderId: string
}

/**
 * POSTs `body` as it is (any text or stream) to /api/order through app.fetch, from `ip`, in
 * `useEnv` (the test environment unless named).
 */
export async function postOrder(
  body: BodyInit,
  o: { ip: string; bearer?: string; useEnv?: Env },
): Promise<Omit<Placed, 'orderId'>> {
  const ctx = createExecutionContext()
  const res = await app.fetch(
    new Request('https://shop.test/api/order', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'cf-connecting-ip': o.ip,
        ...(o.bearer ? { authorization: `Bearer ${o.bearer}` } : {}),
      },
      body,
    }),
    o.useEnv ?? env,
    ctx,
  )
  const json = await res.json()
  await waitOnExecutionContext(ctx)
  return { status: res.status, json, headers: res.headers }
}

/** Places an order of `qty` scarves; returns the status, the envelope, the headers and the order id. */
export async function place(o: PlaceOptions = {}): Promise<Placed> {
  const orderId = o.orderId ?? newOrderId('hold')
  const body = orderBody(
    orderId,
    [{ sku: 'FX-SCARF', qty: o.qty ?? 1, price: 1 }],
    testAddress(o.email ?? freshEmail('hold')),
    {
      payment: o.payment ?? 'card',
      user_id: o.userId === undefined ? '' : String(o.userId),
      cart_id: o.cartId ?? '',
    },
  )
  const ip = o.ip ?? freshIp()
  if (!o.useEnv) {
    const res = await api('/order', { body, ip, bearer: o.bearer })
    return { ...res, orderId }
  }
  return { ...(await postOrder(JSON.stringify(body), { ip, bearer: o.bearer, useEnv: o.useEnv })), orderId }
}

/** The environment without the burst binding: the exact D1 counters behind it answer. */
export const withoutBurst = () => ({ ...env, ORDER_LIMITER: undefined }) as unknown as Env

/** How many orders carry `orderId` (0 or 1). */
export const orderCount = async (orderId: string) =>
  (
    await env.DB.prepare('SELECT COUNT(*) AS n FROM orders WHERE client_order_id = ?')
      .bind(orderId)
      .first<{ n: number }>()
  )?.n

/** The cart fixtures with plenty of scarves, so only the limits under test refuse an order. */
export async function seedPlentyOfScarves() {
  await seedCartFixtures()
  await env.DB.prepare("UPDATE inventory SET qty = 1000 WHERE sku = 'FX-SCARF'").run()
}
