/**
 * Notification store: type, message, action1, action2,
 * timeToLive (default 5 s) and hasNoTimeout; a message identical to the previous one is ignored.
 */
import { signal } from '@preact/signals-core'
import { NOTIFICATION_TTL_MS } from '@shared/config/ui'

type NotificationType = 'success' | 'error' | 'warning' | 'info'

interface NotificationAction {
  label: string
  /** Navigates there when clicked (same-origin path). */
  href?: string
  action?: () => void
}

export interface NotificationInput {
  type: NotificationType
  message: string
  action1?: NotificationAction
  action2?: NotificationAction
  timeToLive?: number
  hasNoTimeout?: boolean
}

interface AppNotification extends NotificationInput {
  id: number
}

interface Timers {
  setTimeout: (fn: () => void, ms: number) => unknown
  clearTimeout: (handle: unknown) => void
}

const defaultTimers: Timers = {
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>),
}

/** Creates a notification store; timers are injectable so tests control time. */
function createNotificationStore(timers: Timers = defaultTimers) {
  const list = signal<AppNotification[]>([])
  const handles = new Map<number, unknown>()
  let nextId = 1
  let lastMessage: string | null = null

  function remove(id: number) {
    const h = handles.get(id)
    if (h !== undefined) timers.clearTimeout(h)
    handles.delete(id)
    list.value = list.value.filter((n) => n.id !== id)
  }

  function notify(input: NotificationInput): AppNotification | null {
    // "A message identical to the previous one is ignored."
    if (lastMessage === input.message) return null
    lastMessage = input.message
    const n: AppNotification = { ...input, id: nextId++ }
    list.value = [...list.value, n]
    if (!input.hasNoTimeout) {
      handles.set(
        n.id,
        timers.setTimeout(() => remove(n.id), input.timeToLive ?? NOTIFICATION_TTL_MS),
      )
    }
    return n
  }

  function clear() {
    for (const h of handles.values()) timers.clearTimeout(h)
    handles.clear()
    list.value = []
    lastMessage = null
  }

  return { list, notify, remove, clear }
}

export const notifications = createNotificationStore()
export const notify = notifications.notify
