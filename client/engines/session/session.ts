/**
 * The user session. Starts from the stored user and token: a token → authorised (load me, order
 * history, store credit), none → the non-authorised event. Login stores the tokens and authorises
 * the cart; logout clears user, wishlist, compare and checkout details (subscribers of
 * EVENTS.userAfterLogout), disconnects and recreates the cart, and says "You're logged out".
 * User calls are tasks with `auth`: the access token goes in the Authorization header, never in a
 * URL. The device token the server hands out at sign-in is kept per address across logouts and
 * sent with the next sign-in, so failed guesses by others do not slow this browser down.
 */
import { MSG } from '../../../shared/i18n/messages'
import { apiRaw } from '../../api'
import type { NotificationInput } from '../../state/notifications'
import {
  type CurrentUser,
  clearUserState,
  currentUser,
  groupId,
  groupToken,
  isLoggedIn,
  type OrderHistory,
  ordersHistory,
  refreshToken,
  type StoreCredit,
  sessionStarted,
  storeCredit,
  userLoading,
  userToken,
} from '../../state/user'
import type { UniversalStorage } from '../../storage/universal-storage'
import type { ClientSettings } from '../runtime/config'
import { EVENTS, type EventBus } from '../runtime/events'
import type { TaskQueue } from '../runtime/task-queue'
import { takeRedirectAfterLogin } from './access-rule'
import type { TokenRefresher } from './token-refresh'

export const USER_KEYS = {
  token: 'current-token',
  refreshToken: 'current-refresh-token',
  user: 'current-user',
  ordersHistory: 'orders-history',
} as const

/** Shown when signing in right after registering fails: the address may already have had an account. */
export const MSG_REGISTERED_SIGN_IN =
  'We could not sign you in. If this e-mail address already has an account, we have sent it a message: sign in with its password or reset it.'

/** Device tokens by lower-cased address; kept on logout (they prove this browser, not a session). */
export const DEVICE_TOKENS_KEY = 'device-tokens'
/** The most addresses a browser keeps device tokens for (the newest win). */
export const MAX_DEVICE_TOKENS = 5

/** The cart operations the session drives (implemented by client/engines/cart/cart-sync.ts). */
export interface SessionCart {
  /** After login: connect the customer cart and merge the guest cart into it exactly once. */
  authorize(): Promise<void>
  /** On logout: forget the server cart and start a fresh guest cart. */
  disconnectAndRecreate(): Promise<void>
}

export interface SessionDeps {
  queue: TaskQueue
  refresher: TokenRefresher
  storage: UniversalStorage<unknown>
  bus: EventBus
  notify: (n: NotificationInput) => unknown
  settings: () => ClientSettings
  cart?: SessionCart
  fetch?: typeof fetch
  /** Where to go after login when an account route was attempted. */
  navigate?: (path: string) => void
  redirectStore?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>
}

export type LoginResult = { ok: true; redirectTo: string | null } | { ok: false; message: string }

function errorText(result: unknown, fallback: string): string {
  if (typeof result === 'string') return result
  const r = result as { errorMessage?: unknown; message?: unknown } | null
  if (r && typeof r.errorMessage === 'string') return r.errorMessage
  if (r && typeof r.message === 'string') return r.message
  return fallback
}

