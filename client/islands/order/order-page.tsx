/**
 * /order/<number>: one order as its shopper sees it — status, items, total, payment state — with
 * the pay-now button while it can be paid. It opens with the link from the order's e-mail or
 * confirmation (the signed token sits in the URL fragment, `#k=…`, which never reaches a server;
 * this script sends it in the x-order-link header and removes it from the address bar), with the
 * guest access key kept on this device, or with the signed-in customer's token.
 */
import { OptionList } from '@shared/components/checkout/option-list'
import type { MoneyRow } from '@shared/components/order/money-rows'
import { MoneyRows } from '@shared/components/order/money-rows-view'
import { orderDateTime, orderDeliveryEstimate, paymentMethodName } from '@shared/components/order/order-text'
import { ShipTo } from '@shared/components/order/ship-to'
import { useCallback, useEffect, useState } from 'react'
import { startClientRuntimeSoon } from '../../engines/runtime/runtime'
import { storedOrders } from '../../state/orders'
import { sessionStarted } from '../../state/user'
import { defineIsland } from '../define'
import { formatPageAmount } from '../page-price'
import { object, schemaOf, str } from '../props-check'
import { OrderFulfilment } from './fulfilment'
import { OrderLineImage } from './order-line-image'
import { PayByLink } from './pay-by-link'
import { PayNowButton } from './pay-now'
import { accessFromReturn, finishPayPalReturn, type OrderAccess, orderCall } from './payment'
import { type OrderDocumentView, TaxDocuments } from './tax-documents'

interface OrderPageView {
  orderNumber: string
  status: string
  statusLabel: string
  paymentState: string
  payable: boolean
  /** The server's word that this COD order may still be paid online instead (not yet handed to the courier). */
  prepaidSwitch?: boolean
  /** What paying by link asks: the total less any prepaid discount (the server's figure). */
  prepaidAmountMinor?: number | null
  currency: string
  grandTotalMinor: number | null
  /** The order's money row by row (items, discount, shipping, store credit, to pay). */
  moneyRows?: MoneyRow[]
  paidMinor: number
  refundedMinor: number
  items: {
    name: string
    sku: string
    qty: number
    options: { label: string; value: string }[]
    /** The picture the line was bought with (null: none). */
    image?: string | null
    /** 'Made to order — ships by …' for a piece made to order (its date fixed at placement). */
    madeToOrder?: string | null
  }[]
  shipments: { carrier: string; trackingNumber: string; shippedAt: string }[]
  createdAt?: string | null
  paymentMethod?: string | null
  /** How it was paid in words (what the provider reported once paid). */
  paymentName?: string | null
  shippingAddress?: Record<string, unknown> | null
  documents?: OrderDocumentView[]
}

const PAYMENT_LABELS: Record<string, string> = {
  none: 'Nothing to pay online',
  awaiting: 'Awaiting payment',
  paid: 'Paid',
  failed: 'Payment failed',
  partially_refunded: 'Partly refunded',
  refunded: 'Refunded',
}

const LINK_KEY = (n: string) => `order-link:${n}`
/** How long the page waits for this device's session before it asks without a sign-in. */
const SESSION_WAIT_MS = 3000

/**
 * Resolves once this device's session is known (signed in or not), so a signed-in customer's
 * first request for their order already carries their token; never waits longer than SESSION_WAIT_MS.
 */
function sessionKnown(): Promise<void> {
  void startClientRuntimeSoon()
  return new Promise((resolve) => {
    if (sessionStarted.peek()) return resolve()
    const timer = setTimeout(done, SESSION_WAIT_MS)
    const stop = sessionStarted.subscribe((started) => {
      if (started) done()
    })
    function done() {
      clearTimeout(timer)
      stop()
      resolve()
    }
  })
}

function money(minor: number | null, currency: string) {
  return minor === null ? '' : formatPageAmount(minor / 100, currency)
}

