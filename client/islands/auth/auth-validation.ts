/** Validation of the auth modal's forms: e-mail always; a password to log in; names and a strong password to register. */
import { MSG } from '@shared/i18n/messages'
import { checkEmail, checkNewPassword, type FieldErrors, required } from '../forms/field-rules'
import type { AuthMode } from './open-auth-modal'

interface AuthFields {
  email: string
  password: string
  firstname: string
  lastname: string
}

/** Errors of the form in `mode`, keyed by field name (empty when it may be sent). */
export function validateAuthForm(mode: AuthMode, f: AuthFields): FieldErrors {
  const e: FieldErrors = {}
  checkEmail(e, 'email', f.email)
  if (mode === 'login' && !f.password) e.password = MSG.fieldRequired
  if (mode === 'register') {
    checkNewPassword(e, 'password', f.password)
    required(e, 'firstname', f.firstname)
    required(e, 'lastname', f.lastname)
  }
  return e
}