export function createSession(deps: SessionDeps) {
  const { queue, storage, bus } = deps
  let started: Promise<void> | null = null

  function applyGroup(user: CurrentUser | null): void {
    // "Customer group id and group token apply to price tiers only if the price-tiers setting is on."
    if (user && deps.settings().priceTiersEnabled) {
      groupToken.value = typeof user.groupToken === 'string' ? user.groupToken : null
      groupId.value = typeof user.group_id === 'number' ? user.group_id : null
    } else {
      groupToken.value = null
      groupId.value = null
    }
  }

  async function readDeviceTokens(): Promise<Record<string, string>> {
    const stored = await storage.getItem(DEVICE_TOKENS_KEY).catch(() => null)
    return stored && typeof stored === 'object' ? (stored as Record<string, string>) : {}
  }

  async function rememberDeviceToken(username: string, token: string): Promise<void> {
    const key = username.trim().toLowerCase()
    const { [key]: _old, ...others } = await readDeviceTokens()
    const kept = Object.entries(others).slice(-(MAX_DEVICE_TOKENS - 1))
    await storage.setItem(DEVICE_TOKENS_KEY, Object.fromEntries([...kept, [key, token]]))
  }

  async function persistTokens(): Promise<void> {
    await storage.setItem(USER_KEYS.token, userToken.value)
    await storage.setItem(USER_KEYS.refreshToken, refreshToken.value)
  }

  /** GET /api/user/me → the current user (resultCode 200). */
  async function loadMe(): Promise<CurrentUser | null> {
    const res = await queue.execute({ url: '/api/user/me', auth: true, silent: true })
    if (res.code !== 200 || !res.result || typeof res.result !== 'object') return null
    const user = res.result as CurrentUser
    currentUser.value = user
    applyGroup(user)
    await storage.setItem(USER_KEYS.user, user)
    return user
  }

  async function loadOrdersHistory(): Promise<void> {
    const res = await queue.execute({ url: '/api/user/order-history', auth: true, silent: true })
    if (res.code === 200 && res.result && typeof res.result === 'object') {
      const r = res.result as OrderHistory
      ordersHistory.value = { items: Array.isArray(r.items) ? r.items : [], total_count: r.total_count }
      await storage.setItem(USER_KEYS.ordersHistory, ordersHistory.value)
    }
  }

  async function loadStoreCredit(): Promise<void> {
    const res = await queue.execute({
      url: '/api/giftcard/store-credit-transaction',
      auth: true,
      silent: true,
    })
    if (res.code === 200 && res.result && typeof res.result === 'object') {
      const r = res.result as Partial<StoreCredit>
      storeCredit.value = {
        items: Array.isArray(r.items) ? r.items : [],
        total_balance: Number(r.total_balance ?? 0),
      }
    }
  }

  /** Loads me, order history and store credit; failures are logged only. */
  async function loadAuthorised(): Promise<void> {
    userLoading.value = true
    try {
      await Promise.all([
        loadMe().catch((e) => console.warn('[session] me failed', e)),
        loadOrdersHistory().catch((e) => console.warn('[session] order history failed', e)),
        loadStoreCredit().catch((e) => console.warn('[session] store credit failed', e)),
      ])
    } finally {
      userLoading.value = false
    }
  }

  const session = {
    /** Starts from the stored token/user; idempotent. */
    start(): Promise<void> {
      if (!started) {
        started = (async () => {
          const [token, refresh, user, history] = await Promise.all([
            storage.getItem(USER_KEYS.token),
            storage.getItem(USER_KEYS.refreshToken),
            storage.getItem(USER_KEYS.user),
            storage.getItem(USER_KEYS.ordersHistory),
          ])
          if (typeof token === 'string' && token) {
            userToken.value = token
            refreshToken.value = typeof refresh === 'string' ? refresh : null
            if (user && typeof user === 'object') {
              currentUser.value = user as CurrentUser
              applyGroup(currentUser.value)
            }
            if (history && typeof history === 'object') ordersHistory.value = history as OrderHistory
            sessionStarted.value = true
            bus.emit(EVENTS.sessionAuthorized, { token })
            await loadAuthorised()
          } else {
            sessionStarted.value = true
            bus.emit(EVENTS.sessionNotAuthorized, null)
          }
        })()
      }
      return started
    },

    /** POST /api/user/login; on success the customer cart is authorised and the remembered path returned. */
    async login(username: string, password: string): Promise<LoginResult> {
      let body: { code?: number; result?: unknown; meta?: { refreshToken?: string; deviceToken?: string } }
      const devices = await readDeviceTokens()
      const deviceToken = devices[username.trim().toLowerCase()]
      try {
        body = (
          await apiRaw('/api/user/login', {
            method: 'POST',
            body: deviceToken ? { username, password, deviceToken } : { username, password },
            fetch: deps.fetch,
          })
        ).body as typeof body
      } catch (err) {
        return { ok: false, message: (err as Error).message }
      }
      if (body.code !== 200 || typeof body.result !== 'string') {
        return { ok: false, message: errorText(body.result, 'Login failed') }
      }
      if (typeof body.meta?.deviceToken === 'string')
        await rememberDeviceToken(username, body.meta.deviceToken)
      return session.acceptTokens(body.result, body.meta?.refreshToken ?? null)
    },

    /** Adopts tokens from login/social-login/registration: loads the account and authorises the cart. */
    async acceptTokens(token: string, refresh: string | null): Promise<LoginResult> {
      userToken.value = token
      refreshToken.value = refresh
      deps.refresher.reset()
      await persistTokens()
      sessionStarted.value = true
      await loadAuthorised()
      bus.emit(EVENTS.userAfterLoggedIn, currentUser.value)
      if (deps.settings().priceTiersEnabled) bus.emit(EVENTS.productReloadNoCache, null)
      await deps.cart?.authorize()
      return { ok: true, redirectTo: takeRedirectAfterLogin(deps.redirectStore) }
    },

    /** Called by the token refresher with the new pair. */
    setTokens(token: string, refresh: string | null): void {
      userToken.value = token
      refreshToken.value = refresh
      void persistTokens()
    },

    /** POST /api/user/create then login. */
    async register(input: {
      email: string
      firstname: string
      lastname: string
      password: string
    }): Promise<LoginResult> {
      let body: { code?: number; result?: unknown }
      try {
        body = (
          await apiRaw('/api/user/create', {
            method: 'POST',
            body: {
              customer: { email: input.email, firstname: input.firstname, lastname: input.lastname },
              password: input.password,
            },
            fetch: deps.fetch,
          })
        ).body as typeof body
      } catch (err) {
        return { ok: false, message: (err as Error).message }
      }
      if (body.code !== 200) return { ok: false, message: errorText(body.result, 'Registration failed') }
      // The answer is the same for a taken address (its owner gets a mail); then signing in fails.
      const signedIn = await session.login(input.email, input.password)
      if (signedIn.ok || /^Too many/.test(signedIn.message)) return signedIn
      return { ok: false, message: MSG_REGISTERED_SIGN_IN }
    },

    /** Ends the session: clears user data, tells subscribers, recreates the cart, "You're logged out". */
    async logout(opts: { silent?: boolean } = {}): Promise<void> {
      const wasLoggedIn = isLoggedIn.value
      clearUserState()
      await Promise.all(Object.values(USER_KEYS).map((k) => storage.removeItem(k)))
      bus.emit(EVENTS.userAfterLogout, null)
      if (deps.settings().priceTiersEnabled) bus.emit(EVENTS.productReloadNoCache, null)
      await deps.cart?.disconnectAndRecreate()
      deps.refresher.reset()
      if (!opts.silent && wasLoggedIn) deps.notify({ type: 'success', message: MSG.loggedOut })
    },

    loadMe,
    loadOrdersHistory,
    loadStoreCredit,

    /**
     * Queues the profile update (offline-capable); when it is answered with 200 the current user is
     * replaced and 'Account data has successfully been updated' shown.
     */
    async updateProfile(customer: Record<string, unknown>): Promise<void> {
      await queue.queue({
        url: '/api/user/me',
        auth: true,
        payload: { method: 'POST', body: { customer } },
        callback_event: PROFILE_UPDATED_EVENT,
      })
    },

    /**
     * Changes the e-mail address (the server needs the current password). Sent at once and never
     * queued, so the password is not stored on the device; 200 replaces the current user.
     */
    async changeEmail(
      customer: Record<string, unknown>,
      currentPassword: string,
    ): Promise<{ ok: true } | { ok: false; message: string }> {
      const res = await queue.execute({
        url: '/api/user/me',
        auth: true,
        payload: { method: 'POST', body: { customer, currentPassword } },
        silent: true,
      })
      if (res.code !== 200 || !res.result || typeof res.result !== 'object') {
        return { ok: false, message: errorText(res.result, 'The e-mail address could not be changed.') }
      }
      currentUser.value = res.result as CurrentUser
      applyGroup(currentUser.value)
      await storage.setItem(USER_KEYS.user, res.result)
      deps.notify({ type: 'success', message: MSG.accountUpdated })
      return { ok: true }
    },

    /** POST change-password; 200 → message and automatic login with the new password. */
    async changePassword(currentPassword: string, newPassword: string): Promise<LoginResult> {
      const res = await queue.execute({
        url: '/api/user/change-password',
        auth: true,
        payload: { method: 'POST', body: { currentPassword, newPassword } },
        silent: true,
      })
      if (res.code !== 200) {
        const message = errorText(res.result, 'Password change failed')
        deps.notify({ type: 'error', message, action1: { label: MSG.ok } })
        return { ok: false, message }
      }
      deps.notify({ type: 'success', message: MSG.passwordChanged })
      const email = currentUser.value?.email
      return email ? session.login(email, newPassword) : { ok: true, redirectTo: null }
    },

    /** POST reset-password {email}. */
    async resetPassword(email: string): Promise<boolean> {
      const res = await queue.execute({
        url: '/api/user/reset-password',
        payload: { method: 'POST', body: { email } },
      })
      return res.code === 200
    },
  }

  bus.on(PROFILE_UPDATED_EVENT, (payload) => {
    const { code, result } = payload as { code: number; result: unknown }
    if (code === 200 && result && typeof result === 'object') {
      currentUser.value = result as CurrentUser
      applyGroup(currentUser.value)
      void storage.setItem(USER_KEYS.user, result)
      deps.notify({ type: 'success', message: MSG.accountUpdated })
    }
  })

  return session
}

/** callback_event of the queued profile update. */
export const PROFILE_UPDATED_EVENT = 'user-after-profile-update'

export type Session = ReturnType<typeof createSession>
