/**
 * /confirmation?orderId=<client order id> (title 'Order Confirmation'): fetches the order
 * (POST /api/order/get, the guest access key from this device's order storage in the body) and
 * shows loading, success with the order, or error. The page URL holds only the client's order id,
 * which unlocks nothing: the access key never appears in a URL, so neither location.href (read by
 * analytics) nor a Referer header can carry it. An order still queued on this device is shown as
 * pending; a `pending_payment` order says the payment is pending — never that a card was charged.
 */

import { OptionList } from '@shared/components/checkout/option-list'
import { documentMoneyRows, type MoneyRow } from '@shared/components/order/money-rows'
import { MoneyRows } from '@shared/components/order/money-rows-view'
import { orderDateTime, orderDeliveryEstimate, orderPaymentName } from '@shared/components/order/order-text'
import { ShipTo } from '@shared/components/order/ship-to'
import { BackToShop } from '@shared/components/page-message'
import { MSG } from '@shared/i18n/messages'
import { useEffect, useRef, useState } from 'react'
import { startClientRuntimeSoon } from '../../engines/runtime/runtime'
import { notify } from '../../state/notifications'
import { storedOrders } from '../../state/orders'
import { useSignalValue } from '../../state/use-signal'
import { defineIsland } from '../define'
import { OrderLineImage } from '../order/order-line-image'
import { PayNowButton } from '../order/pay-now'
import { formatPageAmount } from '../page-price'
import { PAY_NOTE_KEY } from './checkout-details'
import { fetchOrder } from './fetch-order'
import { offersPayNow, orderStatusText } from './order-status'
import { PendingOrderNotice } from './pending-order'

interface OrderView {
  order_id?: string
  increment_id?: string
  orderNumber?: string
  status?: string
  state?: string
  grand_total?: number
  subtotal_incl_tax?: number
  discount_amount?: number
  coupon_code?: string
  shipping_incl_tax?: number
  /** Store credit spent on the order. */
  customer_balance_amount?: number
  created_at?: string
  payment?: { method?: string; paid_with?: string }
  paymentPending?: boolean
  items?: {
    sku: string
    name: string
    qty_ordered?: number
    qty?: number
    row_total_incl_tax?: number
    row_total?: number
    price_incl_tax?: number
    /** What the shopper configured (variant, custom options, bundle and grouped pieces). */
    options?: { label: string; value: string }[]
    /** The picture the line was bought with (null: none). */
    image?: string | null
  }[]
  /** The currency every amount of the order is in (what it is charged in). */
  order_currency_code?: string
  [key: string]: unknown
}

/** The order's money rows; the last (the total, or what is left to pay after store credit) stands out. */
function ConfirmationMoney({ order }: { order: OrderView }) {
  const rows = documentMoneyRows(order)
  const last = rows[rows.length - 1] as MoneyRow
  const format = (minor: number) => formatPageAmount(minor / 100, order.order_currency_code)
  return (
    <>
      <MoneyRows rows={rows.slice(0, -1)} format={format} />
      <p data-testid="confirmation-total">
        {last.title}: {format(last.minor)}
      </p>
    </>
  )
}

/** The pay button names what is left to pay (the last of the order's money rows). */
function payLabel(order: OrderView): string | undefined {
  const due = documentMoneyRows(order).at(-1)
  return due ? `Pay ${formatPageAmount(due.minor / 100, order.order_currency_code)}` : undefined
}

type View =
  | { kind: 'loading' }
  | { kind: 'pending'; orderId: string }
  | { kind: 'success'; order: OrderView }
  | { kind: 'error'; message: string }

/** What the payment window reported for this order on the checkout, read once (this tab only). */
function takePayNote(orderId: string): string | null {
  try {
    const saved = JSON.parse(sessionStorage.getItem(PAY_NOTE_KEY) ?? 'null') as {
      orderId?: string
      note?: string
    } | null
    if (saved?.orderId !== orderId || typeof saved.note !== 'string') return null
    sessionStorage.removeItem(PAY_NOTE_KEY)
    return saved.note
  } catch {
    return null
  }
}

