/**
 * /confirmation (title 'Order Confirmation'): fetches the order by id (GET /api/order/get?orderId=)
 * and shows loading, success with the order, or error. An order still queued on this device is
 * shown as pending; a `pending_payment` order says the payment is pending — never that a card was
 * charged.
 */
import { useEffect, useState } from 'react'
import { MSG } from '../../../shared/i18n/messages'
import { notify } from '../../state/notifications'
import { useSignalValue } from '../../state/use-signal'
import { defineIsland } from '../define'
import { fetchOrder, formatPrice, ordersVersion, storedOrders, userToken } from './adapters'
import { PendingOrderNotice } from './pending-order'

export interface OrderView {
  order_id?: string
  increment_id?: string
  orderNumber?: string
  status?: string
  state?: string
  grand_total?: number
  created_at?: string
  payment?: { method?: string }
  paymentPending?: boolean
  items?: {
    sku: string
    name: string
    qty_ordered?: number
    qty?: number
    row_total_incl_tax?: number
    row_total?: number
  }[]
  [key: string]: unknown
}

/** The user-facing status line of an order. */
export function orderStatusText(order: Pick<OrderView, 'status' | 'state' | 'paymentPending'>): string {
  const status = order.status ?? order.state ?? ''
  if (status === 'pending_payment' || order.paymentPending === true) {
    return 'Your order has been received. Payment is pending: no payment has been taken yet.'
  }
  if (status === 'canceled' || status === 'cancelled') return 'This order has been canceled.'
  return 'Thank you, your order has been received.'
}

type View =
  | { kind: 'loading' }
  | { kind: 'pending'; orderId: string }
  | { kind: 'success'; order: OrderView }
  | { kind: 'error'; message: string }

function Confirmation() {
  const [view, setView] = useState<View>({ kind: 'loading' })
  const version = useSignalValue(ordersVersion)

  // biome-ignore lint/correctness/useExhaustiveDependencies: re-evaluate when the local queue changes
  useEffect(() => {
    const orderId = new URLSearchParams(window.location.search).get('orderId') ?? ''
    if (!orderId) {
      const pending = storedOrders().find((o) => !o.transmited)
      if (pending) setView({ kind: 'pending', orderId: pending.order_id })
      else setView({ kind: 'error', message: 'No order to show.' })
      return
    }
    const local = storedOrders().find((o) => o.order_id === orderId)
    if (local && !local.transmited) {
      setView({ kind: 'pending', orderId })
      return
    }
    let cancelled = false
    fetchOrder(orderId, userToken.peek())
      .then((res) => {
        if (cancelled) return
        if (res.code === 200 && res.result && typeof res.result === 'object') {
          setView({ kind: 'success', order: res.result as OrderView })
        } else {
          const message = typeof res.result === 'string' ? res.result : 'The order could not be loaded.'
          notify({ type: 'error', message, action1: { label: MSG.ok } })
          setView({ kind: 'error', message })
        }
      })
      .catch((err: Error) => {
        if (cancelled) return
        setView({ kind: 'error', message: err.message })
      })
    return () => {
      cancelled = true
    }
  }, [version])

  if (view.kind === 'loading')
    return (
      <p role="status" data-testid="confirmation-loading">
        Loading your order…
      </p>
    )
  if (view.kind === 'pending') return <PendingOrderNotice orderId={view.orderId} />
  if (view.kind === 'error') {
    return (
      <div className="confirmation confirmation--error" data-testid="confirmation-error">
        <p>{view.message}</p>
        <a href="/" className="btn">
          Back to the shop
        </a>
      </div>
    )
  }
  const { order } = view
  const number = order.increment_id ?? order.orderNumber ?? order.order_id
  return (
    <div className="confirmation" data-testid="confirmation-success">
      <p className="confirmation__status" data-status={order.status ?? order.state}>
        {orderStatusText(order)}
      </p>
      <p>
        Order number: <strong data-testid="order-number">{number}</strong>
      </p>
      {order.items?.length ? (
        <ul className="confirmation__items">
          {order.items.map((i) => (
            <li key={i.sku}>
              {i.name} × {i.qty_ordered ?? i.qty}
            </li>
          ))}
        </ul>
      ) : null}
      {typeof order.grand_total === 'number' ? <p>Total: {formatPrice(order.grand_total)}</p> : null}
      <a href="/" className="btn">
        Continue shopping
      </a>
    </div>
  )
}

export const ConfirmationIsland = defineIsland('confirmation', Confirmation)
