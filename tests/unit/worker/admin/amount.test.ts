// Amounts as operators type them: rupees written the way people write them become whole paise;
// anything else is refused with words, never read as something the operator did not mean.
import { describe, expect, it } from 'vitest'
import { amountTyped } from '../../../../worker/admin/input'

const read = (text: string, signed = false) => {
  const r = amountTyped('amount', { signed }).safeParse(text)
  return r.success ? r.data : r.error.issues[0]?.message
}

describe('amountTyped', () => {
  it.each([
    ['5000', 500_000],
    ['5,000', 500_000],
    ['50,000.5', 5_000_050],
    ['1,00,000.25', 10_000_025],
    ['₹ 5,000', 500_000],
    ['Rs. 120', 12_000],
    [' 0.05 ', 5],
  ])('%j is %i paise', (text, paise) => expect(read(text)).toBe(paise))

  it.each([
    '',
    'abc',
    '5.000,50',
    '1e3',
    '0x10',
    '5.123',
    ',500',
    '500,',
    '5,,000',
    '-500',
    '5 000 000 000 000',
  ])('%j is refused in words', (text) =>
    expect(read(text)).toMatch(/^amount (must be an amount in rupees|is required|is too large)/),
  )

  it('takes a minus only where revoking is meant, and refuses what is too large', () => {
    expect(read('-500', true)).toBe(-50_000)
    expect(read('99,99,99,99,999')).toBe('amount is too large')
    expect(read('0.00', true)).toBe('amount must not be ₹0')
  })
})