function Confirmation() {
  const [view, setView] = useState<View>({ kind: 'loading' })
  const [payNote, setPayNote] = useState<string | null>(null)
  // The page's state is announced by moving focus to its status line once it is known.
  const status = useRef<HTMLParagraphElement>(null)
  const orders = useSignalValue(storedOrders)
  const [loaded, setLoaded] = useState(false)
  const orderId =
    typeof window === 'undefined' ? '' : (new URLSearchParams(window.location.search).get('orderId') ?? '')
  const local = orders.find((o) => o.order_id === orderId)
  const localPending = Boolean(local && !local.transmited)

  // biome-ignore lint/correctness/useExhaustiveDependencies: once per page: the URL's order id does not change
  useEffect(() => {
    if (orderId) setPayNote(takePayNote(orderId))
    // The orders stored on this device fill `storedOrders`.
    void startClientRuntimeSoon()
      .then((rt) => rt.orders.list())
      .finally(() => setLoaded(true))
  }, [])

  // biome-ignore lint/correctness/useExhaustiveDependencies: re-fetch only when the order id or its pending state changes
  useEffect(() => {
    if (!loaded) return
    if (!orderId) {
      const pending = orders.find((o) => !o.transmited)
      setView(
        pending
          ? { kind: 'pending', orderId: pending.order_id }
          : { kind: 'error', message: 'No order to show.' },
      )
      return
    }
    if (localPending) {
      setView({ kind: 'pending', orderId })
      return
    }
    let cancelled = false
    fetchOrder(orderId, local)
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
        if (!cancelled) setView({ kind: 'error', message: err.message })
      })
    return () => {
      cancelled = true
    }
  }, [loaded, orderId, localPending])

  // Focus once per shown state.
  useEffect(() => {
    if (view.kind === 'success') status.current?.focus()
  }, [view.kind])

  if (view.kind === 'loading')
    return (
      <p role="status" data-testid="confirmation-loading">
        Loading your order…
      </p>
    )
  if (view.kind === 'pending') return <PendingOrderNotice orderId={view.orderId} />
  if (view.kind === 'error') {
    return (
      <BackToShop
        className="confirmation confirmation--error"
        testId="confirmation-error"
        message={view.message}
      />
    )
  }
  const { order } = view
  const number = order.increment_id ?? order.orderNumber ?? order.order_id
  const accessKey =
    typeof local?.confirmation?.accessKey === 'string' ? local.confirmation.accessKey : undefined
  const linkToken =
    typeof local?.confirmation?.orderLinkToken === 'string' ? local.confirmation.orderLinkToken : undefined
  const shipping = (
    order.extension_attributes as
      | { shipping_assignments?: { shipping?: { address?: Record<string, unknown> | null } }[] }
      | undefined
  )?.shipping_assignments?.[0]?.shipping?.address
  const placed = orderDateTime(order.created_at)
  const delivery = orderDeliveryEstimate(
    order.created_at,
    order.status ?? order.state,
    typeof shipping?.country_id === 'string' ? shipping.country_id : null,
  )
  const reload = () =>
    fetchOrder(orderId, local).then((res) => {
      if (res.code === 200 && res.result && typeof res.result === 'object') {
        setView({ kind: 'success', order: res.result as OrderView })
      }
    })
  return (
    <div className="confirmation" data-testid="confirmation-success">
      <h2
        className="confirmation__status"
        data-status={order.status ?? order.state}
        data-testid="confirmation-status"
        tabIndex={-1}
        ref={status}
      >
        {orderStatusText(order)}
      </h2>
      {payNote && offersPayNow(order) ? (
        <p role="alert" className="field__error" data-testid="pay-window-note">
          {payNote}
        </p>
      ) : null}
      {order.customer_email && order.status !== 'pending_payment' && order.status !== 'payment_failed' ? (
        <p data-testid="confirmation-mailed">
          We have e-mailed the details to {String(order.customer_email)}.
        </p>
      ) : null}
      <p>
        Order number: <strong data-testid="order-number">{number}</strong>
      </p>
      <dl className="order-facts" data-testid="order-facts">
        {placed ? (
          <div>
            <dt>Placed</dt>
            <dd data-testid="order-placed">{placed}</dd>
          </div>
        ) : null}
        {order.payment?.method ? (
          <div>
            <dt>Payment</dt>
            <dd data-testid="order-payment-method">{orderPaymentName(order.payment)}</dd>
          </div>
        ) : null}
        {delivery && shipping ? (
          <div>
            <dt>Estimated delivery</dt>
            <dd data-testid="order-delivery">{delivery}</dd>
          </div>
        ) : null}
        {shipping ? <ShipTo address={shipping} /> : null}
      </dl>
      {order.items?.length ? (
        <ul className="confirmation__items">
          {order.items.map((i) => (
            <li key={i.sku} data-testid="confirmation-line" data-sku={i.sku}>
              <OrderLineImage path={i.image} />
              {i.name} × {i.qty_ordered ?? i.qty}
              {typeof i.row_total_incl_tax === 'number' ? (
                <>
                  {' '}
                  <span className="price">
                    {formatPageAmount(i.row_total_incl_tax, order.order_currency_code)}
                  </span>
                </>
              ) : null}
              <OptionList options={i.options} />
            </li>
          ))}
        </ul>
      ) : null}
      {typeof order.grand_total === 'number' ? <ConfirmationMoney order={order} /> : null}
      {typeof number === 'string' && offersPayNow(order) ? (
        <PayNowButton
          access={{ orderNumber: number, accessKey, linkToken }}
          label={payLabel(order)}
          onSettled={() => {
            setPayNote(null)
            void reload()
          }}
        />
      ) : null}
      {typeof number === 'string' && linkToken ? (
        <p>
          <a href={`/order/${encodeURIComponent(number)}#k=${linkToken}`} data-testid="order-page-link">
            Your order page
          </a>{' '}
          (bookmark it to come back to this order)
        </p>
      ) : null}
      <a href="/" className="btn">
        Continue shopping
      </a>
    </div>
  )
}

export const ConfirmationIsland = defineIsland('confirmation', Confirmation)
