/**
 * An order of the account's history as its row reads: the date in India, the status in the shop's
 * words, each line with its options, quantity and price in the order's currency, the total, and
 * where to go next — the order page, each parcel's tracking (courier and AWB), the tax invoice once
 * issued. Every link is to the order page, which opens the order with the shopper's own sign-in (no
 * key in any URL); the invoice link is the one the order mails use (`#doc=invoice` starts its
 * download there).
 *
 * The account's single-order page (/my-account/orders/<id>) reads the same row and adds what only
 * it shows: the time placed, how it was paid, the way to return or exchange pieces of a delivered
 * order (the order page's returns form, which applies the return window) and whether the shopper
 * may cancel it here (SHOPPER_CANCELABLE_STATUSES, the rule the server's cancel applies too).
 */
import { orderPaymentName, orderStatusName } from '@shared/components/order/order-text'
import { SHOPPER_CANCELABLE_STATUSES } from '@shared/config/order-status'
import { offersPayNow } from '../checkout/order-status'
import { formatPageAmount } from '../page-price'
import { formatServerDate, type HistoryOrder, orderKey } from './account-model'

interface OrderRowLine {
  key: string
  name: string
  /** What the shopper chose ("Size: M, Colour: Indigo"), '' for none. */
  options: string
  qty: number
  /** The line's price in the order's currency, '' when the order does not say. */
  price: string
  image: string | null
}

export interface OrderRowView {
  key: string
  number: string
  date: string
  status: string
  lines: OrderRowLine[]
  /** The order's total in its currency, '' when the order does not say. */
  total: string
  order: { href: string; label: 'Pay now' | 'View order' }
  tracking: { href: string; label: string }[]
  invoice: { href: string; label: string } | null
}

/** The order page of an order: /order/<number>, else the account's own view by its key. */
function orderPage(o: HistoryOrder): string {
  return o.increment_id
    ? `/order/${encodeURIComponent(o.increment_id)}`
    : `/my-account/orders/${encodeURIComponent(orderKey(o))}`
}

const money = (amount: number | null | undefined, currency: string | undefined) =>
  typeof amount === 'number' && Number.isFinite(amount) ? formatPageAmount(amount, currency) : ''

export function orderRow(o: HistoryOrder): OrderRowView {
  const page = orderPage(o)
  return {
    key: orderKey(o),
    number: o.increment_id ?? orderKey(o),
    date: formatServerDate(o.created_at, 'date'),
    status: orderStatusName(o.status),
    lines: (o.items ?? []).map((i, n) => ({
      key: `${i.sku}:${n}`,
      name: i.name,
      options: (i.options ?? []).map((opt) => `${opt.label}: ${opt.value}`).join(', '),
      qty: i.qty_ordered ?? 1,
      price: money(i.row_total_incl_tax ?? i.row_total, o.order_currency_code),
      image: i.image ?? null,
    })),
    total: money(o.grand_total, o.order_currency_code),
    order: { href: page, label: offersPayNow(o) ? 'Pay now' : 'View order' },
    tracking: (o.shipments ?? [])
      .filter((s) => s.trackingNumber)
      .map((s) => ({
        href: page,
        label: `Track with ${s.carrier || 'the courier'}: AWB ${s.trackingNumber}`,
      })),
    invoice:
      o.invoice_number && o.increment_id
        ? { href: `${page}#doc=invoice`, label: `Tax invoice ${o.invoice_number}` }
        : null,
  }
}

interface OrderDetailView extends OrderRowView {
  /** Date and time placed, in India. */
  placed: string
  /** How it was paid, in words ('' when the order does not say). */
  payment: string
  returns: { href: string; label: string } | null
  /** The order number the cancel asks for, when the shopper may cancel it from the account. */
  cancel: string | null
}

export function orderDetail(o: HistoryOrder): OrderDetailView {
  const row = orderRow(o)
  return {
    ...row,
    placed: formatServerDate(o.created_at, 'time'),
    payment: o.payment?.method || o.payment?.paid_with ? orderPaymentName(o.payment) : '',
    returns:
      o.status === 'delivered' && o.increment_id
        ? { href: orderPage(o), label: 'Return or exchange pieces' }
        : null,
    cancel:
      o.increment_id && (SHOPPER_CANCELABLE_STATUSES as readonly string[]).includes(o.status ?? '')
        ? o.increment_id
        : null,
  }
}
