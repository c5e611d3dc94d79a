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
  /** What every address field passes to its input: id, current value, change handler, error. */
  const bound = (f: keyof AddressFormValue) => ({
    id: id(f),
    value: value[f] ?? '',
    onChange: (v: string) => onChange(f, v),
    error: errors[f],
  })
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
      <TextField {...bound('streetAddress')} label="Street address" autoComplete="address-line1" required />
      <TextField
        {...bound('apartmentNumber')}
        label="Apartment / house number"
        autoComplete="address-line2"
      />
      <div className="field-row">
        <TextField {...bound('city')} label="City" autoComplete="address-level2" required />
        {value.country === 'IN' ? (
          // India: one of its states and union territories (an address book entry typed before keeps its text).
          <SelectField
            {...bound('state')}
            label="State"
            options={[
              { value: '', label: 'Select a state' },
              ...(value.state && !(INDIAN_STATES as readonly string[]).includes(value.state)
                ? [{ value: value.state, label: value.state }]
                : []),
              ...INDIAN_STATES.map((s) => ({ value: s, label: s })),
            ]}
            autoComplete="address-level1"
          />
        ) : (
          <TextField {...bound('state')} label="State / Province" autoComplete="address-level1" />
        )}
      </div>
      <div className="field-row">
        <TextField {...bound('zipCode')} label="Zip / Postal code" autoComplete="postal-code" required />
        <SelectField
          {...bound('country')}
          label="Country"
          options={countries.map((c) => ({ value: c.code, label: c.name }))}
          autoComplete="country"
          required
        />
      </div>
      <TextField
        {...bound('phoneNumber')}
        label="Phone number"
        type="tel"
        autoComplete="tel"
        inputMode="tel"
        required
      />
    </div>
  )
}
