/**
 * The access rule: account routes send a visitor who is not logged in (once the local session
 * has started) home and remember the attempted path; after login the shopper is redirected
 * there. Only same-origin paths are remembered or followed (no open redirect): the same check as
 * the URL dispatcher's stored redirects (shared/domain/safe-redirect).
 */

import { sameOriginPath } from '@shared/domain/safe-redirect'
import { isLoggedIn, sessionStarted } from '../../state/user'

/** A stand-in origin: only whether a path stays on its own origin matters here. */
const BASE = 'https://same-origin.invalid'
const REDIRECT_KEY = 'redirect-after-login'

/** The normalised path (+search+hash) when `candidate` is a same-origin path, else null. */
export function safeRedirectPath(candidate: unknown): string | null {
  return sameOriginPath(candidate, BASE)
}

interface AccessRuleDeps {
  isLoggedIn?: () => boolean
  sessionStarted?: () => boolean
  /** Where the attempted path is remembered (sessionStorage in the browser). */
  store?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>
  navigate?: (path: string) => void
}

function defaultStore(): AccessRuleDeps['store'] {
  return typeof sessionStorage !== 'undefined' ? sessionStorage : undefined
}

function defaultNavigate(path: string): void {
  if (typeof location !== 'undefined') location.assign(path)
}

/**
 * Checks an account route; returns true when the visitor may stay. A visitor who is not logged in
 * is sent home and the path is remembered. Before the session has started it allows: call it again
 * when `sessionStarted` turns true. Defaults read the user store (client/state/user).
 */
export function guardAccountRoute(path: string, deps: AccessRuleDeps = {}): boolean {
  const started = deps.sessionStarted ? deps.sessionStarted() : sessionStarted.peek()
  const loggedIn = deps.isLoggedIn ? deps.isLoggedIn() : isLoggedIn.peek()
  if (!started || loggedIn) return true
  const safe = safeRedirectPath(path)
  const store = deps.store ?? defaultStore()
  if (safe) store?.setItem(REDIRECT_KEY, safe)
  ;(deps.navigate ?? defaultNavigate)('/')
  return false
}

/** The remembered path (validated again), removed once read; null when there is none. */
export function takeRedirectAfterLogin(store = defaultStore()): string | null {
  const value = store?.getItem(REDIRECT_KEY) ?? null
  store?.removeItem(REDIRECT_KEY)
  return safeRedirectPath(value)
}
