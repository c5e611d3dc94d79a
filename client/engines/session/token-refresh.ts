/**
 * The token refresh lock (VSF's, without its bugs). `lock` is 0 when idle, > 0 while a refresh runs, −1 after a failure (tasks then resolve
 * {code: 401}). Exactly one refresh runs however many tasks see a 401 at once: the first takes the
 * lock; the others wait and retry with the new token. The refresh is a plain fetch to
 * /api/user/refresh (never through the task queue: VSF PR #3271). The attempts counter counts
 * refreshes not yet followed by a successful authenticated call and is reset by one (VSF #5713
 * never reset it, logging users out after N successful refreshes); after 20, or when the refresh
 * itself fails, `onExhausted` logs the user out.
 */
import { MSG } from '@shared/i18n/messages'
import { apiRaw } from '../../api'
import type { NotificationInput } from '../../state/notifications'
import { MAX_TOKEN_REFRESH_ATTEMPTS } from '../runtime/config'

interface TokenRefresherDeps {
  getToken: () => string | null
  getRefreshToken: () => string | null
  /** Stores the new access token and the rotated refresh token. */
  setTokens: (token: string, refreshToken: string | null) => void
  /** Silent logout, unsent tasks cleared, sign-up modal, message. */
  onExhausted: (reason: 'attempts' | 'refresh-failed') => void | Promise<void>
  fetch?: typeof fetch
  maxAttempts?: number
  /**
   * Cross-tab exclusion (navigator.locks in the browser): refresh tokens rotate and a reused one
   * revokes the whole family, so two tabs must never refresh with the same token.
   */
  withLock?: <T>(fn: () => Promise<T>) => Promise<T>
  /** The tokens as persisted now (another tab may have refreshed them already). */
  readStoredTokens?: () => Promise<{ token: string | null; refreshToken: string | null } | null>
}

/** What a task should do after its 401. */
type UnauthorizedOutcome = 'retry' | 'wait' | 'failed'

export function createTokenRefresher(deps: TokenRefresherDeps) {
  const maxAttempts = deps.maxAttempts ?? MAX_TOKEN_REFRESH_ATTEMPTS
  const state = { lock: 0, attempts: 0, refreshes: 0 }

  async function refreshNow(): Promise<boolean> {
    const refreshToken = deps.getRefreshToken()
    if (!refreshToken) return false
    state.refreshes++
    try {
      const { body } = await apiRaw('/api/user/refresh', {
        method: 'POST',
        body: { refreshToken },
        fetch: deps.fetch,
      })
      const env = body as { code?: number; result?: unknown; meta?: { refreshToken?: string } }
      if (env.code === 200 && typeof env.result === 'string' && env.result) {
        deps.setTokens(env.result, env.meta?.refreshToken ?? refreshToken)
        return true
      }
      return false
    } catch (err) {
      console.warn('[token-refresh] refresh failed', err)
      return false
    }
  }

  return {
    get lock() {
      return state.lock
    },
    get attempts() {
      return state.attempts
    },
    /** Number of refresh calls made (diagnostics/tests). */
    get refreshes() {
      return state.refreshes
    },

    /** A task authenticated with `usedToken` got a 401: refresh once, or tell it to wait/retry/fail. */
    async handleUnauthorized(usedToken: string): Promise<UnauthorizedOutcome> {
      const current = deps.getToken()
      // Someone refreshed while this request was in flight: retry with the new token.
      if (current && current !== usedToken) return 'retry'
      if (state.lock > 0) return 'wait'
      if (state.lock < 0) return 'failed'
      state.lock = 1
      if (state.attempts >= maxAttempts) {
        state.lock = -1
        await deps.onExhausted('attempts')
        return 'failed'
      }
      state.attempts++
      const ok = await (deps.withLock ?? ((fn) => fn()))(async () => {
        const stored = await deps.readStoredTokens?.()
        if (stored?.token && stored.token !== usedToken) {
          // Another tab refreshed while we waited for the lock: adopt its tokens.
          deps.setTokens(stored.token, stored.refreshToken)
          return true
        }
        return refreshNow()
      })
      if (!ok) {
        state.lock = -1
        await deps.onExhausted('refresh-failed')
        return 'failed'
      }
      state.lock = 0
      return 'retry'
    },

    /** An authenticated call succeeded: the attempts counter starts over (no #5713). */
    noteSuccess(): void {
      state.attempts = 0
    },

    /** A new session (login/logout): idle lock, no attempts. */
    reset(): void {
      state.lock = 0
      state.attempts = 0
    },
  }
}

export type TokenRefresher = ReturnType<typeof createTokenRefresher>

/**
 * What happens when the session can no longer be refreshed (the rule): silent logout, unsent
 * tasks cleared, the sign-up modal, and 'Internal Application error while refreshing the tokens.
 * Please clear the storage and refresh page.' with OK.
 */
export async function handleRefreshExhausted(deps: {
  logout: (opts: { silent: boolean }) => void | Promise<void>
  clearUnsentTasks: () => void | Promise<void>
  openSignupModal: () => void
  notify: (n: NotificationInput) => unknown
}): Promise<void> {
  await deps.logout({ silent: true })
  await deps.clearUnsentTasks()
  deps.openSignupModal()
  deps.notify({
    type: 'error',
    message: MSG.tokenRefreshExhausted,
    action1: { label: MSG.ok },
    hasNoTimeout: true,
  })
}
