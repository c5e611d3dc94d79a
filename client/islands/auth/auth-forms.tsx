/** Login, sign-up and reset-password forms of the auth modal (loaded on first open). */

import { EmailField, NameFields, PasswordField } from '@shared/components/checkout/form-field'
import { FormError } from '@shared/components/form-error'
import { useState } from 'react'
import { getRuntime } from '../../engines/runtime/runtime'
import { takeRedirectAfterLogin } from '../../engines/session/access-rule'
import { notify } from '../../state/notifications'
import type { FieldErrors } from '../forms/field-rules'
import { validateAuthForm } from './auth-validation'
import type { AuthMode } from './open-auth-modal'

const MSG_RESET_FAILED = 'We could not send the reset e-mail. Please check the address and try again.'

export function AuthForms({
  mode,
  setMode,
  onClose,
}: {
  mode: AuthMode
  setMode: (m: AuthMode) => void
  onClose: () => void
}) {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [firstname, setFirstname] = useState('')
  const [lastname, setLastname] = useState('')
  const [errors, setErrors] = useState<FieldErrors>({})
  const [formError, setFormError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [resetSent, setResetSent] = useState(false)

  const submit = async (ev: React.FormEvent) => {
    ev.preventDefault()
    const e = validateAuthForm(mode, { email, password, firstname, lastname })
    setErrors(e)
    setFormError(null)
    if (Object.keys(e).length) return
    setBusy(true)
    try {
      const session = getRuntime().session
      if (mode === 'reset') {
        if (await session.resetPassword(email.trim())) setResetSent(true)
        else setFormError(MSG_RESET_FAILED)
        return
      }
      const r =
        mode === 'login'
          ? await session.login(email.trim(), password)
          : await session.register({
              email: email.trim(),
              password,
              firstname: firstname.trim(),
              lastname: lastname.trim(),
            })
      if (!r.ok) {
        setFormError(r.message)
        return
      }
      notify({
        type: 'success',
        message: mode === 'login' ? 'You are logged in!' : 'You are registered and logged in!',
      })
      onClose()
      const to = r.redirectTo ?? takeRedirectAfterLogin()
      if (to) window.location.assign(to)
    } finally {
      setBusy(false)
    }
  }

  const title = mode === 'login' ? 'Log in' : mode === 'register' ? 'Register' : 'Reset password'
  return (
    <form className="auth-form" onSubmit={submit} noValidate>
      <h2 id="auth-title">{title}</h2>
      <FormError message={formError} testId="auth-error" />
      {mode === 'reset' && resetSent ? (
        <p role="status">We have sent password reset instructions to your email. Check your inbox.</p>
      ) : (
        <>
          <EmailField id="auth-email" value={email} onChange={setEmail} error={errors.email} />
          {mode === 'register' ? (
            <NameFields
              ids={['auth-firstname', 'auth-lastname']}
              first={firstname}
              last={lastname}
              onFirst={setFirstname}
              onLast={setLastname}
              errors={{ first: errors.firstname, last: errors.lastname }}
            />
          ) : null}
          {mode !== 'reset' ? (
            <PasswordField
              id="auth-password"
              purpose={mode === 'login' ? 'current' : 'new'}
              value={password}
              onChange={setPassword}
              error={errors.password}
            />
          ) : null}
          <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
            {title}
          </button>
        </>
      )}
      <div className="auth-form__links">
        {mode !== 'login' ? (
          <button type="button" className="btn btn--link" onClick={() => setMode('login')}>
            Already have an account? Log in
          </button>
        ) : (
          <>
            <button type="button" className="btn btn--link" onClick={() => setMode('register')}>
              Not yet an account? Register
            </button>
            <button type="button" className="btn btn--link" onClick={() => setMode('reset')}>
              Forgot the password?
            </button>
          </>
        )}
      </div>
    </form>
  )
}
