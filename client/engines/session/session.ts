/**
 * The user session, composed of its steps: start, sign-in and sign-out (./sign-in.ts), the
 * customer's data (./account-data.ts), device tokens (./device-tokens.ts) and account changes
 * (./profile.ts). User calls are tasks with `auth`: the access token goes in the Authorization
 * header, never in a URL.
 */
import { refreshToken, userToken } from '../../state/user'
import { loadMe, loadOrdersHistory, loadStoreCredit } from './account-data'
import type { LoginResult, SessionDeps } from './deps'
import * as profile from './profile'
import * as signIn from './sign-in'
import { persistTokens } from './sign-in'

export function createSession(deps: SessionDeps) {
  let started: Promise<void> | null = null
  profile.listenToProfileUpdates(deps)
  return {
    /** Starts from the stored token/user; idempotent. */
    start(): Promise<void> {
      if (!started) started = signIn.startFromStorage(deps)
      return started
    },
    /** POST /api/user/login; on success the customer cart is authorised and the remembered path returned. */
    login: (username: string, password: string): Promise<LoginResult> =>
      signIn.login(deps, username, password),
    /** Adopts tokens from login/social-login/registration: loads the account and authorises the cart. */
    acceptTokens: (token: string, refresh: string | null): Promise<LoginResult> =>
      signIn.acceptTokens(deps, token, refresh),
    /** Called by the token refresher with the new pair. */
    setTokens(token: string, refresh: string | null): void {
      userToken.value = token
      refreshToken.value = refresh
      void persistTokens(deps)
    },
    /** POST /api/user/create then login. */
    register: (input: { email: string; firstname: string; lastname: string; password: string }) =>
      signIn.register(deps, input),
    /** Ends the session: clears user data, tells subscribers, recreates the cart, "You're logged out". */
    logout: (opts: { silent?: boolean } = {}): Promise<void> => signIn.logout(deps, opts),
    loadMe: () => loadMe(deps),
    loadOrdersHistory: () => loadOrdersHistory(deps),
    loadStoreCredit: () => loadStoreCredit(deps),
    /** Queues the profile update (offline-capable). */
    updateProfile: (customer: Record<string, unknown>): Promise<void> =>
      profile.updateProfile(deps, customer),
    /** Changes the e-mail address (needs the current password; never queued). */
    changeEmail: (customer: Record<string, unknown>, currentPassword: string) =>
      profile.changeEmail(deps, customer, currentPassword),
    /** POST change-password; 200 → message and automatic login with the new password. */
    changePassword: (currentPassword: string, newPassword: string): Promise<LoginResult> =>
      profile.changePassword(deps, currentPassword, newPassword),
    /** POST reset-password {email}. */
    resetPassword: (email: string): Promise<boolean> => profile.resetPassword(deps, email),
  }
}
