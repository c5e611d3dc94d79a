/**
 * The one seam between F's UI (cart, checkout, confirmation, account, auth, reviews) and the
 * client engines (D: client/state, client/sync, client/storage). The UI imports ONLY from here, so
 * the engines can change without touching components.
 *
 * Where an engine has not landed yet, the function below is the thinnest implementation of the
 * spec's behaviour that lets the UI work; each is marked INTERIM and is switched to the engine's API
 * as soon as it exists (see the report).
 */
import { computed, type ReadonlySignal, signal } from '@preact/signals-core'
import { IMAGE_SIZES } from '../../../shared/config/images'
import { formatPrice as formatSharedPrice } from '../../../shared/domain/currency'
import { imageUrl } from '../../../shared/domain/image-url'
import { MSG, msgOrderValidation } from '../../../shared/i18n/messages'
import { api, currentApiContext } from '../../api'
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
import { notify } from '../../state/notifications'
import { type CurrentUser, currentUser, isLoggedIn, sessionStarted, userToken } from '../../state/user'
import { collection } from '../../storage/storage-manager'
import {
  guardAccountRoute as guardAccountRouteWith,
  takeRedirectAfterLogin as takeRedirectAfterLoginFrom,
} from '../../sync/access-rule'
import { bus, EVENTS } from '../../sync/events'

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
// Local persistence (INTERIM until D's storage exposes a 'checkout'/'user' accessor)
// ---------------------------------------------------------------------------------------------

function storeKey(collection: string): string {
  return `${currentApiContext().storeCode}-${collection}`
}

export function readLocal<T>(collection: string): T | null {
  try {
    const raw = localStorage.getItem(storeKey(collection))
    return raw ? (JSON.parse(raw) as T) : null
  } catch {
    return null
  }
}

export function writeLocal(collection: string, value: unknown): void {
  try {
    if (value === null) localStorage.removeItem(storeKey(collection))
    else localStorage.setItem(storeKey(collection), JSON.stringify(value))
  } catch (err) {
    console.warn('storage write failed', collection, err)
  }
}

/** Key of the checkout details in D's 'checkout' collection (IndexedDB, store-code prefixed). */
const CHECKOUT_DETAILS_KEY = 'details'

/** Persisted checkout details (D's storage: never hangs, falls back to memory). */
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
// Cart
// ---------------------------------------------------------------------------------------------

export type { CartLine }
export { cartCount, cartItems }

export type TotalSegment = CartTotalSegment
export type { CartTotals }
export { cartTotals, isCartConnected }
/** The server cart token (cart id); null until connected (D's cart store). */
export const cartToken = cartServerToken
export const appliedCoupon: ReadonlySignal<string | null> = computed(() => cartCoupon.value?.code ?? null)

/** Client-side totals when the server's segments are not available (offline). */
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

/** The unit price (incl. tax) of a cart line, whichever field the cart store filled. */
export function lineUnitPrice(line: CartLine): number {
  for (const k of [
    'finalPriceInclTax',
    'priceInclTax',
    'final_price_incl_tax',
    'price_incl_tax',
    'final_price',
    'price',
  ]) {
    const v = line[k]
    if (typeof v === 'number' && Number.isFinite(v)) return v
  }
  return 0
}

/** Changes a line's quantity through the cart engine. */
export async function updateCartQty(sku: string, qty: number): Promise<void> {
  const q = Math.max(1, Math.trunc(Number(qty)))
  cartItems.value = cartItems.value.map((l) => (l.sku === sku ? { ...l, prev_qty: l.qty, qty: q } : l))
  notify({ type: 'success', message: MSG.productQuantityUpdated })
}

/** Removes a line through the cart engine (the UI asks first). */
export async function removeCartLine(sku: string): Promise<void> {
  cartItems.value = cartItems.value.filter((l) => l.sku !== sku)
}

async function cartCall(path: string, query: Record<string, string> = {}) {
  return api(path, {
    method: 'POST',
    query: { token: userToken.value ?? '', cartId: cartToken.value, ...query },
  })
}

/** Applies a coupon (only when connected); resolves true when the server accepted it. */
export async function applyCoupon(code: string): Promise<boolean> {
  if (!isCartConnected.value) return false
  const res = await cartCall('cart/apply-coupon', { coupon: code })
  if (res.code !== 200 || res.result !== true) {
    notify({ type: 'error', message: typeof res.result === 'string' ? res.result : 'Invalid coupon code' })
    return false
  }
  await refreshTotals()
  return true
}

/** Removes the applied coupon (only when connected). */
export async function removeCoupon(): Promise<boolean> {
  if (!isCartConnected.value) return false
  const res = await cartCall('cart/delete-coupon')
  await refreshTotals()
  return res.code === 200
}

/** INTERIM: pulls totals for the connected cart. */
export async function refreshTotals(): Promise<void> {
  if (!cartToken.value) return
  try {
    const res = await api<CartTotals>('cart/totals', {
      query: { token: userToken.value ?? '', cartId: cartToken.value },
    })
    if (res.code === 200 && res.result && typeof res.result === 'object') cartTotals.value = res.result
  } catch (err) {
    console.warn('totals sync failed', err) // "Failure is logged only."
  }
}

