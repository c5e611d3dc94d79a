import { describe, expect, it, vi } from 'vitest'
import {
  isRequiredSatisfied,
  isValidBundleQty,
  isValidGroupedQty,
  toQuantity,
  validateBundleOptions,
  validateCustomOptions,
  validateValue,
} from '../../../../shared/domain/options'

describe('required rule (custom options)', () => {
  it.each([
    [null, false],
    [undefined, false],
    ['', false],
    [false, false],
    [0, false],
    [[], false],
    ['x', true],
    [12, true],
    [true, true],
    [[3], true],
  ])('%j → %s', (value, expected) => {
    expect(isRequiredSatisfied(value)).toBe(expected)
  })
})

describe('validateCustomOptions', () => {
  const options = [
    { option_id: 1, is_require: true },
    { option_id: 2, is_require: false },
  ]
  it.each([
    [
      'required missing',
      {},
      { customOption_1: 'Field is required.' },
      'Please configure product custom options and fix the validation errors',
    ],
    [
      'required 0',
      { 1: 0 },
      { customOption_1: 'Field is required.' },
      'Please configure product custom options and fix the validation errors',
    ],
    [
      'required false',
      { 1: false },
      { customOption_1: 'Field is required.' },
      'Please configure product custom options and fix the validation errors',
    ],
    ['required filled', { 1: 'Monogram' }, {}, null],
    ['optional empty is fine', { 1: 7, 2: '' }, {}, null],
  ])('%s', (_name, values, errors, productError) => {
    expect(validateCustomOptions(options, values)).toEqual({ errors, productError })
  })

  it('logs unknown rule names and treats them as valid', () => {
    const warn = vi.fn()
    const result = validateCustomOptions([{ option_id: 3, rules: ['sparkly'] }], {}, { warn })
    expect(result).toEqual({ errors: {}, productError: null })
    expect(warn).toHaveBeenCalledWith('Unknown validation rule: sparkly')
  })
})

describe('validateBundleOptions', () => {
  const options = [
    { option_id: 1, required: true },
    { option_id: 2, required: false },
  ]
  const err = 'Please configure product bundle options and fix the validation errors'
  it.each([
    ['valid', { 1: { linkId: 11, qty: 1 } }, {}, null],
    ['qty 0', { 1: { linkId: 11, qty: 0 } }, { bundleOptionQty_1: 'Must be greater than 0' }, err],
    ['qty "0"', { 1: { linkId: 11, qty: '0' } }, { bundleOptionQty_1: 'Must be greater than 0' }, err],
    ['no selection', { 1: { linkId: null, qty: 1 } }, { bundleOption_1: 'Must be greater than 0' }, err],
    [
      'nothing chosen',
      {},
      { bundleOption_1: 'Must be greater than 0', bundleOptionQty_1: 'Must be greater than 0' },
      err,
    ],
    ['optional option may be 0', { 1: { linkId: 11, qty: 2 }, 2: { linkId: null, qty: 0 } }, {}, null],
  ])('%s', (_name, choices, errors, productError) => {
    expect(validateBundleOptions(options, choices)).toEqual({ errors, productError })
  })
})

describe('quantities', () => {
  it.each([
    ['3', 3],
    [' 2 ', 2],
    ['2.7', 2],
    [4, 4],
    ['', Number.NaN],
    ['abc', Number.NaN],
    [null, Number.NaN],
  ])('toQuantity(%j) = %d', (value, expected) => {
    expect(toQuantity(value)).toBe(expected)
  })
  it.each([
    [1, true, true],
    ['2', true, true],
    [0, false, true],
    [-1, false, false],
    ['x', false, false],
  ])('qty %j: grouped %s, bundle %s', (value, grouped, bundle) => {
    expect(isValidGroupedQty(value)).toBe(grouped)
    expect(isValidBundleQty(value)).toBe(bundle)
  })
  it('validateValue returns the first failing message', () => {
    expect(validateValue('', ['required', 'gtzero'])).toBe('Field is required.')
    expect(validateValue(5, ['required', 'gtzero'])).toBeNull()
  })
})

describe('named rules', () => {
  const gt = 'Must be greater than 0'
  it.each([
    ['numeric', '12', null],
    ['numeric', 0, null],
    ['numeric', '-3.5', null],
    ['numeric', '', gt],
    ['numeric', null, gt],
    ['numeric', undefined, gt],
    ['numeric', 'abc', gt],
    ['numeric', Number.POSITIVE_INFINITY, gt],
    ['min1', 1, null],
    ['min1', '2', null],
    ['min1', 0, gt],
    ['min1', 0.5, gt],
    ['min1', '', gt],
    ['min1', 'x', gt],
    ['gtzero', 0.5, null],
    ['gtzero', 0, gt],
    ['gtzero', '-1', gt],
    ['required', 'x', null],
    ['required', '', 'Field is required.'],
  ])('%s(%j) → %j', (rule, value, expected) => {
    expect(validateValue(value, [rule])).toBe(expected)
  })

  it('an unknown rule passes without a logger too', () => {
    expect(validateValue('x', ['sparkly'])).toBeNull()
    expect(validateValue('', ['sparkly', 'required'])).toBe('Field is required.')
  })

  it('configured options log nothing', () => {
    const warn = vi.fn()
    validateCustomOptions(
      [
        { option_id: 1, is_require: true },
        { option_id: 2, is_require: false },
        { option_id: 3, is_require: true, rules: ['numeric'] },
      ],
      { 1: 'x', 3: '4' },
      { warn },
    )
    validateBundleOptions([{ option_id: 1, required: true }], { 1: { linkId: 2, qty: 1 } }, { warn })
    expect(warn).not.toHaveBeenCalled()
  })

  it('extra rules run after required', () => {
    expect(validateCustomOptions([{ option_id: 4, rules: ['min1'] }], { 4: '0' }).errors).toEqual({
      customOption_4: 'Must be greater than 0',
    })
  })

  it('no option list means nothing to validate', () => {
    expect(validateCustomOptions(null, { 1: '' })).toEqual({ errors: {}, productError: null })
    expect(validateBundleOptions(undefined, {})).toEqual({ errors: {}, productError: null })
  })
})

describe('quantities from text fields', () => {
  it.each([
    ['   ', Number.NaN],
    ['\t', Number.NaN],
    [' 3 ', 3],
    ['-2.9', -2],
    ['2.75', 2],
    ['12.5 ', 12],
    [['3'], Number.NaN],
    [{ toString: () => '4' }, Number.NaN],
    [true, Number.NaN],
  ])('toQuantity(%j) = %d', (value, expected) => {
    expect(toQuantity(value)).toBe(expected)
  })
  it.each(['   ', '\n'])('a blank quantity %j is valid for neither a bundle nor a grouped link', (value) => {
    expect(isValidBundleQty(value)).toBe(false)
    expect(isValidGroupedQty(value)).toBe(false)
  })
})
