// The account's profile and change-password checks, and the auth modal's, before any request.
import { describe, expect, it } from 'vitest'
import {
  MSG_PASSWORDS_DIFFER,
  validatePasswordChange,
  validateProfile,
} from '../../../../../client/islands/account/account-model'
import { validateAuthForm } from '../../../../../client/islands/auth/auth-validation'
import { MSG_INVALID_EMAIL, MSG_PASSWORD_SHORT } from '../../../../../client/islands/forms/field-rules'
import { MSG } from '../../../../../shared/i18n/messages'

describe('profile form', () => {
  const ok = { firstname: 'Asha', lastname: 'Rao', email: 'asha@example.com', emailPassword: '' }

  it('accepts unchanged details without a password, and a case-only e-mail change too', () => {
    expect(validateProfile('asha@example.com', ok)).toEqual({})
    expect(validateProfile('asha@example.com', { ...ok, email: ' ASHA@example.com ' })).toEqual({})
  })

  it('asks for the current password when the e-mail address changes', () => {
    expect(validateProfile('asha@example.com', { ...ok, email: 'new@example.com' })).toEqual({
      emailPassword: MSG.fieldRequired,
    })
    expect(
      validateProfile('asha@example.com', { ...ok, email: 'new@example.com', emailPassword: 'x' }),
    ).toEqual({})
  })

  it('requires the names and a valid e-mail', () => {
    expect(validateProfile('a@b.in', { ...ok, firstname: ' ', lastname: '', email: 'nope' })).toEqual({
      firstname: MSG.fieldRequired,
      lastname: MSG.fieldRequired,
      email: MSG_INVALID_EMAIL,
      emailPassword: MSG.fieldRequired,
    })
  })
})

describe('change-password form', () => {
  it('needs both passwords, a strong new one, repeated exactly', () => {
    expect(validatePasswordChange({ current: '', next: '', confirm: '' })).toEqual({
      current: MSG.fieldRequired,
      next: MSG.fieldRequired,
    })
    expect(validatePasswordChange({ current: 'old', next: 'short1', confirm: 'short1' })).toEqual({
      next: MSG_PASSWORD_SHORT,
    })
    expect(validatePasswordChange({ current: 'old', next: 'longer123', confirm: 'longer124' })).toEqual({
      confirm: MSG_PASSWORDS_DIFFER,
    })
    expect(validatePasswordChange({ current: 'old', next: 'longer123', confirm: 'longer123' })).toEqual({})
  })
})

describe('auth modal forms', () => {
  const blank = { email: '', password: '', firstname: '', lastname: '' }

  it('reset needs only a valid e-mail', () => {
    expect(validateAuthForm('reset', blank)).toEqual({ email: MSG.fieldRequired })
    expect(validateAuthForm('reset', { ...blank, email: 'x@y' })).toEqual({ email: MSG_INVALID_EMAIL })
    expect(validateAuthForm('reset', { ...blank, email: 'x@y.in' })).toEqual({})
  })

  it('login needs a password of any strength', () => {
    expect(validateAuthForm('login', { ...blank, email: 'x@y.in' })).toEqual({ password: MSG.fieldRequired })
    expect(validateAuthForm('login', { ...blank, email: 'x@y.in', password: 'a' })).toEqual({})
  })

  it('register needs names and a strong password', () => {
    expect(validateAuthForm('register', { ...blank, email: 'x@y.in', password: 'abc' })).toEqual({
      password: MSG_PASSWORD_SHORT,
      firstname: MSG.fieldRequired,
      lastname: MSG.fieldRequired,
    })
    expect(
      validateAuthForm('register', { email: 'x@y.in', password: 'abcdef12', firstname: 'A', lastname: 'R' }),
    ).toEqual({})
  })
})
