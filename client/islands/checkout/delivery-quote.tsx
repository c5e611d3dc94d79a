/**
 * The shipping step's delivery line: what shipping costs (the server's totals for this
 * destination, priced by the operator's rules; nothing is guessed here) and when the parcel should
 * arrive: within India the courier's estimate for the PIN code (GET /api/checkout/delivery, its
 * serviceability cached per PIN, the PIN table when the courier cannot be asked), abroad the shop's
 * estimate.
 */
import { ORDER_DELIVERY_DAYS, PINCODE_RE } from '@shared/config/checkout'
import { formatMinor } from '@shared/domain/currency'
import { useEffect, useState } from 'react'
import { apiRaw } from '../../api'
import { cartTotals } from '../../state/cart'
import { useSignalValue } from '../../state/use-signal'
import { pageCurrency } from '../page-currency'

interface TotalsFacts {
  country?: string
  currency?: string
  shipping_minor?: number
  shipping_title?: string
}

/** The courier's sentence for an Indian PIN code, or the shop's for abroad; null while unknown. */
function useDeliveryEstimate(country: string, postcode: string): string | null {
  const [text, setText] = useState<string | null>(null)
  const code = country.trim().toUpperCase()
  const pin = postcode.trim()
  useEffect(() => {
    if (code.length !== 2) return setText(null)
    if (code !== 'IN') return setText(`Delivered in about ${ORDER_DELIVERY_DAYS.abroad} days.`)
    if (!PINCODE_RE.test(pin)) return setText(null)
    let live = true
    apiRaw('/api/checkout/delivery', { query: { postcode: pin } })
      .then(({ status, body }) => {
        const result = (body as { result?: { message?: string } }).result
        if (live) setText(status === 200 && typeof result?.message === 'string' ? result.message : null)
      })
      .catch(() => {
        if (live) setText(null)
      })
    return () => {
      live = false
    }
  }, [code, pin])
  return text
}

/** Shipping's cost and the delivery estimate for the address the form holds. */
export function DeliveryQuote({ country, postcode }: { country: string; postcode: string }) {
  const totals = useSignalValue(cartTotals)
  const estimate = useDeliveryEstimate(country, postcode)
  const facts = totals?.extension_attributes as TotalsFacts | undefined
  // Only totals priced for this country, in the currency on the page, say what shipping costs here.
  const priced =
    facts?.country === country.trim().toUpperCase() &&
    facts.currency === pageCurrency() &&
    typeof facts.shipping_minor === 'number'
      ? facts
      : null
  return (
    <div className="checkout__delivery" data-testid="delivery-quote">
      {priced ? (
        <p data-testid="shipping-rate">
          {priced.shipping_minor
            ? `${priced.shipping_title}: ${formatMinor(priced.shipping_minor, pageCurrency())}`
            : priced.shipping_title}
        </p>
      ) : null}
      {estimate ? (
        <p role="status" data-testid="delivery-estimate">
          {estimate}
        </p>
      ) : null}
    </div>
  )
}
