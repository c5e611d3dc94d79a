/**
 * The shipping step's delivery line: what shipping costs (the server's totals for this
 * destination, priced by the operator's rules; nothing is guessed here) and when the parcel should
 * arrive: within India the courier's estimate for the PIN code (carried by the COD answer: its
 * serviceability cached per PIN, the PIN table when the courier cannot be asked), abroad the shop's
 * estimate (destinationNotes).
 */
import { formatMinor } from '@shared/domain/currency'
import { cartTotals } from '../../state/cart'
import { useSignalValue } from '../../state/use-signal'
import { pageCurrency } from '../page-currency'

interface TotalsFacts {
  country?: string
  currency?: string
  shipping_minor?: number
  shipping_title?: string
}

/** What an unanswered line shows: a no-break space, one line high. */
export const HOLD_LINE = '\u00a0'

/** Shipping's cost and the delivery estimate for the address the form holds. */
export function DeliveryQuote({ country, estimate }: { country: string; estimate: string | null }) {
  const totals = useSignalValue(cartTotals)
  const facts = totals?.extension_attributes as TotalsFacts | undefined
  // Only totals priced for this country, in the currency on the page, say what shipping costs here.
  const priced =
    facts?.country === country.trim().toUpperCase() &&
    facts.currency === pageCurrency() &&
    typeof facts.shipping_minor === 'number'
      ? facts
      : null
  // Both lines hold their place from the first render (a no-break space until their answers
  // arrive): the answers come while the shopper is already reaching for "Continue to payment"
  // below them, and a line appearing then moved the button from under the pointer (a click that
  // missed).
  return (
    <div className="checkout__delivery" data-testid="delivery-quote">
      <p data-testid="shipping-rate">
        {priced
          ? priced.shipping_minor
            ? `${priced.shipping_title}: ${formatMinor(priced.shipping_minor, pageCurrency())}`
            : priced.shipping_title
          : HOLD_LINE}
      </p>
      <p role="status" data-testid="delivery-estimate">
        {estimate ?? HOLD_LINE}
      </p>
    </div>
  )
}
