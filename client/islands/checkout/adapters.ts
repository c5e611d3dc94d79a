/**
 * The one seam between F's UI (cart, checkout, confirmation, account, auth) and D's client engines
 * (client/engines/runtime/runtime.ts: session, cart sync, task queue, order queue; client/state stores;
 * client/storage). Components import from here only, so they never re-implement sync logic and the
 * engines can change without touching components.
 */
import { computed, type ReadonlySignal } from '@preact/signals-core'
import { IMAGE_SIZES } from '../../../shared/config/images'
import { lineUnitPrice } from '../../../shared/domain/cart-line'
import { formatPrice as formatSharedPrice } from '../../../shared/domain/currency'
import { imageUrl } from '../../../shared/domain/image-url'
import { api, currentApiContext } from '../../api'
import { bus, EVENTS } from '../../engines/runtime/events'
import { getRuntime, startClientRuntime } from '../../engines/runtime/runtime'
import {
  guardAccountRoute as guardAccountRouteWith,
  takeRedirectAfterLogin as takeRedirectAfterLoginFrom,
} from '../../engines/session/access-rule'
import {
  type CartLine,
  type CartTotalSegment,
  type CartTotals,
  cartCount,
  cartCoupon,
  cartItems,
  cartServerToken,
  cartTotals,
  isCartConnected,
} from '../../state/cart'
import {
  isThankYouPage,
  pendingOrders,
  placingOrder,
  type StoredOrder,
  storedOrders,
} from '../../state/orders'
import {
  type CurrentUser,
  currentUser,
  isLoggedIn,
  ordersHistory,
  sessionStarted,
  storeCredit,
  userToken,
} from '../../state/user'
import { collection } from '../../storage/storage-manager'

export { startClientRuntime }

// ---------------------------------------------------------------------------------------------
// Formatting and images
// ---------------------------------------------------------------------------------------------

/** Formats an INR base amount in the page's currency (B's single formatter). */
export function formatPrice(amount: number): string {
  return formatSharedPrice(amount, currentApiContext().currency)
}

/** Cart thumbnail URL (150x150, transactions spec §9) through the shared image-url helper. */
export function cartThumbnail(image: unknown): string {
  const { width, height } = IMAGE_SIZES.cart
  return imageUrl(typeof image === 'string' ? image : null, width, height)
}

// ---------------------------------------------------------------------------------------------
// Checkout details (D's 'checkout' collection: IndexedDB, store-code prefixed, never hangs)
// ---------------------------------------------------------------------------------------------

const CHECKOUT_DETAILS_KEY = 'details'

export async function loadCheckoutDetails(): Promise<unknown> {
  try {
    return await collection('checkout').getItem(CHECKOUT_DETAILS_KEY)
  } catch (err) {
    console.warn('checkout details could not be read', err)
    return null
  }
}

export async function saveCheckoutDetails(details: unknown): Promise<void> {
  try {
    await collection('checkout').setItem(CHECKOUT_DETAILS_KEY, details)
  } catch (err) {
    console.warn('checkout details could not be saved', err)
  }
}

/** Logout clears the checkout details (transactions spec §4 "User session"). */
export async function clearCheckoutDetails(): Promise<void> {
  await collection('checkout')
    .removeItem(CHECKOUT_DETAILS_KEY)
    .catch(() => undefined)
}
if (typeof window !== 'undefined') bus.on(EVENTS.userAfterLogout, () => void clearCheckoutDetails())

// ---------------------------------------------------------------------------------------------
// Cart (D's cart store + cart sync)
// ---------------------------------------------------------------------------------------------

export type { CartLine, CartTotals }
export type TotalSegment = CartTotalSegment
export { cartCount, cartItems, cartTotals, isCartConnected }
/** The server cart token (cart id); null until connected. */
export const cartToken = cartServerToken
export const appliedCoupon: ReadonlySignal<string | null> = computed(() => cartCoupon.value?.code ?? null)

export { lineUnitPrice }

/** Client-side totals when the server's segments are not available (offline, not yet synced). */
export function clientTotals(items: readonly CartLine[]): CartTotals {
  const subtotal = items.reduce((s, l) => s + lineUnitPrice(l) * (l.qty || 0), 0)
  return {
    subtotal,
    grand_total: subtotal,
    total_segments: [
      { code: 'subtotal', title: 'Subtotal', value: subtotal },
      { code: 'shipping', title: 'Shipping', value: 0 },
      { code: 'grand_total', title: 'Grand Total', value: subtotal },
    ],
  }
}

/** Changes a line's quantity ('Product quantity has been updated!' comes from the engine). */
export async function updateCartQty(sku: string, qty: number): Promise<void> {
  await getRuntime().cart.updateQuantity(sku, qty)
}

/** Removes a line (the UI asks first). */
export async function removeCartLine(sku: string): Promise<void> {
  await getRuntime().cart.removeItem(sku)
}

/** Applies a coupon (only when connected); resolves true when the server accepted it. */
export async function applyCoupon(code: string): Promise<boolean> {
  return getRuntime().cart.applyCoupon(code)
}

/** Removes the applied coupon (only when connected). */
export async function removeCoupon(): Promise<boolean> {
  return getRuntime().cart.removeCoupon()
}

