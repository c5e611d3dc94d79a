/**
 * The sync task queue. A task is queued (transmited false), transmitted with a result, then
 * removed unless its result is cacheable. Queued tasks are persisted and run one at a time while
 * online. A task with `auth` carries the user's access token, read at send time and sent as
 * `Authorization: Bearer` (never in the URL); a `token={{token}}` parameter (older persisted
 * tasks, vue-storefront style templates) means the same and is taken out of the URL, and an empty
 * `token=` is dropped. `{{cartId}}` is filled at send time; a task needing a cart id waits for one
 * and is rejected otherwise. 401 with a user token goes through the refresh lock.
 */

import { isSuppressedErrorMessage, MSG } from '../../../shared/i18n/messages'
import { ApiError, apiRaw } from '../../api'
import type { NotificationInput } from '../../state/notifications'
import { type Clock, sleep, systemClock } from '../../storage/clock'
import type { UniversalStorage } from '../../storage/universal-storage'
import type { TokenRefresher } from '../session/token-refresh'
import { TASK_RETRY_DURING_REFRESH_MS } from './config'

export interface TaskPayload {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE'
  body?: unknown
}

/** A sync task as stored and sent. Times are epoch milliseconds. */
export interface SyncTask {
  task_id: string
  url: string
  /** Sends the user's access token (Authorization header) when there is one. */
  auth?: boolean
  payload: TaskPayload
  transmited: boolean
  transmited_at: number | null
  result?: unknown
  resultCode?: number
  code?: number
  meta?: unknown
  callback_event?: string
  silent?: boolean
  acknowledged?: boolean
  is_result_cacheable?: boolean
  created_at: number
  updated_at: number
}

export interface TaskInput {
  url: string
  /** Sends the user's access token (Authorization header) when there is one. */
  auth?: boolean
  payload?: TaskPayload
  callback_event?: string
  silent?: boolean
  is_result_cacheable?: boolean
}

export interface TaskResult {
  code: number
  resultCode: number
  result: unknown
  meta?: unknown
  task: SyncTask
}

export class CartIdRequiredError extends Error {
  constructor(url: string) {
    super(`The task needs a cart id and there is none: ${url}`)
    this.name = 'CartIdRequiredError'
  }
}

export interface TaskQueueDeps {
  refresher: TokenRefresher
  getToken: () => string | null
  getCartId: () => string | null
  /** Waits for a cart id (the cart is connecting); resolves null when none comes. */
  waitForCartId?: () => Promise<string | null>
  notify: (n: NotificationInput) => unknown
  emit?: (event: string, payload: unknown) => void
  storage?: UniversalStorage<SyncTask>
  isOnline?: () => boolean
  clock?: Clock
  fetch?: typeof fetch
  random?: () => string
}

