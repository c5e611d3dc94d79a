/**
 * The API's refusals as a shopper reads them. The API answers a bad request with a developer's
 * sentence: `Invalid <what>: <field path>: <validator detail>` (`Invalid request body:
 * addressInformation.shipping_address.street.0: Too big: expected string to have <=255
 * characters`). A page never shows that: the field is named in words and the detail said as a
 * person would ("The street address is too long: at most 255 characters."); a detail that already
 * is a sentence for a person is kept without the path; anything else becomes `fallback`.
 */

/** What a refusal whose detail cannot be said in words becomes. */
export const CHECK_THE_FORM =
  'Some details could not be accepted. Please check what you entered and try again.'

/** Field names by the last word of an API path. */
const FIELD_WORDS: Readonly<Record<string, string>> = {
  street: 'The street address',
  city: 'The city',
  postcode: 'The PIN code or postcode',
  zip: 'The PIN code or postcode',
  region: 'The state',
  region_code: 'The state',
  country_id: 'The country',
  telephone: 'The phone number',
  firstname: 'The first name',
  lastname: 'The last name',
  email: 'The e-mail address',
  company: 'The company name',
  vat_id: 'The GSTIN',
  coupon: 'The discount code',
  code: 'The code',
  qty: 'The quantity',
  message: 'The message',
  name: 'The name',
}

/** The field a path names, in words ('addressInformation.shipping_address.street.0' → street). */
function fieldOf(path: string): string | null {
  const words = path.split('.').filter((p) => !/^\d+$/.test(p))
  const last = words[words.length - 1] ?? ''
  return FIELD_WORDS[last] ?? null
}

/** The longest or shortest a validator's detail names ('<=255', 'at most 64'), if it does. */
function bound(detail: string): { kind: 'long' | 'short'; n: number } | null {
  const big = /(?:Too big|too long|at most)\D*?(?:<=\s*)?(\d+)/i.exec(detail)
  if (big) return { kind: 'long', n: Number(big[1]) }
  const small = /(?:Too small|too short|at least)\D*?(?:>=\s*)?(\d+)/i.exec(detail)
  if (small) return { kind: 'short', n: Number(small[1]) }
  return null
}

/** What a shopper reads for an API's refusal text (see the module's note). */
export function shopperMessage(text: string | null | undefined, fallback: string): string {
  const t = (text ?? '').trim()
  if (!t || t.length > 500) return fallback
  const m = /^Invalid [^:]{1,40}: ([A-Za-z_][\w.[\]]*): (.+)$/s.exec(t)
  if (!m) return /^Invalid [^:]{1,40}:/.test(t) ? fallback : t
  const [, path = '', detail = ''] = m
  const field = fieldOf(path)
  const b = bound(detail)
  if (field && b && /number/i.test(detail))
    return b.kind === 'long' ? `${field} can be at most ${b.n}.` : `${field} must be at least ${b.n}.`
  if (field && b)
    return b.kind === 'long'
      ? `${field} is too long: at most ${b.n} characters.`
      : `${field} is too short: at least ${b.n} characters.`
  if (field && /required|missing|expected string, received undefined/i.test(detail))
    return `${field} is missing.`
  // A detail written for a person: a sentence without the validator's own vocabulary.
  const sentence = detail.replace(/\s*\(offered: [^)]*\)$/, '').trim()
  if (
    !/expected|received|invalid input|too big|too small|regex|enum|NaN/i.test(sentence) &&
    /[a-z]{3}/.test(sentence)
  ) {
    const s = sentence.charAt(0).toUpperCase() + sentence.slice(1)
    return /[.!?]$/.test(s) ? s : `${s}.`
  }
  return field ? `${field} is not valid. Please check it.` : fallback
}