/** Re-reads totals from the server (failures are logged only by the engine). */
export async function refreshTotals(): Promise<void> {
  if (cartServerToken.peek()) await getRuntime().cart.syncTotals()
}

/** Sends the checkout addresses (POST shipping-information): the server's totals follow the address. */
export async function sendShippingInformation(addressInformation: Record<string, unknown>): Promise<void> {
  await getRuntime()
    .cart.shippingInformation(addressInformation)
    .catch(() => false)
}

// ---------------------------------------------------------------------------------------------
// User / session (D's session engine)
// ---------------------------------------------------------------------------------------------

export interface CustomerAddress {
  id?: number
  firstname: string
  lastname: string
  street: string[]
  city: string
  postcode?: string
  country_id: string
  telephone?: string
  region?: { region?: string | null; region_code?: string | null; region_id?: number | null }
  region_id?: number | null
  company?: string | null
  vat_id?: string | null
  default_shipping?: boolean
  default_billing?: boolean
}

export interface Customer {
  id: number
  email: string
  firstname: string
  lastname: string
  group_id?: number
  addresses?: CustomerAddress[]
  [key: string]: unknown
}

export type { CurrentUser }
export { currentUser, isLoggedIn, ordersHistory, sessionStarted, storeCredit, userToken }

/** Starts the page's engines (idempotent; the session start is what the access rule waits for). */
export function startSession(): void {
  startClientRuntime()
}

/** Logs in; resolves null on success or the error message. Follows a remembered account path. */
export async function login(
  email: string,
  password: string,
): Promise<{ error: string | null; redirectTo: string | null }> {
  const r = await getRuntime().session.login(email, password)
  return r.ok ? { error: null, redirectTo: r.redirectTo } : { error: r.message, redirectTo: null }
}

/** Creates an account, then logs in. */
export async function register(input: {
  email: string
  firstname: string
  lastname: string
  password: string
}): Promise<{ error: string | null; redirectTo: string | null }> {
  const r = await getRuntime().session.register(input)
  return r.ok ? { error: null, redirectTo: r.redirectTo } : { error: r.message, redirectTo: null }
}

/** Asks for a password-reset e-mail; null on success. */
export async function resetPassword(email: string): Promise<string | null> {
  const ok = await getRuntime().session.resetPassword(email)
  return ok ? null : 'We could not send the reset e-mail. Please check the address and try again.'
}

/** Logs out (the engine clears user, wishlist, compare, checkout; "You're logged out"). */
export async function logout(): Promise<void> {
  await getRuntime().session.logout()
}

/** Queues the profile update; the engine shows 'Account data has successfully been updated'. */
export async function updateProfile(customer: Partial<Customer>): Promise<string | null> {
  try {
    await getRuntime().session.updateProfile(customer as Record<string, unknown>)
    return null
  } catch (err) {
    return (err as Error).message
  }
}

/** Changes the password ('Password has successfully been changed' from the engine); null on success. */
export async function changePassword(currentPassword: string, newPassword: string): Promise<string | null> {
  const r = await getRuntime().session.changePassword(currentPassword, newPassword)
  return r.ok ? null : r.message
}

/** An authorised request through the task queue (token refresh included). */
export async function userGet<T>(path: string, query: Record<string, string | number> = {}) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()
  const res = await getRuntime().tasks.execute({
    url: `/api/${path}?token={{token}}${qs ? `&${qs}` : ''}`,
    silent: true,
  })
  return { code: res.code, result: res.result as T }
}

/** An authorised POST/DELETE through the task queue. */
export async function userSend<T>(path: string, method: 'POST' | 'DELETE', body: unknown) {
  const res = await getRuntime().tasks.execute({
    url: `/api/${path}?token={{token}}`,
    payload: { method, body },
    silent: true,
  })
  return { code: res.code, result: res.result as T }
}

/** Account routes: a visitor who is not logged in (once the session started) goes home; the path is remembered. */
export function guardAccountRoute(path: string): boolean {
  return guardAccountRouteWith(path, {
    isLoggedIn: () => userToken.peek() !== null,
    sessionStarted: () => sessionStarted.peek(),
  })
}

/** The remembered path (same-origin only), consumed once. */
export const takeRedirectAfterLogin = takeRedirectAfterLoginFrom

// ---------------------------------------------------------------------------------------------
// Orders (the order queue)
// ---------------------------------------------------------------------------------------------

export type { StoredOrder }
export { isThankYouPage, pendingOrders, placingOrder, storedOrders }

export interface PlaceOrderResult {
  state: 'placed' | 'queued' | 'rejected' | 'duplicate'
  orderId: string
  confirmation?: Record<string, unknown> | null
  message?: string
}

/** Places the order through the order queue (session hash, offline queue, spec §4 outcomes). */
export async function placeOrder(body: Record<string, unknown>): Promise<PlaceOrderResult> {
  return getRuntime().orders.placeOrder(body)
}

/** Loads the orders stored on this device into the `storedOrders` signal. */
export async function listStoredOrders(): Promise<StoredOrder[]> {
  return getRuntime().orders.list()
}

/** Sends queued orders now (the shopper confirmed, or the thank-you page is showing). */
export async function processOrderQueue(): Promise<void> {
  await getRuntime().orders.process()
}

/** The shopper declined sending the offline orders. */
export async function cancelPendingOrders(): Promise<void> {
  await getRuntime().orders.cancelPending()
}

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
