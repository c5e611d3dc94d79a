/** Checkout section 4: what will be ordered, and the place-order button (disabled while an order is processed). */
import { OptionList } from '@shared/components/checkout/option-list'
import { CASH_ON_DELIVERY_CODE, type PaymentMethodConfig } from '@shared/config/checkout'
import { baseCurrency } from '@shared/config/store'
import { lineUnitPrice } from '@shared/domain/cart-line'
import { formatMinor } from '@shared/domain/currency'
import { creditToApplyMinor } from '@shared/domain/money'
import { MSG } from '@shared/i18n/messages'
import type { CartLine, CartTotals } from '../../../state/cart'
import { lineOptions } from '../../cart/cart-line-view'
import { pageCurrency } from '../../page-currency'
import { formatPageAmount, formatPageLine } from '../../page-price'
import type { CheckoutState } from '../checkout-state'

interface ReviewStepProps {
  state: CheckoutState
  offered: readonly PaymentMethodConfig[]
  items: readonly CartLine[]
  /** The server's totals (lines as charged, in the currency charged), when known. */
  totals: CartTotals | null
  /** The signed-in shopper's store credit balance (major units of the base currency); null for a visitor. */
  storeCredit?: number | null
  /** An order is being placed (here or by the order queue). */
  busy: boolean
  onPlace: () => void
}

/** The shipping address on one line (empty parts left out). */
export function shipToLine(d: CheckoutState['shippingDetails']): string {
  return [d.streetAddress, d.apartmentNumber, d.city, d.state, d.zipCode, d.country]
    .filter(Boolean)
    .join(', ')
}

interface ServerItem {
  sku?: string
  qty?: number
  row_total_incl_tax?: number
  extension_attributes?: { options?: { label: string; value: string }[] }
}

/**
 * What placing the order will take: the server's grand total in the currency shown (every method
 * offered charges in it), the store credit it spends (as the order will: the balance, never more
 * than the total, only on an order in the base currency, where credit is kept) and what is left,
 * which the payment provider is asked for ("You will be charged X"). Unsaid until the server has
 * priced the cart in the page's currency.
 */
function chargeOf(totals: CartTotals | null, balance: number) {
  const ext = totals?.extension_attributes as { grand_total_minor?: number; currency?: string } | undefined
  const currency = ext?.currency
  const total = ext?.grand_total_minor
  if (typeof total !== 'number' || !currency || currency !== pageCurrency()) return null
  const base = baseCurrency()
  const credit = currency === base ? creditToApplyMinor(Math.round(balance * 100), total) : 0
  return { currency, credit, due: total - credit, refused: balance > 0 && currency !== base ? base : null }
}

/**
 * What the review's button says it does: an online method names the amount it asks the provider
 * for and how ("Pay ₹5,299 with UPI, cards or netbanking"); cash on delivery and an order store
 * credit covers say that nothing is paid now. Without the server's amount yet, no amount is named.
 */
export function placeButtonLabel(
  method: Pick<PaymentMethodConfig, 'code'> | undefined,
  charge: { due: number; currency: string } | null,
): string {
  if (charge && charge.due <= 0) return 'Place order — paid with store credit'
  if (method?.code === CASH_ON_DELIVERY_CODE) return 'Place order — pay on delivery'
  const how = method && PAY_WITH[method.code]
  if (!how) return 'Place order'
  return `Pay ${charge ? `${formatMinor(charge.due, charge.currency)} ` : ''}with ${how}`
}

/** How each online method's button names the ways it pays (Razorpay's window: UPI, cards, netbanking). */
const PAY_WITH: Record<string, string> = { card: 'UPI, cards or netbanking', paypal_standard: 'PayPal' }

export function ReviewStep({ state, offered, items, totals, storeCredit, busy, onPlace }: ReviewStepProps) {
  const { personalDetails: p } = state
  const currency = typeof totals?.quote_currency_code === 'string' ? totals.quote_currency_code : undefined
  // Server lines priced in another currency (before a currency switch reached it) are not shown.
  const serverItems = (currency === pageCurrency() ? (totals?.items ?? []) : []) as ServerItem[]
  const charge = chargeOf(totals, state.isStoreCreditApplied ? (storeCredit ?? 0) : 0)
  const method = offered.find((m) => m.code === state.paymentFinalStep.paymentMethod)
  return (
    <section aria-labelledby="review-title" className="checkout__section" data-testid="checkout-review">
      <h2 id="review-title" tabIndex={-1}>
        Review order
      </h2>
      <dl className="checkout__review">
        <dt>Contact</dt>
        <dd>
          {p.firstName} {p.lastName}, {p.emailAddress}
        </dd>
        <dt>Ship to</dt>
        <dd>{shipToLine(state.shippingDetails)}</dd>
        <dt>Payment</dt>
        <dd>{method?.title}</dd>
      </dl>
      <ul className="checkout__items">
        {items.map((l) => {
          // What the server charges for the line, else the line's own price; the options as configured.
          const server = serverItems.find((i) => i.sku === l.sku && i.qty === l.qty)
          const options = server?.extension_attributes?.options ?? lineOptions(l)
          const amount =
            typeof server?.row_total_incl_tax === 'number'
              ? formatPageAmount(server.row_total_incl_tax, currency)
              : formatPageLine(lineUnitPrice(l), l.qty)
          return (
            <li key={l.sku} data-testid="review-line" data-sku={l.sku}>
              {l.name} × {l.qty} <span className="price">{amount}</span>
              <OptionList options={options} />
            </li>
          )
        })}
      </ul>
      {charge?.credit ? (
        <p className="checkout__credit" data-testid="review-credit">
          Store credit: −{formatMinor(charge.credit, charge.currency)}
        </p>
      ) : null}
      {charge?.refused ? (
        <p className="field__error" role="alert">
          Store credit pays only orders charged in {charge.refused}.
        </p>
      ) : null}
      {charge ? (
        <p className="checkout__charge" data-testid="charge-sentence">
          {charge.due > 0
            ? `You will be charged ${formatMinor(charge.due, charge.currency)}.`
            : 'Nothing to pay: your store credit covers this order.'}
        </p>
      ) : null}
      <button
        type="button"
        className="btn btn--primary btn--block"
        disabled={busy}
        onClick={onPlace}
        data-testid="place-order"
      >
        {busy ? MSG.processingOrder : placeButtonLabel(method, charge)}
      </button>
      {busy ? (
        <p role="status" className="checkout__processing">
          {MSG.processingOrder}
        </p>
      ) : null}
    </section>
  )
}
