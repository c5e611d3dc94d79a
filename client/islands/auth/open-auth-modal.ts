/**
 * Opening the login / sign-up / reset-password modal from anywhere (the header's account button,
 * the checkout's 'Log in' link, the session engine after a refresh failure): one window event.
 */
export type AuthMode = 'login' | 'register' | 'reset'

export const AUTH_OPEN_EVENT = 'auth:open'
/** sessionStorage key of the account path to return to after login (client/engines/session/access-rule.ts). */
export const REDIRECT_AFTER_LOGIN_KEY = 'redirect-after-login'

/** Opens the auth modal in `mode`. */
export function openAuthModal(mode: AuthMode = 'login'): void {
  window.dispatchEvent(new CustomEvent(AUTH_OPEN_EVENT, { detail: { mode } }))
}
