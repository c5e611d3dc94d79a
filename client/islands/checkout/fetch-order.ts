import { api } from '../../api'
import type { StoredOrder } from '../../state/orders'
import { userToken } from '../../state/user'

/**
 * The order by id: POST /api/order/get with the user token when signed in, and the guest access
 * key kept with the order on this device. The key is a bearer secret, so it travels only in the
 * JSON body, never in a URL (where logs, history, Referer headers and analytics could see it).
 */
export async function fetchOrder(orderId: string, local: StoredOrder | undefined) {
  const accessKey =
    typeof local?.confirmation?.accessKey === 'string' ? local.confirmation.accessKey : undefined
  return api<unknown>('order/get', {
    method: 'POST',
    token: userToken.peek(),
    body: accessKey ? { orderId, accessKey } : { orderId },
  })
}
