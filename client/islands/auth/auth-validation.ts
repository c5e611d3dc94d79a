/** Validation of the auth modal's forms: e-mail always; a password to log in; names and a strong password to register. */
import { MSG } from '@shared/i18n/messages'
import {
  type FieldErrors,
  isEmail,
  isStrongPassword,
  MSG_INVALID_EMAIL,
  MSG_PASSWORD_SHORT,
} from '../forms/field-rules'
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
  if (!f.email.trim()) e.email = MSG.fieldRequired
  else if (!isEmail(f.email)) e.email = MSG_INVALID_EMAIL
  if (mode !== 'reset' && !f.password) e.password = MSG.fieldRequired
  if (mode === 'register') {
    if (f.password && !isStrongPassword(f.password)) e.password = MSG_PASSWORD_SHORT
    if (!f.firstname.trim()) e.firstname = MSG.fieldRequired
    if (!f.lastname.trim()) e.lastname = MSG.fieldRequired
  }
  return e
}
