/**
 * Running one task against the API: waits while a token refresh is in progress, fills the cart
 * id (waiting for one when asked), sends the user token only as a header, goes through the
 * refresh lock on a 401, and settles the task with the answer (notifying a shown error and the
 * task's callback event).
 */
import { CHECK_THE_FORM, shopperMessage } from '@shared/i18n/api-words'
import { isSuppressedErrorMessage, MSG } from '@shared/i18n/messages'
import { ApiError, apiRaw } from '../../api'
import type { NotificationInput } from '../../state/notifications'
import { type Clock, sleep } from '../../storage/clock'
import type { TokenRefresher } from '../session/token-refresh'
import { TASK_RETRY_DURING_REFRESH_MS } from './config'
import type { SyncTask, TaskResult } from './task'

export class CartIdRequiredError extends Error {
  constructor(url: string) {
    super(`The task needs a cart id and there is none: ${url}`)
    this.name = 'CartIdRequiredError'
  }
}

const TOKEN_PARAM = /([?&])token=(\{\{token\}\}|%7B%7Btoken%7D%7D)?(?=&|$)/i

/** Whether a task carries the user token: its `auth` flag, or a `{{token}}` placeholder in its URL. */
export function usesUserToken(task: Pick<SyncTask, 'url' | 'auth'>): boolean {
  return task.auth === true || task.url.includes('{{token}}')
}

/** The task URL without its `token` parameter (placeholder or empty). */
export function stripTokenParam(url: string): string {
  let out = url
  while (TOKEN_PARAM.test(out)) out = out.replace(TOKEN_PARAM, (_, sep: string) => (sep === '?' ? '?' : ''))
  return out.replace(/\?&/, '?').replace(/\?$/, '')
}

/** Text of an error result: a string, or an object with a string result, message or errorMessage. */
export function resultMessage(result: unknown): string | null {
  if (typeof result === 'string') return result
  if (result && typeof result === 'object') {
    const r = result as { result?: unknown; message?: unknown; errorMessage?: unknown }
    for (const v of [r.result, r.message, r.errorMessage]) if (typeof v === 'string') return v
  }
  return null
}

/** Whether a failed task's text is shown: not for silent tasks and not for the two exempt phrases. */
export function shouldNotifyError(task: Pick<SyncTask, 'silent'>, message: string | null): message is string {
  return !task.silent && !!message && !isSuppressedErrorMessage(message)
}

/** What running one task needs from the queue's owner. */
export interface TaskRunDeps {
  refresher: TokenRefresher
  getToken: () => string | null
  getCartId: () => string | null
  /** Waits for a cart id (the cart is connecting); resolves null when none comes. */
  waitForCartId?: () => Promise<string | null>
  notify: (n: NotificationInput) => unknown
  emit?: (event: string, payload: unknown) => void
  fetch?: typeof fetch
}

interface TaskRunContext {
  deps: TaskRunDeps
  clock: Clock
}

async function resolveUrl(ctx: TaskRunContext, task: SyncTask, waitForCart: boolean): Promise<string> {
  let url = stripTokenParam(task.url)
  if (url.includes('{{cartId}}')) {
    let cartId = ctx.deps.getCartId()
    if (!cartId && waitForCart && ctx.deps.waitForCartId) cartId = await ctx.deps.waitForCartId()
    if (!cartId) throw new CartIdRequiredError(task.url)
    url = url.replace(/\{\{cartId\}\}/g, encodeURIComponent(cartId))
  }
  return url
}

function finish(
  ctx: TaskRunContext,
  task: SyncTask,
  code: number,
  result: unknown,
  meta?: unknown,
): TaskResult {
  const now = ctx.clock.now()
  Object.assign(task, {
    result,
    resultCode: code,
    code,
    meta,
    transmited: true,
    transmited_at: now,
    updated_at: now,
  })
  if (code < 200 || code >= 300) {
    const message = resultMessage(result)
    if (shouldNotifyError(task, message)) {
      // The API's developer wording (field paths, validator details) is said in words.
      ctx.deps.notify({
        type: 'error',
        message: shopperMessage(message, CHECK_THE_FORM),
        action1: { label: MSG.ok },
      })
    }
  }
  if (task.callback_event) ctx.deps.emit?.(task.callback_event, { task, code, result, meta })
  return { code, resultCode: code, result, meta, task }
}

/**
 * Runs a task now. Resolves with the server's code/result (non-2xx included); rejects on a
 * network failure (the caller queues or retries) and with CartIdRequiredError.
 */
export async function runTask(ctx: TaskRunContext, task: SyncTask, waitForCart = true): Promise<TaskResult> {
  for (;;) {
    const lock = ctx.deps.refresher.lock
    if (lock > 0) {
      await sleep(ctx.clock, TASK_RETRY_DURING_REFRESH_MS)
      continue
    }
    const token = ctx.deps.getToken()
    const auth = usesUserToken(task)
    // A failed refresh aborts the calls that carry the user token; guest calls (no token) go on.
    if (lock < 0 && token && auth) {
      return finish(ctx, { ...task, silent: true }, 401, MSG.tokenRefreshFailed)
    }
    const url = await resolveUrl(ctx, task, waitForCart)
    let status: number
    let body: unknown
    try {
      ;({ status, body } = await apiRaw(url, {
        method: task.payload.method ?? (task.payload.body === undefined ? 'GET' : 'POST'),
        body: task.payload.body,
        token: auth ? token : null,
        fetch: ctx.deps.fetch,
      }))
    } catch (err) {
      if (err instanceof ApiError) return finish(ctx, task, err.code >= 400 ? err.code : 500, err.message)
      throw err
    }
    if (!body || typeof body !== 'object') return finish(ctx, task, status, MSG.wrongResponseFormat)
    const env = body as { code?: number; resultCode?: number; result?: unknown; meta?: unknown }
    const code = env.code ?? env.resultCode ?? status
    if (code === 401 && token) {
      const outcome = await ctx.deps.refresher.handleUnauthorized(token)
      if (outcome === 'retry') continue
      if (outcome === 'wait') {
        await sleep(ctx.clock, TASK_RETRY_DURING_REFRESH_MS)
        continue
      }
      return finish(ctx, { ...task, silent: true }, 401, MSG.tokenRefreshFailed)
    }
    if (token && code !== 401) ctx.deps.refresher.noteSuccess()
    return finish(ctx, task, code, env.result, env.meta)
  }
}
