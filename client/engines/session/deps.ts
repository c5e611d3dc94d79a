/** What the session engine needs from the rest of the client (injected, so tests drive it). */
import type { NotificationInput } from '../../state/notifications'
import type { UniversalStorage } from '../../storage/universal-storage'
import type { ClientSettings } from '../runtime/config'
import type { EventBus } from '../runtime/events'
import type { TaskQueue } from '../runtime/task-queue'
import type { TokenRefresher } from './token-refresh'

/** Where the session keeps its parts in the user collection. */
export const USER_KEYS = {
  token: 'current-token',
  refreshToken: 'current-refresh-token',
  user: 'current-user',
  ordersHistory: 'orders-history',
} as const

/** The cart operations the session drives (implemented by client/engines/cart/cart-sync.ts). */
interface SessionCart {
  /** After login: connect the customer cart and merge the guest cart into it exactly once. */
  authorize(): Promise<void>
  /** On logout: forget the server cart and start a fresh guest cart. */
  disconnectAndRecreate(): Promise<void>
}

export interface SessionDeps {
  queue: TaskQueue
  refresher: TokenRefresher
  storage: UniversalStorage<unknown>
  bus: EventBus
  notify: (n: NotificationInput) => unknown
  settings: () => ClientSettings
  cart?: SessionCart
  fetch?: typeof fetch
  /** Where to go after login when an account route was attempted. */
  navigate?: (path: string) => void
  redirectStore?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>
}

export type LoginResult = { ok: true; redirectTo: string | null } | { ok: false; message: string }

/** The message of an error answer (a string, or an object's errorMessage/message), else `fallback`. */
export function errorText(result: unknown, fallback: string): string {
  if (typeof result === 'string') return result
  const r = result as { errorMessage?: unknown; message?: unknown } | null
  if (r && typeof r.errorMessage === 'string') return r.errorMessage
  if (r && typeof r.message === 'string') return r.message
  return fallback
}