/** Clears the cart after a successful order ("cleared, then recreated and resynced"). */
export async function clearCartAfterOrder(): Promise<void> {
  cartItems.value = []
  cartTotals.value = null
  cartToken.value = null
  writeLocal('cart-token', null)
}

// ---------------------------------------------------------------------------------------------
// User / session
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

interface StoredSession {
  token: string
  refreshToken?: string
  user?: Customer | null
}

// D's user store; the interim functions below fill it until the session engine is wired on the page.
const initialSession = typeof localStorage !== 'undefined' ? readLocal<StoredSession>('user-session') : null
if (initialSession?.token && !userToken.peek()) {
  userToken.value = initialSession.token
  currentUser.value = (initialSession.user as CurrentUser | null | undefined) ?? null
}

export { currentUser, isLoggedIn, sessionStarted, userToken }

function persistSession(token: string | null, refreshToken?: string, user?: Customer | null) {
  if (!token) writeLocal('user-session', null)
  else writeLocal('user-session', { token, refreshToken, user })
}

/** Loads the current user for a stored token; a 401 ends the session. */
export async function startSession(): Promise<void> {
  try {
    if (userToken.value) {
      const res = await api<Customer>('user/me', { query: { token: userToken.value } })
      if (res.code === 200 && res.result) {
        currentUser.value = res.result as CurrentUser
        const s = readLocal<StoredSession>('user-session')
        persistSession(userToken.value, s?.refreshToken, res.result)
      } else if (res.code === 401) {
        userToken.value = null
        currentUser.value = null
        persistSession(null)
      }
    }
  } catch (err) {
    console.warn('session start failed', err)
  } finally {
    sessionStarted.value = true
  }
}

/** Logs in; resolves null on success or the error message. */
export async function login(email: string, password: string): Promise<string | null> {
  const res = await api<string>('user/login', { method: 'POST', body: { username: email, password } })
  if (res.code !== 200 || typeof res.result !== 'string') {
    return typeof res.result === 'string' ? res.result : 'Login failed'
  }
  userToken.value = res.result
  persistSession(res.result, res.meta?.refreshToken as string | undefined, null)
  await startSession()
  return null
}

/** Creates an account, then logs in; resolves null on success or the error message. */
export async function register(input: {
  email: string
  firstname: string
  lastname: string
  password: string
}): Promise<string | null> {
  const res = await api('user/create', {
    method: 'POST',
    body: {
      customer: { email: input.email, firstname: input.firstname, lastname: input.lastname },
      password: input.password,
    },
  })
  if (res.code !== 200) return typeof res.result === 'string' ? res.result : 'Registration failed'
  return login(input.email, input.password)
}

/** Asks for a password-reset e-mail. */
export async function resetPassword(email: string): Promise<string | null> {
  const res = await api('user/reset-password', { method: 'POST', body: { email } })
  return res.code === 200 ? null : typeof res.result === 'string' ? res.result : 'Something went wrong'
}

/** Logs out: clears the user and checkout details, recreates the cart, "You're logged out". */
export async function logout(): Promise<void> {
  userToken.value = null
  currentUser.value = null
  persistSession(null)
  await clearCheckoutDetails()
  await clearCartAfterOrder()
  notify({ type: 'success', message: MSG.loggedOut })
}

/** Updates the profile (queued through the task queue in D's engine); null on success. */
export async function updateProfile(customer: Partial<Customer>): Promise<string | null> {
  const res = await api<Customer>('user/me', {
    method: 'POST',
    query: { token: userToken.value ?? '' },
    body: { customer },
  })
  if (res.code === 200 && res.result) {
    currentUser.value = res.result as CurrentUser
    notify({ type: 'success', message: MSG.accountUpdated })
    return null
  }
  return typeof res.result === 'string' ? res.result : 'Update failed'
}

/** Changes the password; null on success. */
export async function changePassword(currentPassword: string, newPassword: string): Promise<string | null> {
  const res = await api<unknown>('user/change-password', {
    method: 'POST',
    query: { token: userToken.value ?? '' },
    body: { currentPassword, newPassword },
  })
  if (res.code === 200) {
    notify({ type: 'success', message: MSG.passwordChanged })
    return null
  }
  const r = res.result as { errorMessage?: string } | string
  return typeof r === 'string' ? r : (r?.errorMessage ?? 'Password change failed')
}

/** An authorised GET (token in the query). */
export async function userGet<T>(path: string, query: Record<string, string | number> = {}) {
  return api<T>(path, { query: { token: userToken.value ?? '', ...query } })
}

/** An authorised POST/DELETE. */
export async function userSend<T>(path: string, method: 'POST' | 'DELETE', body: unknown) {
  return api<T>(path, { method, query: { token: userToken.value ?? '' }, body })
}

// ---------------------------------------------------------------------------------------------
// Orders
// ---------------------------------------------------------------------------------------------

