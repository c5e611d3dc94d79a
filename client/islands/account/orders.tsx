/** The account's order history and a single order of it (by entity id or increment id). */

import { useState } from 'react'
import { offersPayNow } from '../checkout/order-status'
import { OrderLineImage } from '../order/order-line-image'
import { PayNowButton } from '../order/pay-now'
import { CustomerTaxDocuments } from '../order/tax-documents'
import { userSend } from './account-api'
import { orderKey } from './account-model'
import { useOrderHistory } from './order-history'
import { type OrderRowView, orderDetail, orderRow } from './orders-model'

/** An order's lines: picture, name, options and quantity, and the price in the order's currency. */
function OrderLines({ lines, testId }: { lines: OrderRowView['lines']; testId: string }) {
  return (
    <ul className="order-card__lines">
      {lines.map((l) => (
        <li key={l.key} className="order-card__line" data-testid={testId}>
          <OrderLineImage path={l.image} />
          <span className="order-card__line-text">
            <span>{l.name}</span>
            {l.options ? <small>{l.options}</small> : null}
            <small>Qty {l.qty}</small>
          </span>
          {l.price ? <span className="order-card__price">{l.price}</span> : null}
        </li>
      ))}
    </ul>
  )
}

/** The order's total, when it is known. */
function OrderTotal({ total, testId }: { total: string | null | undefined; testId: string }) {
  return total ? (
    <p className="order-card__total">
      Total <strong data-testid={testId}>{total}</strong>
    </p>
  ) : null
}

/** One order of the history: number, date and status, its lines with their prices, the total, and its links. */
function OrderCard({ row }: { row: OrderRowView }) {
  return (
    <li className="order-card" data-testid="order-row" data-order={row.number}>
      <h3 className="order-card__title">Order #{row.number}</h3>
      <p className="order-card__meta">
        <span data-testid="order-row-date">{row.date}</span>
        {' · '}
        <strong data-testid="order-row-status">{row.status}</strong>
      </p>
      <OrderLines lines={row.lines} testId="order-row-line" />
      <OrderTotal total={row.total} testId="order-row-total" />
      <p className="order-card__links">
        <a href={row.order.href}>{row.order.label}</a>
        {row.tracking.map((t) => (
          <a key={t.label} href={t.href} data-testid="order-row-tracking">
            {t.label}
          </a>
        ))}
        {row.invoice ? (
          <a href={row.invoice.href} data-testid="order-row-invoice">
            {row.invoice.label}
          </a>
        ) : null}
      </p>
    </li>
  )
}

export function Orders() {
  const orders = useOrderHistory()
  if (orders === null) return <p role="status">Loading…</p>
  if (orders === 'error') return <p>Your orders could not be loaded. Please try again later.</p>
  return (
    <section>
      <h2>My orders</h2>
      {orders.length === 0 ? (
        <p>You have no orders yet.</p>
      ) : (
        <ol className="order-history" data-testid="order-history">
          {orders.map((o) => {
            const row = orderRow(o)
            return <OrderCard key={row.key} row={row} />
          })}
        </ol>
      )}
    </section>
  )
}

/** Cancels the order from the account (the server applies the same rule); the page reloads on success. */
function CancelOrder({ orderNumber }: { orderNumber: string }) {
  const [state, setState] = useState<'idle' | 'asking' | 'busy'>('idle')
  const [message, setMessage] = useState<string | null>(null)
  const cancel = async () => {
    setState('busy')
    const r = await userSend<unknown>(
      `user/orders/${encodeURIComponent(orderNumber)}/cancel`,
      'POST',
      {},
    ).catch(() => ({ code: 0, result: null }))
    if (r.code === 200) return window.location.reload()
    setState('idle')
    setMessage(
      typeof r.result === 'string' && r.code >= 400 && r.code < 500
        ? r.result
        : 'The order could not be canceled just now. Please try again.',
    )
  }
  return (
    <div className="single-order__cancel">
      {state === 'idle' ? (
        <button type="button" className="btn btn--secondary" onClick={() => setState('asking')}>
          Cancel this order
        </button>
      ) : (
        <p>
          Cancel order #{orderNumber}? Nothing has been paid, so nothing is owed.{' '}
          <button
            type="button"
            className="btn"
            disabled={state === 'busy'}
            onClick={() => void cancel()}
            data-testid="confirm-cancel"
          >
            Yes, cancel it
          </button>{' '}
          <button type="button" className="btn btn--secondary" onClick={() => setState('idle')}>
            Keep it
          </button>
        </p>
      )}
      {message ? <p role="alert">{message}</p> : null}
    </div>
  )
}

/** The largest history page the single-order page looks in (the API's own bound). */
const SINGLE_ORDER_LOOKUP = 100

/**
 * One order of the account, read from the shopper's own history (so another shopper's order id
 * finds nothing) and shown as the history shows it, with the time placed, the payment, tracking,
 * tax documents, the way to returns and, while allowed, Cancel.
 */
export function SingleOrder({ orderId }: { orderId: string }) {
  const orders = useOrderHistory(SINGLE_ORDER_LOOKUP)
  if (orders === null) return <p role="status">Loading…</p>
  if (orders === 'error') return <p>Your orders could not be loaded. Please try again later.</p>
  const order = orders.find((o) => orderKey(o) === orderId || o.increment_id === orderId)
  if (!order) return <p data-testid="single-order-missing">This order could not be found.</p>
  const view = orderDetail(order)
  return (
    <section className="single-order" data-testid="single-order" data-order={view.number}>
      <h2>Order #{view.number}</h2>
      <p className="order-card__meta">
        Placed <span data-testid="single-order-date">{view.placed}</span>
        {' · '}
        <strong data-testid="single-order-status">{view.status}</strong>
      </p>
      {offersPayNow(order) && order.increment_id ? (
        <PayNowButton
          access={{ orderNumber: order.increment_id }}
          onSettled={() => window.location.reload()}
        />
      ) : null}
      <OrderLines lines={view.lines} testId="single-order-line" />
      <OrderTotal total={view.total} testId="single-order-total" />
      {view.payment ? <p>Payment: {view.payment}</p> : null}
      {view.tracking.length ? (
        <ul className="single-order__tracking">
          {view.tracking.map((t) => (
            <li key={t.label}>
              <a href={t.href} data-testid="single-order-tracking">
                {t.label}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      <p className="order-card__links">
        <a href={view.order.href}>
          {view.order.label === 'Pay now' ? 'Pay now' : 'Order page with parcel timeline'}
        </a>
        {view.returns ? (
          <a href={view.returns.href} data-testid="single-order-returns">
            {view.returns.label}
          </a>
        ) : null}
      </p>
      {view.cancel ? <CancelOrder orderNumber={view.cancel} /> : null}
      {order.increment_id ? <CustomerTaxDocuments orderNumber={order.increment_id} /> : null}
    </section>
  )
}
