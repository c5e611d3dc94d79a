/**
 * A sync task: what is stored in the queue and sent, what a caller asks for, and what a run
 * answers. The queue (task-queue.ts) and one task's run (task-run.ts) both read these shapes.
 */

interface TaskPayload {
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

/** A task as stored before it is sent (id from the time and a random part). */
export function newTask(input: TaskInput, now: number, randomPart: string): SyncTask {
  return {
    task_id: `${now}-${randomPart}`,
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
