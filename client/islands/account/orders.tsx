/** The account's order history and a single order of it (by entity id or increment id). */

import { OptionList } from '@shared/components/checkout/option-list'
import { orderPaymentName, orderStatusName } from '@shared/components/order/order-text'
import { offersPayNow } from '../checkout/order-status'
import { OrderLineImage } from '../order/order-line-image'
import { PayNowButton } from '../order/pay-now'
import { CustomerTaxDocuments } from '../order/tax-documents'
import { formatPageAmount } from '../page-price'
import { formatServerDate, orderKey } from './account-model'
import { useOrderHistory } from './order-history'
import { type OrderRowView, orderRow } from './orders-model'

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
      <ul className="order-card__lines">
        {row.lines.map((l) => (
          <li key={l.key} className="order-card__line" data-testid="order-row-line">
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
      {row.total ? (
        <p className="order-card__total">
          Total <strong data-testid="order-row-total">{row.total}</strong>
        </p>
      ) : null}
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

export function SingleOrder({ orderId }: { orderId: string }) {
  const orders = useOrderHistory()
  if (orders === null) return <p role="status">Loading…</p>
  const order =
    orders === 'error' ? undefined : orders.find((o) => orderKey(o) === orderId || o.increment_id === orderId)
  if (!order) return <p>This order could not be found.</p>
  return (
    <section data-testid="single-order">
      <h2>Order #{order.increment_id}</h2>
      <p>
        Status: <strong data-testid="single-order-status">{orderStatusName(order.status)}</strong>
        {order.status === 'pending_payment' ? ' — payment is pending; no payment has been taken yet.' : null}
        {order.status === 'payment_failed' ? ' — the payment did not go through; you can pay again.' : null}
      </p>
      {offersPayNow(order) && order.increment_id ? (
        <PayNowButton
          access={{ orderNumber: order.increment_id }}
          onSettled={() => window.location.reload()}
        />
      ) : null}
      <p>Date: {formatServerDate(order.created_at, 'time')}</p>
      <table className="table table--stack">
        <thead>
          <tr>
            <th scope="col">Product</th>
            <th scope="col">SKU</th>
            <th scope="col">Qty</th>
            <th scope="col">Subtotal</th>
          </tr>
        </thead>
        <tbody>
          {(order.items ?? []).map((i) => (
            <tr key={i.sku}>
              <td>
                <OrderLineImage path={i.image} />
                {i.name}
                <OptionList options={i.options} />
              </td>
              <td data-label="SKU">{i.sku}</td>
              <td data-label="Qty">{i.qty_ordered}</td>
              <td data-label="Subtotal">
                {formatPageAmount(i.row_total_incl_tax ?? i.row_total ?? 0, order.order_currency_code)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>Grand total: {formatPageAmount(order.grand_total ?? 0, order.order_currency_code)}</p>
      {order.payment?.method ? <p>Payment method: {orderPaymentName(order.payment)}</p> : null}
      {order.increment_id ? <CustomerTaxDocuments orderNumber={order.increment_id} /> : null}
    </section>
  )
}
