/** The account's address book: the saved addresses, edit, delete, add, and the default address. */

import { AddressFields, type AddressFormValue } from '@shared/components/checkout/address-fields'
import { CheckboxField } from '@shared/components/checkout/form-field'
import { FormError } from '@shared/components/form-error'
import { useState } from 'react'
import { COUNTRIES, validateAddress } from '../forms/field-rules'
import { updateProfile } from './account-api'
import type { Customer } from './account-model'
import { addressToForm, type CustomerAddress, formToAddress } from './address-form'

export function AddressBook({ user }: { user: Customer }) {
  const addresses = user.addresses ?? []
  const [editing, setEditing] = useState<number | 'new' | null>(null)
  const [form, setForm] = useState<AddressFormValue & { isDefault: boolean }>(() => ({
    ...addressToForm(null),
    isDefault: false,
  }))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [formError, setFormError] = useState<string | null>(null)

  const startEdit = (i: number | 'new') => {
    const a = i === 'new' ? null : (addresses[i] ?? null)
    setForm({
      ...addressToForm(a),
      isDefault: i === 'new' ? addresses.length === 0 : Boolean(a?.default_shipping),
    })
    setErrors({})
    setEditing(i)
  }

  const save = async () => {
    const errs = validateAddress({ ...form, region_id: null })
    setErrors(errs)
    if (Object.keys(errs).length) return
    const base = editing === 'new' || editing === null ? undefined : addresses[editing]
    const next: CustomerAddress = formToAddress(form, base, form.isDefault)
    let list = editing === 'new' ? [...addresses, next] : addresses.map((a, i) => (i === editing ? next : a))
    if (form.isDefault) {
      list = list.map((a) => (a === next ? a : { ...a, default_shipping: false, default_billing: false }))
    }
    const err = await updateProfile({ ...user, addresses: list })
    setFormError(err)
    if (!err) setEditing(null)
  }

  return (
    <section>
      <h2>Address book</h2>
      {addresses.length === 0 ? <p>You have no saved addresses yet.</p> : null}
      <ul className="address-list">
        {addresses.map((a, i) => (
          <li key={a.id ?? `new-${i}`} className="address-card" data-testid="address-card">
            <address>
              {a.firstname} {a.lastname}
              <br />
              {a.street.filter(Boolean).join(', ')}
              <br />
              {[a.city, a.region?.region, a.postcode].filter(Boolean).join(', ')}
              <br />
              {COUNTRIES.find((c) => c.code === a.country_id)?.name ?? a.country_id}
              {a.telephone ? (
                <>
                  <br />
                  {a.telephone}
                </>
              ) : null}
            </address>
            {a.default_shipping ? <p className="address-card__badge">Default address</p> : null}
            <button type="button" className="btn btn--link" onClick={() => startEdit(i)}>
              Edit
            </button>
            <button
              type="button"
              className="btn btn--link"
              onClick={async () =>
                setFormError(await updateProfile({ ...user, addresses: addresses.filter((_, j) => j !== i) }))
              }
            >
              Delete
            </button>
          </li>
        ))}
      </ul>
      <FormError message={formError} />
      {editing === null ? (
        <button type="button" className="btn btn--secondary" onClick={() => startEdit('new')}>
          Add a new address
        </button>
      ) : (
        <form
          className="account-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault()
            void save()
          }}
        >
          <h3>{editing === 'new' ? 'New address' : 'Edit address'}</h3>
          <AddressFields
            idPrefix="address"
            value={form}
            countries={COUNTRIES}
            errors={errors}
            onChange={(f, v) => setForm({ ...form, [f]: v })}
            withCompany
          />
          <CheckboxField
            id="address-default"
            label="Use as my default address"
            checked={form.isDefault}
            onChange={(v) => setForm({ ...form, isDefault: v })}
          />
          <button type="submit" className="btn btn--primary">
            Save address
          </button>
          <button type="button" className="btn btn--link" onClick={() => setEditing(null)}>
            Cancel
          </button>
        </form>
      )}
    </section>
  )
}
