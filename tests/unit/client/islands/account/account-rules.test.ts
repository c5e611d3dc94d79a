// The account area's rules for the profile form and the newsletter section.
import { describe, expect, it } from 'vitest'
import { isEmailChange, newsletterStatus } from '../../../../../client/islands/account/account-model'

describe('e-mail change', () => {
  it('is a new address, not a change of letter case or surrounding spaces', () => {
    expect(isEmailChange('asha@example.com', 'ASHA@Example.com ')).toBe(false)
    expect(isEmailChange('asha@example.com', 'asha2@example.com')).toBe(true)
  })
})

describe('newsletter status', () => {
  it.each([
    ['subscribed', 'subscribed'],
    [true, 'subscribed'],
    [{ subscribed: true }, 'subscribed'],
    ['pending', 'pending'],
    ['unsubscribed', 'unsubscribed'],
    [false, 'unsubscribed'],
    [null, 'unsubscribed'],
    ['something else', 'unsubscribed'],
  ])('%j reads as %s', (result, expected) => {
    expect(newsletterStatus(result)).toBe(expected)
  })
})
