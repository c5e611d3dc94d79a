/** Login, sign-up and reset-password forms of the auth modal (loaded on first open). */
import { useState } from 'react'
import { TextField } from '../../../shared/components/checkout/form-field'
import { MSG } from '../../../shared/i18n/messages'
import { notify } from '../../state/notifications'
import { login, register, resetPassword, takeRedirectAfterLogin } from '../checkout/adapters'
import { isEmail, isStrongPassword, MSG_INVALID_EMAIL, MSG_PASSWORD_SHORT } from '../checkout/checkout-model'
import type { AuthMode } from './open-auth-modal'

type Errors = Record<string, string>

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
  const [errors, setErrors] = useState<Errors>({})
  const [formError, setFormError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const [resetSent, setResetSent] = useState(false)

  const validate = (): Errors => {
    const e: Errors = {}
    if (!email.trim()) e.email = MSG.fieldRequired
    else if (!isEmail(email)) e.email = MSG_INVALID_EMAIL
    if (mode !== 'reset' && !password) e.password = MSG.fieldRequired
    if (mode === 'register') {
      if (password && !isStrongPassword(password)) e.password = MSG_PASSWORD_SHORT
      if (!firstname.trim()) e.firstname = MSG.fieldRequired
      if (!lastname.trim()) e.lastname = MSG.fieldRequired
    }
    return e
  }

  const submit = async (ev: React.FormEvent) => {
    ev.preventDefault()
    const e = validate()
    setErrors(e)
    setFormError(null)
    if (Object.keys(e).length) return
    setBusy(true)
    try {
      if (mode === 'reset') {
        const err = await resetPassword(email.trim())
        if (err) setFormError(err)
        else setResetSent(true)
        return
      }
      const { error: err, redirectTo } =
        mode === 'login'
          ? await login(email.trim(), password)
          : await register({
              email: email.trim(),
              password,
              firstname: firstname.trim(),
              lastname: lastname.trim(),
            })
      if (err) {
        setFormError(err)
        return
      }
      notify({
        type: 'success',
        message: mode === 'login' ? 'You are logged in!' : 'You are registered and logged in!',
      })
      onClose()
      const to = redirectTo ?? takeRedirectAfterLogin()
      if (to) window.location.assign(to)
    } finally {
      setBusy(false)
    }
  }

  const title = mode === 'login' ? 'Log in' : mode === 'register' ? 'Register' : 'Reset password'
  return (
    <form className="auth-form" onSubmit={submit} noValidate>
      <h2 id="auth-title">{title}</h2>
      {formError ? (
        <p className="form-error" role="alert" data-testid="auth-error">
          {formError}
        </p>
      ) : null}
      {mode === 'reset' && resetSent ? (
        <p role="status">We have sent password reset instructions to your email. Check your inbox.</p>
      ) : (
        <>
          <TextField
            id="auth-email"
            label="Email address"
            type="email"
            value={email}
            onChange={setEmail}
            error={errors.email}
            autoComplete="email"
            required
          />
          {mode === 'register' ? (
            <div className="field-row">
              <TextField
                id="auth-firstname"
                label="First name"
                value={firstname}
                onChange={setFirstname}
                error={errors.firstname}
                autoComplete="given-name"
                required
              />
              <TextField
                id="auth-lastname"
                label="Last name"
                value={lastname}
                onChange={setLastname}
                error={errors.lastname}
                autoComplete="family-name"
                required
              />
            </div>
          ) : null}
          {mode !== 'reset' ? (
            <TextField
              id="auth-password"
              label="Password"
              type="password"
              value={password}
              onChange={setPassword}
              error={errors.password}
              autoComplete={mode === 'login' ? 'current-password' : 'new-password'}
              required
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