/** How this browser can open the order: the fragment's link token, a PayPal return, a stored key. */
function accessFor(orderNumber: string): OrderAccess & { wantsInvoice: boolean } {
  const hash = new URLSearchParams(window.location.hash.replace(/^#/, ''))
  // The order mail's invoice link asks for the invoice too (`#k=…&doc=invoice`).
  const wantsInvoice = hash.get('doc') === 'invoice'
  let linkToken = hash.get('k') ?? undefined
  if (linkToken) {
    sessionStorage.setItem(LINK_KEY(orderNumber), linkToken)
    history.replaceState(null, '', window.location.pathname + window.location.search)
  } else {
    linkToken = sessionStorage.getItem(LINK_KEY(orderNumber)) ?? undefined
  }
  const local = storedOrders.peek().find((o) => o.confirmation?.orderNumber === orderNumber)
  const accessKey =
    typeof local?.confirmation?.accessKey === 'string' ? local.confirmation.accessKey : undefined
  const returned = accessFromReturn(orderNumber)
  return {
    orderNumber,
    linkToken: linkToken ?? returned?.linkToken,
    accessKey: accessKey ?? returned?.accessKey,
    wantsInvoice,
  }
}

function OrderPage({ orderNumber }: { orderNumber: string }) {
  const [access, setAccess] = useState<(OrderAccess & { wantsInvoice: boolean }) | null>(null)
  const [view, setView] = useState<OrderPageView | null>(null)
  const [message, setMessage] = useState<string | null>(null)

  const load = useCallback(async (a: OrderAccess) => {
    const res = await orderCall<OrderPageView | string>('payment/order', a)
    if (res.code === 200 && typeof res.result === 'object') setView(res.result)
    else setMessage(String(res.result))
  }, [])

  useEffect(() => {
    const a = accessFor(orderNumber)
    setAccess(a)
    const params = new URLSearchParams(window.location.search)
    const paypal = params.get('paypal')
    if (paypal) history.replaceState(null, '', window.location.pathname)
    void (async () => {
      await sessionKnown()
      if (paypal === 'return') {
        setMessage('Confirming your PayPal payment…')
        const r = await finishPayPalReturn(a)
        setMessage(r.kind === 'paid' ? null : 'message' in r ? r.message : null)
      } else if (paypal === 'cancel') {
        setMessage('The PayPal payment was not completed. You can pay whenever you are ready.')
      }
      await load(a)
    })()
  }, [orderNumber, load])

  if (!view) {
    return (
      <p role="status" data-testid="order-page-loading">
        {message ?? 'Loading your order…'}
      </p>
    )
  }
  return (
    <div className="order-page" data-testid="order-page" data-status={view.status}>
      <p className="order-page__status" data-testid="order-status">
        {view.statusLabel}
      </p>
      <p>
        Order number: <strong data-testid="order-number">{view.orderNumber}</strong>
      </p>
      <p data-testid="payment-state" data-state={view.paymentState}>
        Payment: {PAYMENT_LABELS[view.paymentState] ?? view.paymentState}
        {view.paymentName || view.paymentMethod
          ? ` (${view.paymentName || paymentMethodName(view.paymentMethod)})`
          : null}
      </p>
      <dl className="order-facts" data-testid="order-facts">
        {view.createdAt ? (
          <div>
            <dt>Placed</dt>
            <dd data-testid="order-placed">{orderDateTime(view.createdAt)}</dd>
          </div>
        ) : null}
        {view.shippingAddress &&
        orderDeliveryEstimate(view.createdAt, view.status, String(view.shippingAddress.country_id ?? '')) ? (
          <div>
            <dt>Estimated delivery</dt>
            <dd data-testid="order-delivery">
              {orderDeliveryEstimate(
                view.createdAt,
                view.status,
                String(view.shippingAddress.country_id ?? ''),
              )}
            </dd>
          </div>
        ) : null}
        {view.shippingAddress ? <ShipTo address={view.shippingAddress} /> : null}
      </dl>
      <ul className="order-page__items">
        {view.items.map((it) => (
          <li key={it.sku} data-testid="order-line" data-sku={it.sku}>
            <OrderLineImage path={it.image} />
            {it.name} × {it.qty}
            <OptionList options={it.options} />
            {it.madeToOrder ? <p data-testid="order-line-made-to-order">{it.madeToOrder}</p> : null}
          </li>
        ))}
      </ul>
      {view.shipments.map((s) => (
        <p key={`${s.shippedAt}:${s.trackingNumber}`} data-testid="order-shipment">
          Shipped with {s.carrier} on {orderDateTime(s.shippedAt)}, tracking number{' '}
          <strong>{s.trackingNumber}</strong>
        </p>
      ))}
      {access ? <OrderFulfilment access={access} currency={view.currency} /> : null}
      {view.moneyRows?.length ? (
        <MoneyRows rows={view.moneyRows} format={(minor) => money(minor, view.currency)} />
      ) : (
        <p>Total: {money(view.grandTotalMinor, view.currency)}</p>
      )}
      {view.refundedMinor > 0 ? <p>Refunded: {money(view.refundedMinor, view.currency)}</p> : null}
      {access && view.documents?.length ? (
        <TaxDocuments access={access} documents={view.documents} autoInvoice={access.wantsInvoice} />
      ) : null}
      {message ? <p role="status">{message}</p> : null}
      {view.payable && access ? <PayNowButton access={access} onSettled={() => void load(access)} /> : null}
      {access && view.prepaidSwitch ? (
        <PayByLink
          access={access}
          totalMinor={view.prepaidAmountMinor ?? view.grandTotalMinor ?? 0}
          orderTotalMinor={view.grandTotalMinor ?? 0}
          currency={view.currency}
        />
      ) : null}
    </div>
  )
}

const OrderPagePropsSchema = schemaOf<{ orderNumber: string }>(object({ orderNumber: str }))

export const OrderPageIsland = defineIsland('order-page', OrderPage, OrderPagePropsSchema)
