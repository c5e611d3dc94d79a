/**
 * The account's personal details: the profile (names, e-mail — a new address needs the current
 * password and is sent at once, never queued) and the change-password form.
 */

import { EmailField, NameFields, PasswordField } from '@shared/components/checkout/form-field'
import { FormError } from '@shared/components/form-error'
import { useEffect, useRef, useState } from 'react'
import type { FieldErrors } from '../forms/field-rules'
import { changeEmail, changePassword, updateProfile } from './account-api'
import { type Customer, isEmailChange, validatePasswordChange, validateProfile } from './account-model'

function ProfileForm({ user }: { user: Customer }) {
  const [firstname, setFirstname] = useState(user.firstname)
  const [lastname, setLastname] = useState(user.lastname)
  const [email, setEmail] = useState(user.email)
  // The page starts from the device's copy of the account and the server's answer follows: a field
  // the shopper has not touched takes the newer value, one being edited keeps what was typed.
  const shown = useRef(user)
  useEffect(() => {
    const before = shown.current
    shown.current = user
    if (before === user) return
    setFirstname((v) => (v === before.firstname ? user.firstname : v))
    setLastname((v) => (v === before.lastname ? user.lastname : v))
    setEmail((v) => (v === before.email ? user.email : v))
  }, [user])
  const [emailPassword, setEmailPassword] = useState('')
  const [errors, setErrors] = useState<FieldErrors>({})
  const [busy, setBusy] = useState(false)
  const [formError, setFormError] = useState<string | null>(null)

  const submit = async (e: React.FormEvent) => {
    e.preventDefault()
    const errs = validateProfile(user.email, { firstname, lastname, email, emailPassword })
    setErrors(errs)
    if (Object.keys(errs).length) return
    setBusy(true)
    const customer = { ...user, firstname: firstname.trim(), lastname: lastname.trim(), email: email.trim() }
    const err = isEmailChange(user.email, email)
      ? await changeEmail(customer, emailPassword).finally(() => setBusy(false))
      : await updateProfile(customer).finally(() => setBusy(false))
    setFormError(err)
    if (!err) setEmailPassword('')
  }

  return (
    <form className="account-form" noValidate onSubmit={submit}>
      <h2>Personal details</h2>
      <FormError message={formError} />
      <NameFields
        ids={['profile-firstname', 'profile-lastname']}
        first={firstname}
        last={lastname}
        onFirst={setFirstname}
        onLast={setLastname}
        errors={{ first: errors.firstname, last: errors.lastname }}
      />
      <EmailField id="profile-email" value={email} onChange={setEmail} error={errors.email} />
      {isEmailChange(user.email, email) ? (
        <PasswordField
          id="profile-email-password"
          label="Current password (needed to change your e-mail address)"
          purpose="current"
          value={emailPassword}
          onChange={setEmailPassword}
          error={errors.emailPassword}
        />
      ) : null}
      <button type="submit" className="btn btn--primary" disabled={busy}>
        Update my profile
      </button>
    </form>
  )
}

const NO_PASSWORDS = { current: '', next: '', confirm: '' }

/** The change-password form's three fields, in the order shown. */
const PASSWORD_FIELDS = [
  { key: 'current', id: 'password-current', label: 'Current password', purpose: 'current' },
  { key: 'next', id: 'password-new', label: 'New password', purpose: 'new' },
  { key: 'confirm', id: 'password-confirm', label: 'Repeat new password', purpose: 'new' },
] as const

function PasswordForm() {
  const [pw, setPw] = useState(NO_PASSWORDS)
  const [pwErrors, setPwErrors] = useState<FieldErrors>({})
  const [pwError, setPwError] = useState<string | null>(null)

  const submit = async (e: React.FormEvent) => {
    e.preventDefault()
    const errs = validatePasswordChange(pw)
    setPwErrors(errs)
    if (Object.keys(errs).length) return
    const err = await changePassword(pw.current, pw.next)
    setPwError(err)
    if (!err) setPw(NO_PASSWORDS)
  }

  return (
    <form className="account-form" noValidate onSubmit={submit}>
      <h2>Change password</h2>
      <FormError message={pwError} />
      {PASSWORD_FIELDS.map((f) => (
        <PasswordField
          key={f.key}
          id={f.id}
          label={f.label}
          purpose={f.purpose}
          value={pw[f.key]}
          onChange={(v) => setPw((prev) => ({ ...prev, [f.key]: v }))}
          error={pwErrors[f.key]}
        />
      ))}
      <button type="submit" className="btn btn--secondary">
        Change password
      </button>
    </form>
  )
}

export function PersonalDetails({ user }: { user: Customer }) {
  return (
    <>
      <ProfileForm user={user} />
      <PasswordForm />
    </>
  )
}
