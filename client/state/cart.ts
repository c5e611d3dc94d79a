/**
 * Cart store (signals). The sync engine (client/sync) and the cart islands mutate it; the header
 * reads the count. "minicart counts ... sum of quantities" (transactions spec §9).
 */
import { computed, signal } from '@preact/signals-core'

export interface CartLine {
  sku: string
  parentSku?: string
  name: string
  qty: number
  [key: string]: unknown
}

export const cartItems = signal<CartLine[]>([])
export const cartLoaded = signal(false)

/** Minicart count: the sum of quantities. */
export const cartCount = computed(() => cartItems.value.reduce((sum, line) => sum + (line.qty || 0), 0))
