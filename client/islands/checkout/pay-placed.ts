/**
 * Paying an order the checkout just placed (loaded only when it needs paying online): the
 * provider's checkout opens, and what it reported is kept as a note for the confirmation page,
 * which still shows only what the server says of the order. False when the shopper is on the way
 * to PayPal (nothing else to do here).
 */
import { payOrder } from '../order/payment'
import { PAY_NOTE_KEY } from './checkout-details'

export async function payPlaced(
  orderId: string,
  orderNumber: string,
  c: { accessKey?: unknown; orderLinkToken?: unknown },
): Promise<boolean> {
  const result = await payOrder({
    orderNumber,
    ...(typeof c.accessKey === 'string' ? { accessKey: c.accessKey } : {}),
    ...(typeof c.orderLinkToken === 'string' ? { linkToken: c.orderLinkToken } : {}),
  }).catch((err: Error) => ({ kind: 'error' as const, message: err.message }))
  if (result.kind === 'redirecting') return false
  const note =
    result.kind === 'dismissed'
      ? 'The payment was not completed. You can pay whenever you are ready.'
      : 'message' in result
        ? result.message
        : null
  try {
    if (note) sessionStorage.setItem(PAY_NOTE_KEY, JSON.stringify({ orderId, note }))
  } catch {
    // Storage refused: the confirmation still says what the server knows.
  }
  return true
}
