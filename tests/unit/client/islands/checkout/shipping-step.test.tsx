import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { emptyCheckoutState } from '../../../../../client/islands/checkout/checkout-state'
import { ShippingStep } from '../../../../../client/islands/checkout/steps/shipping-step'

// The tax sentence and the delivery lines arrive after the shopper has typed the address, while
// they reach for "Continue to payment" below them: what is drawn above the button must not grow
// when they arrive, or the button moves from under the pointer and the click misses.
describe('the shipping step', () => {
  const render = (notes: { sentence: string | null; estimate: string | null }) =>
    renderToString(
      <ShippingStep
        details={emptyCheckoutState('IN').shippingDetails}
        notes={{ ...notes, cod: null }}
        errors={{}}
        onChange={() => {}}
        onNext={() => {}}
        whatsapp={{ checked: false, onChange: () => {} }}
        book={null}
      />,
    )
  /** The elements drawn above the button, without their text. */
  const aboveButton = (html: string) =>
    html.slice(0, html.indexOf('Continue to payment')).match(/<[a-z][a-z0-9]*/g)

  it('holds the place of the answers that have not arrived yet', () => {
    const waiting = render({ sentence: null, estimate: null })
    const answered = render({
      sentence: 'Shipping within India: prices include GST.',
      estimate: 'Delivery to 560001 by 3rd of December, 2026.',
    })
    expect(answered).toContain('Shipping within India: prices include GST.')
    expect(waiting).toMatch(/data-testid="tax-sentence">\u00a0</)
    expect(aboveButton(waiting)).toEqual(aboveButton(answered))
  })
})
