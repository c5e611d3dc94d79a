/** Checkout section 1: name and e-mail; a visitor may log in instead, or create an account with a password. */
import { CheckboxField, EmailField, NameFields, PasswordField } from '@shared/components/checkout/form-field'
import { openAuthModal } from '../../auth/open-auth-modal'
import type { FieldErrors } from '../../forms/field-rules'
import type { CheckoutState, PersonalDetails } from '../checkout-state'

interface PersonalStepProps {
  details: PersonalDetails
  loggedIn: boolean
  errors: FieldErrors
  update: (fn: (s: CheckoutState) => CheckoutState) => void
  onNext: () => void
  /** Where the button leads: a cart of virtual goods only skips the shipping step. */
  nextStep?: 'shipping' | 'payment'
}

export function PersonalStep({
  details,
  loggedIn,
  errors,
  update,
  onNext,
  nextStep = 'shipping',
}: PersonalStepProps) {
  const set = <K extends keyof PersonalDetails>(field: K, value: PersonalDetails[K]) =>
    update((s) => ({ ...s, personalDetails: { ...s.personalDetails, [field]: value } }))
  return (
    <section aria-labelledby="personal-title" className="checkout__section">
      <h2 id="personal-title" tabIndex={-1}>
        Personal details
      </h2>
      {!loggedIn ? (
        <p className="checkout__hint">
          Already have an account?{' '}
          <button type="button" className="btn btn--link" onClick={() => openAuthModal('login')}>
            Log in
          </button>
        </p>
      ) : null}
      <NameFields
        ids={['personal-firstName', 'personal-lastName']}
        first={details.firstName}
        last={details.lastName}
        onFirst={(v) => set('firstName', v)}
        onLast={(v) => set('lastName', v)}
        errors={{ first: errors.firstName, last: errors.lastName }}
      />
      <EmailField
        id="personal-emailAddress"
        value={details.emailAddress}
        onChange={(v) => set('emailAddress', v)}
        error={errors.emailAddress}
      />
      {!loggedIn ? (
        <>
          <CheckboxField
            id="personal-cartReminder"
            label="E-mail me a reminder if I leave my bag"
            checked={details.cartReminder === true}
            onChange={(v) => set('cartReminder', v)}
          />
          <CheckboxField
            id="personal-createAccount"
            label="I want to create an account"
            checked={details.createAccount}
            onChange={(v) => set('createAccount', v)}
          />
          {details.createAccount ? (
            <PasswordField
              id="personal-password"
              purpose="new"
              value={details.password}
              onChange={(v) => set('password', v)}
              error={errors.password}
            />
          ) : null}
        </>
      ) : null}
      <button type="button" className="btn btn--primary" onClick={onNext}>
        {nextStep === 'payment' ? 'Continue to payment' : 'Continue to shipping'}
      </button>
    </section>
  )
}
