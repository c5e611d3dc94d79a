/**
 * The sync task queue. A task is queued (transmited false), transmitted with a result, then
 * removed unless its result is cacheable. Queued tasks are persisted and run one at a time while
 * online. A task with `auth` carries the user's access token, read at send time and sent as
 * `Authorization: Bearer` (never in the URL); a `token={{token}}` parameter (older persisted
 * tasks, vue-storefront style templates) means the same and is taken out of the URL, and an empty
 * `token=` is dropped. `{{cartId}}` is filled at send time; a task needing a cart id waits for one
 * and is rejected otherwise. 401 with a user token goes through the refresh lock.
 */

import { type Clock, systemClock } from '../../storage/clock'
import type { UniversalStorage } from '../../storage/universal-storage'
import { newTask, type SyncTask, type TaskInput, type TaskResult } from './task'
import { CartIdRequiredError, runTask, type TaskRunDeps } from './task-run'

interface TaskQueueDeps extends TaskRunDeps {
  storage?: UniversalStorage<SyncTask>
  isOnline?: () => boolean
  clock?: Clock
  random?: () => string
}

function randomHex(): string {
  const c = globalThis.crypto
  if (c?.randomUUID) return c.randomUUID().replace(/-/g, '').slice(0, 16)
  return Math.random().toString(16).slice(2, 18)
}

export function createTaskQueue(deps: TaskQueueDeps) {
  const clock = deps.clock ?? systemClock
  const isOnline = deps.isOnline ?? (() => (typeof navigator === 'undefined' ? true : navigator.onLine))
  const random = deps.random ?? randomHex
  const ctx = { deps, clock }
  let processing: Promise<number> | null = null
  /** Set when a task is queued during a run, so the run picks it up before finishing. */
  let dirty = false

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
        res = await runTask(ctx, task, false)
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
      return runTask(ctx, newTask(input, clock.now(), random()))
    },

    /** Persists a task and starts processing when online. Resolves with the stored task. */
    async queue(input: TaskInput): Promise<SyncTask> {
      const task = newTask(input, clock.now(), random())
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
