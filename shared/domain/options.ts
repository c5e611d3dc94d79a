/**
 * Product option validation: custom options ('Field is required.'), bundle
 * options ('Must be greater than 0'), grouped quantities (numeric, min 1). Rules are named as in
 * the VSF option forms; an unknown rule name is logged through the injected logger and passes.
 */
import { MSG } from '../i18n/messages'

interface RuleLogger {
  warn(message: string): void
}

type RuleName = 'required' | 'gtzero' | 'numeric' | 'min1' | (string & {})

/** A required value fails when it is null/undefined, '', false or 0 (an empty list fails too). */
export function isRequiredSatisfied(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0
  return !(value == null || value === '' || value === false || value === 0)
}

const RULES: Record<string, { test: (value: unknown) => boolean; message: string }> = {
  required: { test: isRequiredSatisfied, message: MSG.fieldRequired },
  gtzero: { test: (v) => Number(v) > 0, message: MSG.mustBeGreaterThanZero },
  numeric: {
    test: (v) => v !== '' && v != null && Number.isFinite(Number(v)),
    message: MSG.mustBeGreaterThanZero,
  },
  min1: { test: (v) => Number(v) >= 1, message: MSG.mustBeGreaterThanZero },
}

/** Runs named rules on a value: the first failing rule's message, else null; unknown rules are logged and pass. */
export function validateValue(
  value: unknown,
  rules: readonly RuleName[],
  logger?: RuleLogger,
): string | null {
  for (const name of rules) {
    const rule = RULES[name]
    if (!rule) {
      logger?.warn(`Unknown validation rule: ${name}`)
      continue
    }
    if (!rule.test(value)) return rule.message
  }
  return null
}

interface OptionValidation {
  /** Field errors keyed as VSF did: customOption_{id}, bundleOption_{id}, bundleOptionQty_{id}. */
  errors: Record<string, string>
  /** The product-level error the add-to-cart refuses with, or null when valid. */
  productError: string | null
}

interface CustomOptionRuleFields {
  option_id: number
  is_require?: boolean | null
  /** Extra rule names (tests, future options); unknown ones are logged and pass. */
  rules?: readonly RuleName[]
}

/**
 * Validates custom option values keyed by option_id: required options fail on null, '', false or 0
 * with 'Field is required.'; any failure sets 'Please configure product custom options and fix the validation errors'.
 */
export function validateCustomOptions(
  options: readonly CustomOptionRuleFields[] | null | undefined,
  values: Record<string | number, unknown>,
  logger?: RuleLogger,
): OptionValidation {
  const errors: Record<string, string> = {}
  for (const option of options ?? []) {
    const rules: RuleName[] = [...(option.is_require ? ['required'] : []), ...(option.rules ?? [])]
    const message = validateValue(values[option.option_id], rules, logger)
    if (message) errors[`customOption_${option.option_id}`] = message
  }
  return { errors, productError: Object.keys(errors).length ? MSG.customOptionsError : null }
}

interface BundleOptionRuleFields {
  option_id: number
  required?: boolean | null
}
/** The chosen link id and quantity per bundle option_id. */
type BundleChoice = Record<string | number, { linkId: number | null | undefined; qty: unknown } | undefined>

/**
 * Validates bundle choices: a required option's selection and quantity must be > 0 ('Must be greater
 * than 0'); any failure sets 'Please configure product bundle options and fix the validation errors'.
 */
export function validateBundleOptions(
  options: readonly BundleOptionRuleFields[] | null | undefined,
  choices: BundleChoice,
  logger?: RuleLogger,
): OptionValidation {
  const errors: Record<string, string> = {}
  for (const option of options ?? []) {
    if (!option.required) continue
    const choice = choices[option.option_id]
    const selectionError = validateValue(choice?.linkId, ['gtzero'], logger)
    if (selectionError) errors[`bundleOption_${option.option_id}`] = selectionError
    const qtyError = validateValue(choice?.qty, ['gtzero'], logger)
    if (qtyError) errors[`bundleOptionQty_${option.option_id}`] = qtyError
  }
  return { errors, productError: Object.keys(errors).length ? MSG.bundleOptionsError : null }
}

const DECIMAL_RE = /^\s*-?[0-9]+(\.[0-9]+)?\s*$/

/**
 * "Quantity strings are converted to integers": '3' → 3, '2.7' → 2; NaN for non-numbers. Only
 * decimal notation counts: '0x10', '1e1' or '0b1' are not quantities (NaN), never 16, 10 or 1.
 */
export function toQuantity(value: unknown): number {
  if (typeof value === 'number') return Math.trunc(value)
  if (typeof value === 'string' && DECIMAL_RE.test(value)) return Math.trunc(Number(value))
  return Number.NaN
}

/** Grouped link quantity input: numeric with a minimum of 1. */
export function isValidGroupedQty(value: unknown): boolean {
  const qty = toQuantity(value)
  return Number.isFinite(qty) && qty >= 1
}

/** Bundle quantity input: numeric with a minimum of 0 (required options need > 0, see validateBundleOptions). */
export function isValidBundleQty(value: unknown): boolean {
  const qty = toQuantity(value)
  return Number.isFinite(qty) && qty >= 0
}
