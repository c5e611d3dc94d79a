/**
 * Orders stored on this device but not yet acknowledged by the server: shown as PENDING, never as
 * confirmed. Showing them makes this the thank-you page, so coming back online sends them
 * automatically; once the server has acknowledged the order the shopper is taken to its
 * confirmation.
 */

import { MSG } from '@shared/i18n/messages'
import { useEffect, useRef, useState } from 'react'
import { getRuntime } from '../../engines/runtime/runtime'
import { isThankYouPage, storedOrders } from '../../state/orders'
import { useSignalValue } from '../../state/use-signal'

export function PendingOrderNotice({ orderId }: { orderId?: string }) {
  const orders = useSignalValue(storedOrders)
  const [online, setOnline] = useState(() => typeof navigator === 'undefined' || navigator.onLine)
  const pending = orders.filter((o) => !o.transmited && (!orderId || o.order_id === orderId))
  // The order this view follows: the one asked for, else the first one seen pending here.
  const followed = useRef<string | null>(orderId ?? null)
  if (!followed.current && pending[0]) followed.current = pending[0].order_id
  const mine = followed.current ? orders.find((o) => o.order_id === followed.current) : undefined

  useEffect(() => {
    void getRuntime().orders.list()
    const on = () => setOnline(true)
    const off = () => setOnline(false)
    window.addEventListener('online', on)
    window.addEventListener('offline', off)
    return () => {
      window.removeEventListener('online', on)
      window.removeEventListener('offline', off)
    }
  }, [])

  // This is the thank-you page of pending orders: while online they are sent automatically (the
  // queue runs one at a time and the server is idempotent on order_id, so this never doubles).
  useEffect(() => {
    if (!pending.length) return
    isThankYouPage.value = true
    if (online) void getRuntime().orders.process()
  }, [pending.length, online])

  // The notice replaces the form the shopper was in: focus follows it so it is read out.
  const heading = useRef<HTMLHeadingElement>(null)
  const shown = pending.length > 0
  useEffect(() => {
    if (shown) heading.current?.focus()
  }, [shown])

  // Acknowledged by the server → its confirmation.
  useEffect(() => {
    if (mine?.transmited && mine.status === 'placed') {
      window.location.assign(`/confirmation?orderId=${encodeURIComponent(mine.order_id)}`)
    }
  }, [mine])

  if (mine?.transmited && mine.status !== 'placed') {
    return (
      <section className="pending-order" data-testid="order-canceled">
        <h2>Your order could not be placed</h2>
        <p>The order {mine.order_id} has been canceled. Nothing has been charged.</p>
      </section>
    )
  }
  if (pending.length === 0) return null
  return (
    <section className="pending-order" data-testid="order-pending" aria-live="polite">
      <h2 tabIndex={-1} ref={heading}>
        Your order is pending
      </h2>
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
