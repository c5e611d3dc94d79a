/**
 * Cart store (signals; transactions spec §3 "Cart state"). The sync engine (client/engines/cart/cart-sync)
 * mutates it; islands read it. "minicart counts ... sum of quantities" (transactions spec §9).
 */
import { computed, signal } from '@preact/signals-core'

export interface CartLine {
  sku: string
  parentSku?: string
  name: string
  qty: number
  prev_qty?: number
  type_id?: string
  price?: number
  priceInclTax?: number
  finalPriceInclTax?: number
  server_item_id?: number | string | null
  server_cart_id?: string | null
  product_option?: unknown
  stock?: { is_in_stock?: boolean; qty?: number; stock_status?: number }
  errors?: Record<string, string | null>
  info?: Record<string, string | null>
  totals?: Record<string, unknown>
  [key: string]: unknown
}

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
export const cartShippingMethod = signal<Record<string, unknown> | null>(null)
export const cartPaymentMethod = signal<Record<string, unknown> | null>(null)
/** True while the cart talks to the server (connect/sync). */
export const cartSyncing = signal(false)

export const isCartConnected = computed(() => cartServerToken.value !== null)

/** Minicart count: the sum of quantities. */
export const cartCount = computed(() => cartItems.value.reduce((sum, line) => sum + (line.qty || 0), 0))
