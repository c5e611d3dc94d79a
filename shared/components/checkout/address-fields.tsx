/**
 * The address form used by checkout (shipping and billing) and the address book: country (India
 * first), street, apartment, city, state/region, zip and phone; every field labelled, errors inline.
 */

import { NameFields, SelectField, TextField } from './form-field'
import { INDIAN_STATES } from './indian-states'

export interface AddressFormValue {
  firstName: string
  lastName: string
  country: string
  streetAddress: string
  apartmentNumber: string
  city: string
  state: string
  zipCode: string
  phoneNumber: string
  company?: string
  taxId?: string
}

interface AddressFieldsProps<T extends AddressFormValue> {
  idPrefix: string
  value: T
  countries: readonly { code: string; name: string }[]
  errors?: Record<string, string>
  onChange: (field: keyof AddressFormValue, value: string) => void
  /** Show company and tax id (billing). */
  withCompany?: boolean
}

/** Address inputs; `errors` are keyed by field name. */
export function AddressFields<T extends AddressFormValue>({
  idPrefix,
  value,
  countries,
  errors = {},
  onChange,
  withCompany,
}: AddressFieldsProps<T>) {
  const id = (f: string) => `${idPrefix}-${f}`
  return (
    <div className="address-fields">
      <NameFields
        ids={[id('firstName'), id('lastName')]}
        first={value.firstName}
        last={value.lastName}
        onFirst={(v) => onChange('firstName', v)}
        onLast={(v) => onChange('lastName', v)}
        errors={{ first: errors.firstName, last: errors.lastName }}
      />
      {withCompany ? (
        <div className="field-row">
          <TextField
            id={id('company')}
            label="Company (optional)"
            value={value.company ?? ''}
            onChange={(v) => onChange('company', v)}
            autoComplete="organization"
          />
          <TextField
            id={id('taxId')}
            label="Tax ID (optional)"
            value={value.taxId ?? ''}
            onChange={(v) => onChange('taxId', v)}
          />
        </div>
      ) : null}
      <TextField
        id={id('streetAddress')}
        label="Street address"
        value={value.streetAddress}
        onChange={(v) => onChange('streetAddress', v)}
        error={errors.streetAddress}
        autoComplete="address-line1"
        required
      />
      <TextField
        id={id('apartmentNumber')}
        label="Apartment / house number"
        value={value.apartmentNumber}
        onChange={(v) => onChange('apartmentNumber', v)}
        error={errors.apartmentNumber}
        autoComplete="address-line2"
      />
      <div className="field-row">
        <TextField
          id={id('city')}
          label="City"
          value={value.city}
          onChange={(v) => onChange('city', v)}
          error={errors.city}
          autoComplete="address-level2"
          required
        />
        {value.country === 'IN' ? (
          // India: one of its states and union territories (an address book entry typed before keeps its text).
          <SelectField
            id={id('state')}
            label="State"
            value={value.state}
            options={[
              { value: '', label: 'Select a state' },
              ...(value.state && !(INDIAN_STATES as readonly string[]).includes(value.state)
                ? [{ value: value.state, label: value.state }]
                : []),
              ...INDIAN_STATES.map((s) => ({ value: s, label: s })),
            ]}
            onChange={(v) => onChange('state', v)}
            error={errors.state}
            autoComplete="address-level1"
          />
        ) : (
          <TextField
            id={id('state')}
            label="State / Province"
            value={value.state}
            onChange={(v) => onChange('state', v)}
            error={errors.state}
            autoComplete="address-level1"
          />
        )}
      </div>
      <div className="field-row">
        <TextField
          id={id('zipCode')}
          label="Zip / Postal code"
          value={value.zipCode}
          onChange={(v) => onChange('zipCode', v)}
          error={errors.zipCode}
          autoComplete="postal-code"
          required
        />
        <SelectField
          id={id('country')}
          label="Country"
          value={value.country}
          options={countries.map((c) => ({ value: c.code, label: c.name }))}
          onChange={(v) => onChange('country', v)}
          error={errors.country}
          autoComplete="country"
          required
        />
      </div>
      <TextField
        id={id('phoneNumber')}
        label="Phone number"
        type="tel"
        value={value.phoneNumber}
        onChange={(v) => onChange('phoneNumber', v)}
        error={errors.phoneNumber}
        autoComplete="tel"
        inputMode="tel"
        required
      />
    </div>
  )
}
