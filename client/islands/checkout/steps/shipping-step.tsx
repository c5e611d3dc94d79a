/**
 * Checkout section 2: the shipping address and the (single) shipping method with its cost and the
 * delivery estimate for the address. A signed-in
 * shopper with saved addresses picks one of them or a new address; an address not in their book
 * can be saved to it.
 */
import { AddressFields, type AddressFormValue } from '@shared/components/checkout/address-fields'
import { CheckboxField, SelectField } from '@shared/components/checkout/form-field'
import { DEFAULT_SHIPPING_METHOD } from '@shared/config/checkout'
import type { CustomerAddress } from '../../account/address-form'
import { COUNTRIES, type FieldErrors } from '../../forms/field-rules'
import { ADDRESS_BOOK_TEXT } from '../address-book'
import type { ShippingDetails } from '../checkout-state'
import { DeliveryQuote, HOLD_LINE } from '../delivery-quote'

interface ShippingStepProps {
  details: ShippingDetails
  errors: FieldErrors
  /** What the chosen country changes: the tax sentence, and why COD is not offered. */
  notes: { sentence: string | null; cod: string | null; estimate: string | null }
  onChange: (field: keyof AddressFormValue, value: string) => void
  onNext: () => void
  /** The WhatsApp order-updates box (unticked unless the shopper ticks it). */
  whatsapp: { checked: boolean; onChange: (checked: boolean) => void }
  /** A signed-in shopper's address book (null for a guest). */
  book: {
    saved: readonly CustomerAddress[]
    /** The saved address the form shows, or null. */
    chosen: CustomerAddress | null
    onChoose: (address: CustomerAddress | null) => void
    save: boolean
    onSave: (save: boolean) => void
  } | null
}

/** One line naming a saved address in the picker. */
const summary = (a: CustomerAddress) =>
  [`${a.firstname} ${a.lastname}`, ...a.street, a.city, a.postcode].filter((p) => p?.trim()).join(', ')

export function ShippingStep({
  details,
  notes,
  errors,
  onChange,
  onNext,
  whatsapp,
  book,
}: ShippingStepProps) {
  return (
    <section aria-labelledby="shipping-title" className="checkout__section">
      <h2 id="shipping-title" tabIndex={-1}>
        Shipping
      </h2>
      {book?.saved.length ? (
        <SelectField
          id="shipping-saved"
          label={ADDRESS_BOOK_TEXT.savedAddress}
          value={book.chosen ? String(book.chosen.id) : ''}
          options={[
            ...book.saved.map((a) => ({ value: String(a.id), label: summary(a) })),
            { value: '', label: ADDRESS_BOOK_TEXT.newAddress },
          ]}
          onChange={(v) => book.onChoose(book.saved.find((a) => String(a.id) === v) ?? null)}
        />
      ) : null}
      <AddressFields
        idPrefix="shipping"
        value={details}
        countries={COUNTRIES}
        errors={errors}
        onChange={onChange}
      />
      <CheckboxField
        id="shipping-whatsapp"
        label="Send me order updates on WhatsApp (to the mobile above; reply STOP at any time)"
        checked={whatsapp.checked}
        onChange={whatsapp.onChange}
      />
      {book && !book.chosen ? (
        <CheckboxField
          id="shipping-save"
          label={ADDRESS_BOOK_TEXT.saveAddress}
          checked={book.save}
          onChange={book.onSave}
        />
      ) : null}
      {/* Held from the first render like the delivery lines below (a sentence arriving with the
          totals moved "Continue to payment" from under the pointer). */}
      <p className="checkout__note" role="status" data-testid="tax-sentence">
        {notes.sentence ?? HOLD_LINE}
      </p>
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
          {DEFAULT_SHIPPING_METHOD.carrier_title} — {DEFAULT_SHIPPING_METHOD.method_title}
        </label>
        <DeliveryQuote country={details.country} estimate={notes.estimate} />
      </fieldset>
      <button type="button" className="btn btn--primary" onClick={onNext}>
        Continue to payment
      </button>
    </section>
  )
}
