/**
 * Opening the login / sign-up / reset-password modal from anywhere (the header's account button,
 * the checkout's 'Log in' link, the session engine after a refresh failure): one signal the modal
 * island renders from. A request made before that island has mounted (a first click replayed
 * while the page hydrates) is still there when it mounts, so the modal opens then.
 */
import { signal } from '@preact/signals-core'

export type AuthMode = 'login' | 'register' | 'reset'

/** The mode the modal shows; null while it is closed. */
export const authModalMode = signal<AuthMode | null>(null)

/** sessionStorage key of the account path to return to after login (client/engines/session/access-rule.ts). */
export const REDIRECT_AFTER_LOGIN_KEY = 'redirect-after-login'

/** Opens the auth modal in `mode`. */
export function openAuthModal(mode: AuthMode = 'login'): void {
  authModalMode.value = mode
}

/** Closes the auth modal. */
export function closeAuthModal(): void {
  authModalMode.value = null
}
