/**
 * Paying an order from the browser. The server opens (or reuses) the provider order and says how
 * to pay: Razorpay Standard Checkout (its script, loaded on demand, opens the payment window; its
 * success callback goes to the server, which checks the signature) or PayPal (the shopper approves
 * at PayPal and comes back to the order page, which asks the server to capture). Whatever the
 * browser hears, an order is shown paid only when the SERVER answers that it is.
 */
import { api } from '../../api'
import { userToken } from '../../state/user'

/** How this browser may open an order: the customer's token, the guest access key, the order link. */
export interface OrderAccess {
  orderNumber: string
  accessKey?: string
  linkToken?: string
}

interface RazorpayStart {
  provider: 'razorpay'
  orderNumber: string
  checkoutScript: string
  options: Record<string, unknown> & { order_id: string }
}
interface PayPalStart {
  provider: 'paypal'
  orderNumber: string
  providerOrderId: string
  approveUrl: string
}

export type PayResult =
  | { kind: 'paid'; status: string }
  | { kind: 'failed'; message: string }
  | { kind: 'dismissed' }
  | { kind: 'processing'; message: string }
  | { kind: 'redirecting' }
  | { kind: 'error'; message: string }

/** Where a PayPal return finds how to open its order (the fragment is gone after the redirect). */
const RETURN_KEY = 'payment-return'

export function orderCall<T>(path: string, access: OrderAccess, extra: Record<string, unknown> = {}) {
  return api<T>(path, {
    method: 'POST',
    token: userToken.peek(),
    headers: access.linkToken ? { 'x-order-link': access.linkToken } : {},
    body: {
      orderNumber: access.orderNumber,
      ...(access.accessKey ? { accessKey: access.accessKey } : {}),
      ...extra,
    },
  })
}

const loadedScripts = new Map<string, Promise<void>>()

function loadScript(src: string): Promise<void> {
  const known = loadedScripts.get(src)
  if (known) return known
  const loading = new Promise<void>((resolve, reject) => {
    const script = document.createElement('script')
    script.src = src
    script.async = true
    script.onload = () => resolve()
    script.onerror = () => {
      loadedScripts.delete(src)
      reject(new Error('The payment window could not be loaded. Please check your connection and try again.'))
    }
    document.head.appendChild(script)
  })
  loadedScripts.set(src, loading)
  return loading
}

interface RazorpayInstance {
  open(): void
  on(event: 'payment.failed', fn: (r: { error?: { description?: string } }) => void): void
}
type RazorpayCtor = new (options: Record<string, unknown>) => RazorpayInstance

async function payWithRazorpay(access: OrderAccess, start: RazorpayStart): Promise<PayResult> {
  await loadScript(start.checkoutScript)
  const Razorpay = (window as unknown as { Razorpay?: RazorpayCtor }).Razorpay
  if (!Razorpay) return { kind: 'error', message: 'The payment window could not be opened.' }
  return new Promise<PayResult>((resolve) => {
    const checkout = new Razorpay({
      ...start.options,
      handler: (response: Record<string, string>) => {
        orderCall<{ outcome: string; status: string }>('payment/razorpay/verify', access, {
          razorpay_payment_id: response.razorpay_payment_id,
          razorpay_order_id: response.razorpay_order_id,
          razorpay_signature: response.razorpay_signature,
        })
          .then((res) => {
            if (res.code !== 200) return resolve({ kind: 'error', message: String(res.result) })
            resolve(
              res.result.status === 'processing'
                ? { kind: 'paid', status: res.result.status }
                : {
                    kind: 'processing',
                    message:
                      'Your payment is being confirmed. This page updates when the payment provider confirms it.',
                  },
            )
          })
          .catch((err: Error) => resolve({ kind: 'error', message: err.message }))
      },
      modal: { ondismiss: () => resolve({ kind: 'dismissed' }) },
    })
    checkout.on('payment.failed', (r) =>
      resolve({
        kind: 'failed',
        message: `The payment did not go through${r.error?.description ? ` (${r.error.description})` : ''}. You can try again.`,
      }),
    )
    checkout.open()
  })
}

/** Starts paying the order: opens the payment window, or sends the shopper to PayPal. */
export async function payOrder(access: OrderAccess): Promise<PayResult> {
  const res = await orderCall<RazorpayStart | PayPalStart | string>('payment/start', access)
  if (res.code !== 200 || typeof res.result !== 'object') {
    return { kind: 'error', message: String(res.result) }
  }
  if (res.result.provider === 'razorpay') return payWithRazorpay(access, res.result)
  sessionStorage.setItem(RETURN_KEY, JSON.stringify(access))
  window.location.assign(res.result.approveUrl)
  return { kind: 'redirecting' }
}

/** After PayPal sent the shopper back: capture the approved order (the server decides the outcome). */
export async function finishPayPalReturn(access: OrderAccess): Promise<PayResult> {
  const res = await orderCall<{ outcome: string; status: string }>('payment/paypal/capture', access)
  if (res.code !== 200) return { kind: 'error', message: String(res.result) }
  if (res.result.status === 'processing') return { kind: 'paid', status: res.result.status }
  if (res.result.outcome === 'failed')
    return { kind: 'failed', message: 'PayPal declined the payment. You can try again.' }
  return { kind: 'processing', message: 'Your payment is being confirmed.' }
}

/** The access a PayPal return left behind for this order number, if any. */
export function accessFromReturn(orderNumber: string): OrderAccess | null {
  try {
    const saved = JSON.parse(sessionStorage.getItem(RETURN_KEY) ?? 'null') as OrderAccess | null
    return saved?.orderNumber === orderNumber ? saved : null
  } catch {
    return null
  }
}
