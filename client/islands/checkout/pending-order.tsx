/**
 * An order that is stored on this device but not yet acknowledged by the server: shown as PENDING
 * (never as confirmed). When the browser comes back online the queue is processed once and, as soon
 * as the server has acknowledged the order, the shopper is taken to its confirmation.
 */
import { useEffect, useState } from 'react'
import { MSG } from '../../../shared/i18n/messages'
import { useSignalValue } from '../../state/use-signal'
import { ordersVersion, processOrderQueue, type QueuedOrder, storedOrders } from './adapters'

/** Pending (untransmitted) orders, optionally just one. */
function pendingOrders(orderId?: string): QueuedOrder[] {
  return storedOrders().filter((o) => !o.transmited && (!orderId || o.order_id === orderId))
}

export function PendingOrderNotice({ orderId }: { orderId?: string }) {
  const version = useSignalValue(ordersVersion)
  const [online, setOnline] = useState(() => typeof navigator === 'undefined' || navigator.onLine)
  const [pending, setPending] = useState<QueuedOrder[]>(() => pendingOrders(orderId))

  useEffect(() => {
    const on = () => {
      setOnline(true)
      void processOrderQueue()
    }
    const off = () => setOnline(false)
    window.addEventListener('online', on)
    window.addEventListener('offline', off)
    if (navigator.onLine && pendingOrders(orderId).length) void processOrderQueue()
    return () => {
      window.removeEventListener('online', on)
      window.removeEventListener('offline', off)
    }
  }, [orderId])

  // biome-ignore lint/correctness/useExhaustiveDependencies: re-read the queue when it changes
  useEffect(() => {
    const now = pendingOrders(orderId)
    setPending(now)
    if (orderId && now.length === 0) {
      const sent = storedOrders().find((o) => o.order_id === orderId && o.transmited && o.confirmation)
      if (sent) window.location.assign(`/confirmation?orderId=${encodeURIComponent(orderId)}`)
    }
  }, [version, orderId])

  if (pending.length === 0) return null
  return (
    <section className="pending-order" data-testid="order-pending" aria-live="polite">
      <h2>Your order is pending</h2>
      <p>
        {online
          ? 'We are sending your order to the shop…'
          : 'You are offline. Your order has been saved on this device and will be sent as soon as you are back online. It is not confirmed yet.'}
      </p>
      <ul>
        {pending.map((o) => (
          <li key={o.order_id} data-order-id={o.order_id}>
            Order reference {o.order_id} — <strong>pending</strong>
          </li>
        ))}
      </ul>
      {online ? <p role="status">{MSG.processingOrder}</p> : null}
    </section>
  )
}
