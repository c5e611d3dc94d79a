/** The account's order history and a single order of it (by entity id or increment id). */

import { OptionList } from '@shared/components/checkout/option-list'
import { orderPaymentName, orderStatusName } from '@shared/components/order/order-text'
import { offersPayNow } from '../checkout/order-status'
import { OrderLineImage } from '../order/order-line-image'
import { PayNowButton } from '../order/pay-now'
import { CustomerTaxDocuments } from '../order/tax-documents'
import { formatPageAmount } from '../page-price'
import { formatServerDate, type HistoryOrder, orderKey } from './account-model'
import { useOrderHistory } from './order-history'

/** How many line pictures an order's row shows; the rest are counted. */
const PICTURES_PER_ROW = 4

/**
 * The pictures of an order's lines (the ones bought with, else none: never a broken image), the
 * first few and how many more; the line names are read out instead of the pictures.
 */
function LinePictures({ order }: { order: HistoryOrder }) {
  const items = order.items ?? []
  const shown = items.filter((i) => i.image).slice(0, PICTURES_PER_ROW)
  const more = items.length - shown.length
  return (
    <span className="order-pictures" data-testid="order-row-pictures">
      {shown.map((i) => (
        <OrderLineImage key={i.sku} path={i.image} />
      ))}
      <span className={shown.length ? 'visually-hidden' : undefined}>
        {items.map((i) => i.name).join(', ')}
      </span>
      {shown.length > 0 && more > 0 ? <span aria-hidden="true"> +{more}</span> : null}
    </span>
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
        <table className="table table--stack" data-testid="order-history">
          <thead>
            <tr>
              <th scope="col">Order #</th>
              <th scope="col">Items</th>
              <th scope="col">Date</th>
              <th scope="col">Total</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {orders.map((o) => (
              <tr key={orderKey(o)} data-testid="order-row">
                <td data-label="Order">{o.increment_id}</td>
                <td data-label="Items">
                  <LinePictures order={o} />
                </td>
                <td data-label="Date">{formatServerDate(o.created_at, 'date')}</td>
                <td data-label="Total">{formatPageAmount(o.grand_total ?? 0, o.order_currency_code)}</td>
                <td data-label="Status">{orderStatusName(o.status)}</td>
                <td>
                  <a href={`/my-account/orders/${encodeURIComponent(orderKey(o))}`}>
                    {offersPayNow(o) ? 'Pay now' : 'View order'}
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
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
