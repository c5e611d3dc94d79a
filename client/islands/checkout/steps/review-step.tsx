/** Checkout section 4: what will be ordered, and the place-order button (disabled while an order is processed). */
import type { PaymentMethodConfig } from '@shared/config/checkout'
import { MSG } from '@shared/i18n/messages'
import type { CartLine } from '../../../state/cart'
import type { CheckoutState } from '../checkout-state'

interface ReviewStepProps {
  state: CheckoutState
  offered: readonly PaymentMethodConfig[]
  items: readonly CartLine[]
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

export function ReviewStep({ state, offered, items, busy, onPlace }: ReviewStepProps) {
  const { personalDetails: p } = state
  return (
    <section aria-labelledby="review-title" className="checkout__section" data-testid="checkout-review">
      <h2 id="review-title">Review order</h2>
      <dl className="checkout__review">
        <dt>Contact</dt>
        <dd>
          {p.firstName} {p.lastName}, {p.emailAddress}
        </dd>
        <dt>Ship to</dt>
        <dd>{shipToLine(state.shippingDetails)}</dd>
        <dt>Payment</dt>
        <dd>{offered.find((m) => m.code === state.paymentFinalStep.paymentMethod)?.title}</dd>
      </dl>
      <ul className="checkout__items">
        {items.map((l) => (
          <li key={l.sku}>
            {l.name} × {l.qty}
          </li>
        ))}
      </ul>
      <button
        type="button"
        className="btn btn--primary btn--block"
        disabled={busy}
        onClick={onPlace}
        data-testid="place-order"
      >
        {busy ? MSG.processingOrder : 'Place the order'}
      </button>
      {busy ? (
        <p role="status" className="checkout__processing">
          {MSG.processingOrder}
        </p>
      ) : null}
    </section>
  )
}