function randomHex(): string {
  const c = globalThis.crypto
  if (c?.randomUUID) return c.randomUUID().replace(/-/g, '').slice(0, 16)
  return Math.random().toString(16).slice(2, 18)
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

export function createTaskQueue(deps: TaskQueueDeps) {
  const clock = deps.clock ?? systemClock
  const isOnline = deps.isOnline ?? (() => (typeof navigator === 'undefined' ? true : navigator.onLine))
  const random = deps.random ?? randomHex
  let processing: Promise<number> | null = null
  /** Set when a task is queued during a run, so the run picks it up before finishing. */
  let dirty = false

  function prepare(input: TaskInput): SyncTask {
    const now = clock.now()
    return {
      task_id: `${now}-${random()}`,
      url: input.url,
      auth: input.auth,
      payload: input.payload ?? { method: 'GET' },
      transmited: false,
      transmited_at: null,
      callback_event: input.callback_event,
      silent: input.silent ?? false,
      acknowledged: false,
      is_result_cacheable: input.is_result_cacheable ?? false,
      created_at: now,
      updated_at: now,
    }
  }

  async function resolveUrl(task: SyncTask, waitForCart: boolean): Promise<string> {
    let url = stripTokenParam(task.url)
    if (url.includes('{{cartId}}')) {
      let cartId = deps.getCartId()
      if (!cartId && waitForCart && deps.waitForCartId) cartId = await deps.waitForCartId()
      if (!cartId) throw new CartIdRequiredError(task.url)
      url = url.replace(/\{\{cartId\}\}/g, encodeURIComponent(cartId))
    }
    return url
  }

  function finish(task: SyncTask, code: number, result: unknown, meta?: unknown): TaskResult {
    const now = clock.now()
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
        deps.notify({ type: 'error', message, action1: { label: MSG.ok } })
      }
    }
    if (task.callback_event) deps.emit?.(task.callback_event, { task, code, result, meta })
    return { code, resultCode: code, result, meta, task }
  }

  /**
   * Runs a task now. Resolves with the server's code/result (non-2xx included); rejects on a
   * network failure (the caller queues or retries) and with CartIdRequiredError.
   */
  async function run(task: SyncTask, waitForCart = true): Promise<TaskResult> {
    for (;;) {
      const lock = deps.refresher.lock
      if (lock > 0) {
        await sleep(clock, TASK_RETRY_DURING_REFRESH_MS)
        continue
      }
      const token = deps.getToken()
      const auth = usesUserToken(task)
      // A failed refresh aborts the calls that carry the user token; guest calls (no token) go on.
      if (lock < 0 && token && auth) {
        return finish({ ...task, silent: true }, 401, MSG.tokenRefreshFailed)
      }
      const url = await resolveUrl(task, waitForCart)
      let status: number
      let body: unknown
      try {
        ;({ status, body } = await apiRaw(url, {
          method: task.payload.method ?? (task.payload.body === undefined ? 'GET' : 'POST'),
          body: task.payload.body,
          token: auth ? token : null,
          fetch: deps.fetch,
        }))
      } catch (err) {
        if (err instanceof ApiError) return finish(task, err.code >= 400 ? err.code : 500, err.message)
        throw err
      }
      if (!body || typeof body !== 'object') return finish(task, status, MSG.wrongResponseFormat)
      const env = body as { code?: number; resultCode?: number; result?: unknown; meta?: unknown }
      const code = env.code ?? env.resultCode ?? status
      if (code === 401 && token) {
        const outcome = await deps.refresher.handleUnauthorized(token)
        if (outcome === 'retry') continue
        if (outcome === 'wait') {
          await sleep(clock, TASK_RETRY_DURING_REFRESH_MS)
          continue
        }
        return finish({ ...task, silent: true }, 401, MSG.tokenRefreshFailed)
      }
      if (token && code !== 401) deps.refresher.noteSuccess()
      return finish(task, code, env.result, env.meta)
    }
  }

  /** Queued tasks not yet sent, oldest first. */
  async function pending(): Promise<SyncTask[]> {
    if (!deps.storage) return []
    return (await deps.storage.entries())
      .map(([, t]) => t)
      .filter((t) => t && !t.transmited)
      .sort((a, b) => a.created_at - b.created_at || (a.task_id < b.task_id ? -1 : 1))
  }

  async function processOnce(): Promise<number> {
    let sent = 0
    for (const task of await pending()) {
      if (!isOnline()) break
      let res: TaskResult
      try {
        res = await run(task, false)
      } catch (err) {
        if (err instanceof CartIdRequiredError) continue // stays queued until the cart connects
        console.warn('[task-queue] network failure; keeping the queue', err)
        break
      }
      sent++
      if (task.is_result_cacheable) await deps.storage?.setItem(task.task_id, res.task)
      else await deps.storage?.removeItem(task.task_id)
    }
    return sent
  }

  return {
    /** Runs a task now, outside the queue (cart, user calls). */
    execute(input: TaskInput): Promise<TaskResult> {
      return run(prepare(input))
    },

    /** Persists a task and starts processing when online. Resolves with the stored task. */
    async queue(input: TaskInput): Promise<SyncTask> {
      const task = prepare(input)
      await deps.storage?.setItem(task.task_id, task)
      dirty = true
      void this.process()
      return task
    },

    /** Sends queued tasks one at a time while online; concurrent calls share one run. */
    process(): Promise<number> {
      if (!isOnline()) return Promise.resolve(0)
      if (!processing) {
        processing = (async () => {
          let total = 0
          do {
            dirty = false
            total += await processOnce()
          } while (dirty && isOnline())
          return total
        })().finally(() => {
          processing = null
        })
      }
      return processing
    },

    pending,

    /** "unsent tasks are cleared" (after the refresh gives up). */
    async clearUnsent(): Promise<void> {
      for (const t of await pending()) await deps.storage?.removeItem(t.task_id)
    },
  }
}

export type TaskQueue = ReturnType<typeof createTaskQueue>
