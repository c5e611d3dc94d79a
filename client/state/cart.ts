/**
 * The cart store (signals): the cart engine (client/engines/cart) writes it, islands read it.
 * The mini-cart shows the sum of the lines' quantities.
 */
import { computed, signal } from '@preact/signals-core'
import type { CartLine } from '@shared/schemas/cart'

/** The one cart line type (islands read it from here). */
export type { CartLine } from '@shared/schemas/cart'

export interface CartTotalSegment {
  code: string
  title: string
  value: number
  [key: string]: unknown
}

export interface CartTotals {
  grand_total?: number
  subtotal?: number
  discount_amount?: number
  coupon_code?: string | null
  items?: Record<string, unknown>[]
  total_segments: CartTotalSegment[]
  [key: string]: unknown
}

export const cartItems = signal<CartLine[]>([])
export const cartLoaded = signal(false)
/** The server cart token (cart id); null until connected. */
export const cartServerToken = signal<string | null>(null)
/** Hash of the items + token at the last successful sync. */
export const cartSyncedHash = signal<string | null>(null)
export const cartLastSyncAt = signal<number | null>(null)
export const cartLastTotalsSyncAt = signal<number | null>(null)
/** Server totals ('platformTotalSegments'); null until synced. */
export const cartTotals = signal<CartTotals | null>(null)
export const cartPromoMessage = signal<string | null>(null)
export const cartCoupon = computed(() => {
  const t = cartTotals.value
  return t?.coupon_code ? { code: t.coupon_code, discount_amount: Number(t.discount_amount ?? 0) } : null
})
/** True while the cart talks to the server (connect/sync). */
export const cartSyncing = signal(false)

export const isCartConnected = computed(() => cartServerToken.value !== null)

/** Minicart count: the sum of quantities. */
export const cartCount = computed(() => cartItems.value.reduce((sum, line) => sum + (line.qty || 0), 0))
