/**
 * Orders kept on this device (the payload plus store_code, order_id,
 * created_at, updated_at, transmited, transmited_at). A queued order is PENDING until the server
 * acknowledged it; only then does it carry a confirmation (never show a queued order as confirmed).
 */
import { computed, signal } from '@preact/signals-core'

type StoredOrderStatus = 'pending' | 'placed' | 'rejected' | 'canceled'

export interface StoredOrder {
  order_id: string
  store_code: string
  created_at: number
  updated_at: number
  transmited: boolean
  transmited_at: number | null
  status: StoredOrderStatus
  /** The server's answer when placed (orderNumber, backendOrderId, status...). */
  confirmation?: Record<string, unknown> | null
  result_code?: number
  /** The order body as posted to /api/order. */
  order: Record<string, unknown>
  /**
   * Placed by the shopper on this client, which told them it is sent as soon as they are back
   * online: it is sent then without asking again (orders stored without it are asked about).
   */
  promised?: boolean
}

/** Every order stored locally (newest last); refreshed by the order queue. */
export const storedOrders = signal<StoredOrder[]>([])
/** Untransmitted orders: shown as pending. */
export const pendingOrders = computed(() => storedOrders.value.filter((o) => !o.transmited))
/** The last order the server acknowledged ("confirmation kept"). */
export const lastOrderConfirmation = signal<StoredOrder | null>(null)
/** True while an order is being placed ('Processing order...'). */
export const placingOrder = signal(false)
/** Checkout's thank-you page is showing: queued orders are then sent automatically when online. */
export const isThankYouPage = signal(false)
