/**
 * User store: token, refresh token, the current user, order
 * history and store credit. Group id/token are kept only when price tiers are on.
 * The session engine (client/engines/session/session.ts) fills it; islands read it.
 */
import { computed, signal } from '@preact/signals-core'

export interface CurrentUser {
  id: number
  email: string
  firstname: string
  lastname: string
  group_id?: number
  addresses?: Record<string, unknown>[]
  groupToken?: string
  [key: string]: unknown
}

export interface OrderHistory {
  items: Record<string, unknown>[]
  total_count?: number
}

export interface StoreCredit {
  items: Record<string, unknown>[]
  total_balance: number
}

export const userToken = signal<string | null>(null)
export const refreshToken = signal<string | null>(null)
export const groupToken = signal<string | null>(null)
export const groupId = signal<number | null>(null)
export const currentUser = signal<CurrentUser | null>(null)
export const ordersHistory = signal<OrderHistory>({ items: [] })
export const storeCredit = signal<StoreCredit>({ items: [], total_balance: 0 })
/** True once the local session has started (the access rule waits for it). */
export const sessionStarted = signal(false)
/** "loading status" */
export const userLoading = signal(false)

export const isLoggedIn = computed(() => !!userToken.value)

/** Clears everything user-bound (logout). */
export function clearUserState(): void {
  userToken.value = null
  refreshToken.value = null
  groupToken.value = null
  groupId.value = null
  currentUser.value = null
  ordersHistory.value = { items: [] }
  storeCredit.value = { items: [], total_balance: 0 }
}