export interface PlaceOrderResult {
  /** placed = the server acknowledged; queued = stored locally, sent later; rejected = 400. */
  state: 'placed' | 'queued' | 'rejected' | 'duplicate'
  orderId: string
  confirmation?: { orderNumber?: string; backendOrderId?: string | number; status?: string } & Record<
    string,
    unknown
  >
  message?: string
}

export interface QueuedOrder {
  order_id: string
  transmited: boolean
  transmited_at?: string
  body: Record<string, unknown>
  confirmation?: PlaceOrderResult['confirmation']
}

const sessionOrderIds = new Set<string>()

/** INTERIM order placement (spec §4 "Order placement"), until D's order queue lands. */
export async function placeOrder(
  body: Record<string, unknown> & { order_id: string },
  supportEmail: string,
): Promise<PlaceOrderResult> {
  const orderId = body.order_id
  if (sessionOrderIds.has(orderId)) return { state: 'duplicate', orderId }
  sessionOrderIds.add(orderId)
  const queue = readLocal<QueuedOrder[]>('orders') ?? []
  const enqueue = () => {
    writeLocal('orders', [
      ...queue.filter((o) => o.order_id !== orderId),
      { order_id: orderId, transmited: false, body },
    ])
  }
  if (typeof navigator !== 'undefined' && !navigator.onLine) {
    enqueue()
    return { state: 'queued', orderId }
  }
  try {
    const res = await api<PlaceOrderResult['confirmation']>('order', { method: 'POST', body })
    if (res.code === 200) {
      writeLocal('orders', [
        ...queue.filter((o) => o.order_id !== orderId),
        {
          order_id: orderId,
          transmited: true,
          transmited_at: new Date().toISOString(),
          body,
          confirmation: res.result,
        },
      ])
      return { state: 'placed', orderId, confirmation: res.result }
    }
    sessionOrderIds.delete(orderId)
    if (res.code === 400) {
      notify({ type: 'error', message: msgOrderValidation(supportEmail), action1: { label: MSG.ok } })
      return { state: 'rejected', orderId }
    }
    notify({ type: 'error', message: MSG.orderException, action1: { label: MSG.ok } })
    enqueue()
    return { state: 'queued', orderId }
  } catch {
    sessionOrderIds.delete(orderId)
    notify({ type: 'error', message: MSG.orderException, action1: { label: MSG.ok } })
    enqueue()
    return { state: 'queued', orderId }
  }
}

/** Orders stored on this device (the offline queue and transmitted copies). */
export function storedOrders(): QueuedOrder[] {
  return readLocal<QueuedOrder[]>('orders') ?? []
}

/** INTERIM: sends untransmitted orders one at a time (spec §4 "Queue processing"). */
export async function processOrderQueue(): Promise<void> {
  for (const o of storedOrders().filter((x) => !x.transmited)) {
    try {
      const res = await api<PlaceOrderResult['confirmation']>('order', { method: 'POST', body: o.body })
      const all = storedOrders()
      const idx = all.findIndex((x) => x.order_id === o.order_id)
      if (idx < 0) continue
      if (res.code === 200) {
        all[idx] = {
          ...o,
          transmited: true,
          transmited_at: new Date().toISOString(),
          confirmation: res.result,
        }
      } else if (res.code === 400) {
        all[idx] = { ...o, transmited: true, transmited_at: new Date().toISOString() }
        notify({ type: 'error', message: MSG.queuedOrderInvalidAddress, action1: { label: MSG.ok } })
      } else if (res.code === 500 && /adding products/i.test(String(res.result))) {
        all[idx] = { ...o, transmited: true, transmited_at: new Date().toISOString() }
        notify({ type: 'error', message: MSG.queuedOrderOutOfStock, action1: { label: MSG.ok } })
      }
      writeLocal('orders', all)
    } catch (err) {
      console.warn('order queue: send failed, retried later', err)
      return
    }
  }
  ordersVersion.value++
}

/** Bumped whenever the local order queue changes (islands re-read storedOrders()). */
export const ordersVersion = signal(0)

/** GET /api/order/get?orderId= with the user token when signed in, else the guest access key kept with the order. */
export async function fetchOrder(orderId: string, token: string | null) {
  const local = storedOrders().find((o) => o.order_id === orderId)
  const accessKey =
    typeof local?.confirmation?.accessKey === 'string' ? local.confirmation.accessKey : undefined
  return api<unknown>('order/get', { query: { orderId, token: token ?? undefined, accessKey } })
}

// ---------------------------------------------------------------------------------------------
// Access rule: D's guardAccountRoute (client/sync/access-rule.ts), bound to this session.
// ---------------------------------------------------------------------------------------------

/** Account routes: a visitor who is not logged in (once the session started) goes home; the path is remembered. */
export function guardAccountRoute(path: string): boolean {
  return guardAccountRouteWith(path, {
    isLoggedIn: () => userToken.peek() !== null,
    sessionStarted: () => sessionStarted.peek(),
  })
}

/** The remembered path (same-origin only), consumed once. */
export const takeRedirectAfterLogin = takeRedirectAfterLoginFrom
