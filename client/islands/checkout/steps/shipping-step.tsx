/** Checkout section 2: the shipping address and the (single, free) shipping method. */
import { AddressFields, type AddressFormValue } from '@shared/components/checkout/address-fields'
import { DEFAULT_SHIPPING_METHOD } from '@shared/config/checkout'
import { COUNTRIES, type FieldErrors } from '../../forms/field-rules'
import { formatPagePrice } from '../../page-price'
import type { ShippingDetails } from '../checkout-state'

interface ShippingStepProps {
  details: ShippingDetails
  errors: FieldErrors
  /** What the chosen country changes: the tax sentence, and why COD is not offered. */
  notes: { sentence: string | null; cod: string | null }
  onChange: (field: keyof AddressFormValue, value: string) => void
  onNext: () => void
}

export function ShippingStep({ details, notes, errors, onChange, onNext }: ShippingStepProps) {
  return (
    <section aria-labelledby="shipping-title" className="checkout__section">
      <h2 id="shipping-title">Shipping</h2>
      <AddressFields
        idPrefix="shipping"
        value={details}
        countries={COUNTRIES}
        errors={errors}
        onChange={onChange}
      />
      {notes.sentence ? (
        <p className="checkout__note" role="status" data-testid="tax-sentence">
          {notes.sentence}
        </p>
      ) : null}
      {notes.cod ? (
        <p className="checkout__note" data-testid="cod-note-shipping">
          {notes.cod}
        </p>
      ) : null}
      <fieldset className="checkout__methods">
        <legend>Shipping method</legend>
        <label className="radio">
          <input
            type="radio"
            name="shippingMethod"
            value={DEFAULT_SHIPPING_METHOD.method_code}
            checked
            readOnly
          />
          {DEFAULT_SHIPPING_METHOD.carrier_title} — {DEFAULT_SHIPPING_METHOD.method_title} (
          {formatPagePrice(DEFAULT_SHIPPING_METHOD.amount)})
        </label>
      </fieldset>
      <button type="button" className="btn btn--primary" onClick={onNext}>
        Continue to payment
      </button>
    </section>
  )
}
