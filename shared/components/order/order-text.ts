/**
 * How an order reads to its shopper on the confirmation, the order page and the account's order
 * history: payment methods by their names (never a code such as `cashondelivery`), statuses in
 * words, dates that cannot be misread ("24 November 2026", times in India Standard Time), and the
 * delivery estimate counted from the order's date.
 */
import { countryName, ORDER_DELIVERY_DAYS, PAYMENT_METHODS } from '../../config/checkout'
import { ORDER_STATUS_LABELS, type OrderStatus } from '../../config/order-status'
import { parseCatalogDate } from '../../domain/price-window'

/** Names of the payment methods an order can record beyond the checkout's own list. */
const OTHER_PAYMENT_NAMES: Record<string, string> = {
  razorpay: 'Razorpay (card, UPI, netbanking or wallet)',
  upi: 'UPI',
  netbanking: 'Netbanking',
  wallet: 'Wallet',
  giftcard: 'Gift card',
  storecredit: 'Store credit',
  free: 'No payment needed',
  checkmo: 'Check / money order',
}

/** The name a shopper knows a payment method by. */
export function paymentMethodName(code: string | null | undefined): string {
  const c = (code ?? '').trim()
  if (!c) return ''
  const known = PAYMENT_METHODS.find((m) => m.code === c)?.title ?? OTHER_PAYMENT_NAMES[c.toLowerCase()]
  if (known) return known
  // An unknown code still reads as words: 'bank_transfer' → 'Bank transfer'.
  const words = c.replace(/[_-]+/g, ' ').trim()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** How a provider says a payment was made (Razorpay's payment `method`), as shoppers say it. */
const PAID_WITH_NAMES: Record<string, string> = {
  upi: 'UPI',
  card: 'Card',
  netbanking: 'Netbanking',
  wallet: 'Wallet',
  emi: 'EMI',
  cardless_emi: 'Cardless EMI',
  paylater: 'Pay later',
  paypal: 'PayPal',
}

/**
 * The name of how an order was paid: what the provider reported (UPI, Card, Netbanking…) once it
 * was paid, else the method chosen at checkout.
 */
export function orderPaymentName(
  payment: { method?: string | null; paid_with?: string | null } | null | undefined,
) {
  const paid = (payment?.paid_with ?? '').trim().toLowerCase()
  if (paid) return PAID_WITH_NAMES[paid] ?? paymentMethodName(paid)
  return paymentMethodName(payment?.method)
}

/** A status in words (the lifecycle's labels; unknown statuses as words). */
export function orderStatusName(status: string | null | undefined): string {
  const s = (status ?? '').trim()
  if (!s) return ''
  const label = ORDER_STATUS_LABELS[s as OrderStatus]
  if (label) return label
  const words = s.replace(/[_-]+/g, ' ')
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** The shop's time zone: India Standard Time (dates and times of orders are read there). */
const SHOP_TIME_ZONE = 'Asia/Kolkata'
const DATE_FORMAT = new Intl.DateTimeFormat('en-GB', {
  timeZone: SHOP_TIME_ZONE,
  day: 'numeric',
  month: 'long',
  year: 'numeric',
})
const TIME_FORMAT = new Intl.DateTimeFormat('en-US', {
  timeZone: SHOP_TIME_ZONE,
  hour: 'numeric',
  minute: '2-digit',
})

/** Milliseconds of a server timestamp ('YYYY-MM-DD HH:MM:SS' in UTC, or ISO), or null. */
function instant(value: string | number | null | undefined): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  return parseCatalogDate(value)
}

/** '24 November 2026' (in India), or '' for no date. */
export function orderDate(value: string | number | null | undefined): string {
  const ms = instant(value)
  return ms === null ? '' : DATE_FORMAT.format(ms)
}

/** '24 November 2026, 3:45 PM IST', or '' for no date. */
export function orderDateTime(value: string | number | null | undefined): string {
  const ms = instant(value)
  return ms === null ? '' : `${DATE_FORMAT.format(ms)}, ${TIME_FORMAT.format(ms)} IST`
}

/** Statuses after which no delivery is on its way. */
const NOT_DELIVERING = new Set(['delivered', 'canceled', 'cancelled', 'expired', 'closed', 'payment_failed'])

/**
 * The estimated delivery date of an order placed at `placed` to `country`: the order's date plus
 * the shop's delivery days (India, or abroad), as a date; '' once nothing is on its way.
 */
export function orderDeliveryEstimate(
  placed: string | number | null | undefined,
  status: string | null | undefined,
  country: string | null | undefined,
): string {
  const ms = instant(placed)
  if (ms === null || NOT_DELIVERING.has((status ?? '').trim())) return ''
  const days =
    (country ?? 'IN').toUpperCase() === 'IN' ? ORDER_DELIVERY_DAYS.india : ORDER_DELIVERY_DAYS.abroad
  return orderDate(ms + days * 24 * 3600 * 1000)
}

/** One line of an address (name, street, city, state, PIN/postcode, country), from the API's shape. */
export function addressLines(a: Record<string, unknown> | null | undefined): string[] {
  if (!a) return []
  const str = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '')
  const street = Array.isArray(a.street) ? a.street.map(str).filter(Boolean).join(', ') : str(a.street)
  const region =
    str(a.region) ||
    (a.region && typeof a.region === 'object' ? str((a.region as Record<string, unknown>).region) : '')
  const place = [str(a.city), region, str(a.postcode)].filter(Boolean).join(', ')
  return [
    [str(a.firstname), str(a.lastname)].filter(Boolean).join(' '),
    street,
    place,
    countryName(str(a.country_id)),
    str(a.telephone),
  ].filter(Boolean)
}
