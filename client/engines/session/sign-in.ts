/**
 * Starting, signing in and out. A stored token starts the session authorised (me, order history,
 * store credit), none starts it as a guest. Sign-in stores the tokens and authorises the cart
 * (the guest cart merges into the customer's); sign-out clears the user's data, tells the
 * subscribers of EVENTS.userAfterLogout (wishlist, compare, checkout), recreates the cart and
 * says "You're logged out". Sign-in and registration post their passwords directly (never queued).
 */
import { MSG } from '@shared/i18n/messages'
import { apiRaw } from '../../api'
import {
  type CurrentUser,
  clearUserState,
  currentUser,
  isLoggedIn,
  type OrderHistory,
  ordersHistory,
  refreshToken,
  sessionStarted,
  userToken,
} from '../../state/user'
import { EVENTS } from '../runtime/events'
import { takeRedirectAfterLogin } from './access-rule'
import { applyGroup, loadAuthorised } from './account-data'
import { errorText, type LoginResult, type SessionDeps, USER_KEYS } from './deps'
import { deviceTokenFor, rememberDeviceToken } from './device-tokens'

/** Shown when signing in right after registering fails: the address may already have had an account. */
export const MSG_REGISTERED_SIGN_IN =
  'We could not sign you in. If this e-mail address already has an account, we have sent it a message: sign in with its password or reset it.'

export async function persistTokens(deps: Pick<SessionDeps, 'storage'>): Promise<void> {
  await deps.storage.setItem(USER_KEYS.token, userToken.value)
  await deps.storage.setItem(USER_KEYS.refreshToken, refreshToken.value)
}

/** Starts from the stored token and user. */
export async function startFromStorage(deps: SessionDeps): Promise<void> {
  const [token, refresh, user, history] = await Promise.all([
    deps.storage.getItem(USER_KEYS.token),
    deps.storage.getItem(USER_KEYS.refreshToken),
    deps.storage.getItem(USER_KEYS.user),
    deps.storage.getItem(USER_KEYS.ordersHistory),
  ])
  if (typeof token === 'string' && token) {
    userToken.value = token
    refreshToken.value = typeof refresh === 'string' ? refresh : null
    if (user && typeof user === 'object') {
      currentUser.value = user as CurrentUser
      applyGroup(deps, currentUser.value)
    }
    if (history && typeof history === 'object') ordersHistory.value = history as OrderHistory
    sessionStarted.value = true
    deps.bus.emit(EVENTS.sessionAuthorized, { token })
    await loadAuthorised(deps)
  } else {
    sessionStarted.value = true
    deps.bus.emit(EVENTS.sessionNotAuthorized, null)
  }
}

/** Adopts tokens from login/social-login/registration: loads the account and authorises the cart. */
export async function acceptTokens(
  deps: SessionDeps,
  token: string,
  refresh: string | null,
): Promise<LoginResult> {
  userToken.value = token
  refreshToken.value = refresh
  deps.refresher.reset()
  await persistTokens(deps)
  sessionStarted.value = true
  await loadAuthorised(deps)
  deps.bus.emit(EVENTS.userAfterLoggedIn, currentUser.value)
  if (deps.settings().priceTiersEnabled) deps.bus.emit(EVENTS.productReloadNoCache, null)
  await deps.cart?.authorize()
  return { ok: true, redirectTo: takeRedirectAfterLogin(deps.redirectStore) }
}

type LoginAnswer = { code?: number; result?: unknown; meta?: { refreshToken?: string; deviceToken?: string } }

/** POST /api/user/login (with this browser's device token for the address); on success, acceptTokens. */
export async function login(deps: SessionDeps, username: string, password: string): Promise<LoginResult> {
  const deviceToken = await deviceTokenFor(deps.storage, username)
  let body: LoginAnswer
  try {
    const res = await apiRaw('/api/user/login', {
      method: 'POST',
      body: deviceToken ? { username, password, deviceToken } : { username, password },
      fetch: deps.fetch,
    })
    body = res.body as LoginAnswer
  } catch (err) {
    return { ok: false, message: (err as Error).message }
  }
  if (body.code !== 200 || typeof body.result !== 'string') {
    return { ok: false, message: errorText(body.result, 'Login failed') }
  }
  if (typeof body.meta?.deviceToken === 'string')
    await rememberDeviceToken(deps.storage, username, body.meta.deviceToken)
  return acceptTokens(deps, body.result, body.meta?.refreshToken ?? null)
}

/** POST /api/user/create, then sign in. */
export async function register(
  deps: SessionDeps,
  input: { email: string; firstname: string; lastname: string; password: string },
): Promise<LoginResult> {
  let body: { code?: number; result?: unknown }
  try {
    const res = await apiRaw('/api/user/create', {
      method: 'POST',
      body: {
        customer: { email: input.email, firstname: input.firstname, lastname: input.lastname },
        password: input.password,
      },
      fetch: deps.fetch,
    })
    body = res.body as typeof body
  } catch (err) {
    return { ok: false, message: (err as Error).message }
  }
  if (body.code !== 200) return { ok: false, message: errorText(body.result, 'Registration failed') }
  // The answer is the same for a taken address (its owner gets a mail); then signing in fails.
  const signedIn = await login(deps, input.email, input.password)
  if (signedIn.ok || /^Too many/.test(signedIn.message)) return signedIn
  return { ok: false, message: MSG_REGISTERED_SIGN_IN }
}

/** Ends the session: clears user data, tells subscribers, recreates the cart, "You're logged out". */
export async function logout(deps: SessionDeps, opts: { silent?: boolean } = {}): Promise<void> {
  const wasLoggedIn = isLoggedIn.value
  clearUserState()
  await Promise.all(Object.values(USER_KEYS).map((k) => deps.storage.removeItem(k)))
  deps.bus.emit(EVENTS.userAfterLogout, null)
  if (deps.settings().priceTiersEnabled) deps.bus.emit(EVENTS.productReloadNoCache, null)
  await deps.cart?.disconnectAndRecreate()
  deps.refresher.reset()
  if (!opts.silent && wasLoggedIn) deps.notify({ type: 'success', message: MSG.loggedOut })
}
