/**
 * The prepaid switch on the order page of a cash-on-delivery order not yet handed to the courier
 * (to confirm, or confirmed and not yet made ready to ship; the server says which in `prepaidSwitch`):
 * "Pay now by UPI or card instead" asks the server for the order's payment link (POST
 * /api/payment/link) and opens it. The link is followed only when its amount is the total this page
 * shows (shown = asked of the provider = order total); the provider sends the shopper back to this
 * page, which shows the order paid once the server has settled it. Every refusal is shown in the
 * server's words. With a prepaid discount the page says what paying now saves: the order's total
 * less the amount the link asks.
 */
import { useState } from 'react'
import { formatPageAmount } from '../page-price'
import { type OrderAccess, orderCall } from './payment'

interface OfferedLink {
  url: string
  amountMinor: number
  currency: string
}

export function PayByLink({
  access,
  totalMinor,
  orderTotalMinor,
  currency,
}: {
  access: OrderAccess
  /** What paying by link asks (the order total less any prepaid discount), in minor units of `currency`. */
  totalMinor: number
  /** The order's total, as cash on delivery would collect it. */
  orderTotalMinor: number
  currency: string
}) {
  const [busy, setBusy] = useState(false)
  const [note, setNote] = useState<string | null>(null)
  const total = formatPageAmount(totalMinor / 100, currency)
  const savingMinor = orderTotalMinor - totalMinor
  const open = async () => {
    setBusy(true)
    setNote(null)
    try {
      const res = await orderCall<OfferedLink | string>('payment/link', access)
      if (res.code !== 200 || typeof res.result !== 'object') {
        setNote(String(res.result))
      } else if (res.result.amountMinor !== totalMinor || res.result.currency !== currency) {
        setNote(
          'The payment link does not match your order total. Nothing was charged; please pay on delivery.',
        )
      } else {
        window.location.assign(res.result.url)
        return
      }
    } catch {
      setNote('The payment link could not be opened. Please check your connection and try again.')
    }
    setBusy(false)
  }
  return (
    <section className="pay-by-link" data-testid="pay-by-link">
      <p>
        Rather pay now? Pay {total} by UPI or card on Razorpay's secure page and nothing is collected on
        delivery.
      </p>
      {savingMinor > 0 ? (
        <p data-testid="pay-by-link-saving">You save {formatPageAmount(savingMinor / 100, currency)}.</p>
      ) : null}
      <button type="button" className="btn btn--primary" disabled={busy} onClick={open}>
        {busy ? 'Opening payment…' : 'Pay now by UPI or card instead'}
      </button>
      {note ? (
        <p role="status" data-testid="pay-by-link-note">
          {note}
        </p>
      ) : null}
    </section>
  )
}
