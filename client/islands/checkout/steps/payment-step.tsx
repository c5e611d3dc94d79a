/**
 * Checkout section 3: the payment method (cash on delivery with its note; what happens with an
 * online one), the store credit of a signed-in shopper and a gift card code to add to it, the billing address (the shipping one by default, company and tax id always
 * offered) and the terms.
 */
import { AddressFields, type AddressFormValue } from '@shared/components/checkout/address-fields'
import { CheckboxField, TextField } from '@shared/components/checkout/form-field'
import type { PaymentMethodConfig } from '@shared/config/checkout'
import { Suspense } from 'react'
import { COUNTRIES, type FieldErrors } from '../../forms/field-rules'
import { lazyPart } from '../../lazy-part'
import { formatPagePrice } from '../../page-price'
import { ADDRESS_BOOK_TEXT } from '../address-book'
import type { CheckoutState } from '../checkout-state'
import { errorsUnder } from '../checkout-validation'

// A signed-in shopper's gift card field: its code loads when it is first shown.
const GiftCardField = lazyPart(() => import('./gift-card-field').then((m) => m.GiftCardField))

interface PaymentStepProps {
  state: CheckoutState
  offered: readonly PaymentMethodConfig[]
  /** The methods not offered for this checkout, and why (said before the review). */
  unavailable: readonly { code: string; reason: string }[]
  errors: FieldErrors
  /** Why the shopper's method was replaced by the selected one (null: it was not). */
  methodNote: string | null
  /** The signed-in shopper's store credit balance; null for a visitor. */
  storeCredit: number | null
  onSelectMethod: (code: string) => void
  update: (fn: (s: CheckoutState) => CheckoutState) => void
  onBillingChange: (field: keyof AddressFormValue, value: string) => void
  /** A signed-in shopper's choice to save a billing address their book lacks (null: not offered). */
  saveBilling: { save: boolean; onSave: (save: boolean) => void } | null
  onNext: () => void
}

function PaymentMethods({
  offered,
  unavailable,
  selected,
  error,
  note,
  onSelect,
}: {
  offered: readonly PaymentMethodConfig[]
  unavailable: PaymentStepProps['unavailable']
  selected: string
  error: string | undefined
  note: string | null
  onSelect: (code: string) => void
}) {
  return (
    <fieldset className="checkout__methods" aria-describedby={error ? 'payment-method-error' : undefined}>
      <legend>Payment method</legend>
      {offered.map((m) => (
        <label key={m.code} className="radio">
          <input
            type="radio"
            name="paymentMethod"
            value={m.code}
            checked={selected === m.code}
            onChange={() => onSelect(m.code)}
          />
          {m.title}
        </label>
      ))}
      {note ? (
        <p className="checkout__note" role="status" data-testid="method-changed">
          {note}
        </p>
      ) : null}
      {unavailable.map((m) => (
        <p key={m.code} className="checkout__unavailable" data-testid="method-unavailable" data-code={m.code}>
          {m.reason}
        </p>
      ))}
      {error ? (
        <p id="payment-method-error" className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  )
}

/**
 * What happens with an online method: the review's button places the order and opens the
 * provider's own secure window at once; the order is confirmed only when the payment is verified.
 */
function onlinePaymentNote(code: string): string {
  const how =
    code === 'paypal_standard'
      ? 'takes you to PayPal to approve the payment'
      : 'opens a secure payment window for UPI, cards, netbanking or wallets'
  return `The button on the next step ${how}. Your order is confirmed once the payment is verified; until then it is held for you for a limited time.`
}

export function PaymentStep(props: PaymentStepProps) {
  const { state, offered, errors, storeCredit, update, onBillingChange } = props
  return (
    <section aria-labelledby="payment-title" className="checkout__section">
      <h2 id="payment-title" tabIndex={-1}>
        Payment
      </h2>
      <PaymentMethods
        offered={offered}
        unavailable={props.unavailable}
        selected={state.paymentFinalStep.paymentMethod}
        error={errors.paymentMethod}
        note={props.methodNote}
        onSelect={props.onSelectMethod}
      />
      {state.isCashOnDelivery && state.codMessage ? (
        <p className="checkout__cod">{state.codMessage}</p>
      ) : null}
      {state.paymentFinalStep.paymentMethod && !state.isCashOnDelivery ? (
        <p className="checkout__online" data-testid="online-payment-note">
          {onlinePaymentNote(state.paymentFinalStep.paymentMethod)}
        </p>
      ) : null}
      {storeCredit !== null && storeCredit > 0 ? (
        <CheckboxField
          id="payment-storeCredit"
          label={`Apply my store credit (${formatPagePrice(storeCredit)} available)`}
          checked={state.isStoreCreditApplied}
          onChange={(v) => update((s) => ({ ...s, isStoreCreditApplied: v }))}
        />
      ) : null}
      {storeCredit !== null ? (
        <Suspense fallback={null}>
          <GiftCardField onRedeemed={() => update((s) => ({ ...s, isStoreCreditApplied: true }))} />
        </Suspense>
      ) : null}
      <CheckboxField
        id="payment-sameAsShipping"
        label="Billing address is the same as the shipping address"
        checked={state.sameAsShipping}
        onChange={(v) => update((s) => ({ ...s, sameAsShipping: v }))}
      />
      {state.sameAsShipping ? (
        <div className="field-row">
          <TextField
            id="billing-company"
            label="Company (optional)"
            value={state.paymentDetails.company}
            onChange={(v) => onBillingChange('company', v)}
            autoComplete="organization"
          />
          <TextField
            id="billing-taxId"
            label="Tax ID (optional)"
            value={state.paymentDetails.taxId}
            onChange={(v) => onBillingChange('taxId', v)}
          />
        </div>
      ) : (
        <AddressFields
          idPrefix="billing"
          value={state.paymentDetails}
          countries={COUNTRIES}
          errors={errorsUnder(errors, 'billing.')}
          onChange={onBillingChange}
          withCompany
        />
      )}
      {!state.sameAsShipping && props.saveBilling ? (
        <CheckboxField
          id="billing-save"
          label={ADDRESS_BOOK_TEXT.saveBillingAddress}
          checked={props.saveBilling.save}
          onChange={props.saveBilling.onSave}
        />
      ) : null}
      <CheckboxField
        id="payment-terms"
        label="I accept the terms and conditions"
        checked={state.paymentFinalStep.terms}
        onChange={(v) => update((s) => ({ ...s, paymentFinalStep: { ...s.paymentFinalStep, terms: v } }))}
        error={errors.terms}
      />
      <button type="button" className="btn btn--primary" onClick={props.onNext}>
        Review order
      </button>
    </section>
  )
}
