/** Shipping and payment configuration, and what the checkout says about a shipping country. */
import { type CurrencyCode, type DestinationKind, kindOf } from './store'

interface ShippingMethodConfig {
  carrier_code: string
  method_code: string
  carrier_title: string
  method_title: string
  default: boolean
  is_server_method: boolean
}

/**
 * The one shipping method (a single fixed module code); what it costs follows the operator's
 * shipping rules for the destination and the cart (`shippingQuote` in shared/config/shipping.ts).
 */
export const SHIPPING_METHODS: readonly ShippingMethodConfig[] = [
  {
    carrier_code: 'flatrate',
    method_code: 'flatrate',
    carrier_title: 'Courier',
    method_title: 'Standard delivery',
    default: true,
    is_server_method: true,
  },
]
export const DEFAULT_SHIPPING_METHOD = SHIPPING_METHODS[0] as ShippingMethodConfig

export interface PaymentMethodConfig {
  code: string
  title: string
  is_server_method: boolean
  default: boolean
  /** Cash on delivery: "hidden when the cart is entirely virtual or downloadable". */
  requiresShipping?: boolean
  /** The currencies the method's provider charges unless PAYMENT_CURRENCIES says otherwise. */
  currencies: readonly CurrencyCode[]
}

/**
 * "Initial payment methods: PayPal standard and a debit/credit card method, both server methods" +
 * cash on delivery. A method is offered only for the currency the shopper sees, and charges in it:
 * PayPal charges US dollars and pounds; cards, UPI and netbanking (Razorpay) rupees, and the
 * currencies a shop with Razorpay's international payments adds; cash on delivery rupees, in India.
 */
export const PAYMENT_METHODS: readonly PaymentMethodConfig[] = [
  {
    code: 'paypal_standard',
    title: 'PayPal',
    is_server_method: true,
    default: false,
    currencies: ['USD', 'GBP'],
  },
  // Razorpay's window takes UPI, cards, netbanking and wallets: named as shoppers know them.
  {
    code: 'card',
    title: 'UPI, cards, netbanking or wallets',
    is_server_method: true,
    default: false,
    currencies: ['INR'],
  },
  {
    code: 'cashondelivery',
    title: 'Cash On Delivery',
    is_server_method: true,
    default: true,
    requiresShipping: true,
    currencies: ['INR'],
  },
]

/** Which currencies each payment method charges in, by method code (an empty list turns it off). */
export type PaymentCurrencies = Readonly<Record<string, readonly string[]>>

/** The methods' own currencies, as a table. */
export const DEFAULT_PAYMENT_CURRENCIES: PaymentCurrencies = Object.fromEntries(
  PAYMENT_METHODS.map((m) => [m.code, m.currencies]),
)

/**
 * Reads the PAYMENT_CURRENCIES setting: 'card=INR USD GBP; paypal_standard=USD GBP;
 * cashondelivery=' (a method left out keeps its own currencies; one given nothing is off). An
 * unknown method or currency is an error naming it.
 */
export function parsePaymentCurrencies(text: string, known: readonly string[]): PaymentCurrencies {
  const out: Record<string, readonly string[]> = { ...DEFAULT_PAYMENT_CURRENCIES }
  for (const part of text.split(';')) {
    const item = part.trim()
    if (!item) continue
    const m = /^([a-z_]+)\s*=\s*([A-Za-z ,]*)$/.exec(item)
    const method = m?.[1] ?? ''
    if (!m || !PAYMENT_METHODS.some((p) => p.code === method))
      throw new Error(
        `PAYMENT_CURRENCIES: '${item}' is not METHOD=CODES with a method of ${PAYMENT_METHODS.map((p) => p.code).join(', ')}`,
      )
    const codes = (m[2] ?? '')
      .split(/[\s,]+/)
      .filter(Boolean)
      .map((c) => c.toUpperCase())
    const unknown = codes.find((c) => !known.includes(c))
    if (unknown)
      throw new Error(`PAYMENT_CURRENCIES: ${method} names ${unknown}, not one of ${known.join(', ')}`)
    out[method] = codes
  }
  return out
}
export const CASH_ON_DELIVERY_CODE = 'cashondelivery'
/** Days from an order to its estimated delivery: within India, and abroad. */
export const ORDER_DELIVERY_DAYS = { india: 7, abroad: 14 } as const
/** Product types that need no shipping (a cart of only these hides cash on delivery). */
const VIRTUAL_PRODUCT_TYPES = ['virtual', 'downloadable'] as const

/** A PIN code as the courier table holds it: six digits, the first not 0. */
export const PINCODE_RE = /^[1-9][0-9]{5}$/

/** Whether cash on delivery can be asked for at all: an Indian address with a well-formed PIN code. */
export function codAddressEligible(country: string | null | undefined, postcode: string | null | undefined) {
  return (country ?? '').trim().toUpperCase() === 'IN' && PINCODE_RE.test((postcode ?? '').trim())
}

/** Why cash on delivery is refused for an Indian address without a PIN code. */
export const COD_NEEDS_PIN = 'Cash on delivery needs the PIN code of the shipping address.'

/** Why cash on delivery is not offered for an address (null when it is, or when not yet known). */
export function codUnavailableMessage(
  country: string | null | undefined,
  postcode: string | null | undefined,
  serviceable: boolean | null,
): string | null {
  const code = (country ?? '').trim().toUpperCase()
  if (code && code !== 'IN') return 'Cash on delivery is available only for addresses in India.'
  const pin = (postcode ?? '').trim()
  if (serviceable === false && pin) return `Cash on delivery is not available for PIN ${pin}.`
  return null
}

/** What a checkout offers payment methods for. */
interface PaymentContext {
  /** The currency the shopper sees (and is charged in). */
  currency: string
  /** The product types in the cart. */
  typeIds: readonly string[]
  /** The shipping country, once given. */
  country?: string | null
  /** The shipping PIN code, and whether the courier collects cash there (null: not known yet). */
  postcode?: string | null
  codServiceable?: boolean | null
  /** Why the operator's rules refuse cash on delivery for this order (phone, pieces, total), if known. */
  codRefusal?: string | null
  /** The shop's currencies per method (PAYMENT_CURRENCIES). */
  currencies?: PaymentCurrencies
}

/**
 * Why a payment method is not offered for this checkout, in words for the shopper, or null when
 * it is. A method the shop turned off, and cash on delivery for a cart with nothing to deliver,
 * are simply not offered (''); a method that cannot charge the shown currency says which would do.
 */
export function paymentMethodProblem(method: PaymentMethodConfig, ctx: PaymentContext): string | null {
  const currencies = (ctx.currencies ?? DEFAULT_PAYMENT_CURRENCIES)[method.code] ?? method.currencies
  if (currencies.length === 0) return ''
  const allVirtual =
    ctx.typeIds.length > 0 &&
    ctx.typeIds.every((t) => (VIRTUAL_PRODUCT_TYPES as readonly string[]).includes(t))
  if (method.requiresShipping && allVirtual) return ''
  const list = currencies.join(' or ')
  if (!currencies.includes(ctx.currency))
    return `${method.title}: charged in ${list}, not ${ctx.currency}. Choose ${list} as your currency to pay this way.`
  // Cash on delivery: an Indian address whose PIN code the courier serves.
  if (method.code !== CASH_ON_DELIVERY_CODE) return null
  const why = codUnavailableMessage(ctx.country, ctx.postcode, ctx.codServiceable ?? null)
  return why ?? (ctx.codServiceable === false ? COD_NEEDS_PIN : (ctx.codRefusal ?? null))
}

/** The payment methods offered for this checkout (see paymentMethodProblem). */
export function availablePaymentMethods(ctx: PaymentContext): PaymentMethodConfig[] {
  return PAYMENT_METHODS.filter((m) => paymentMethodProblem(m, ctx) === null)
}

/** The methods that are not offered and why, for the shopper to read before the review. */
export function unavailablePaymentMethods(ctx: PaymentContext): { code: string; reason: string }[] {
  return PAYMENT_METHODS.flatMap((m) => {
    const reason = paymentMethodProblem(m, ctx)
    return reason ? [{ code: m.code, reason }] : []
  })
}

/** The countries the shop ships to, as forms list them and sentences name them. */
export const SHIPPING_COUNTRIES: readonly { code: string; name: string }[] = [
  { code: 'IN', name: 'India' },
  { code: 'US', name: 'United States' },
  { code: 'GB', name: 'United Kingdom' },
  { code: 'AE', name: 'United Arab Emirates' },
  { code: 'AU', name: 'Australia' },
  { code: 'CA', name: 'Canada' },
  { code: 'DE', name: 'Germany' },
  { code: 'FR', name: 'France' },
  { code: 'SG', name: 'Singapore' },
]

/** A country by its name ('India', 'United Kingdom'); a code the shop does not list as it is. */
export function countryName(country: string | null | undefined): string {
  const code = (country ?? '').trim().toUpperCase()
  return SHIPPING_COUNTRIES.find((c) => c.code === code)?.name ?? (country ?? '').trim()
}

/** The countries a sentence names with "the" ("the United Kingdom"). */
const NAMED_WITH_THE: readonly string[] = ['US', 'GB', 'AE']

/** A country as a sentence names it ('the United Kingdom', 'France'); an unlisted code as it is. */
export function countryInSentence(country: string): string {
  const code = country.trim().toUpperCase()
  const known = SHIPPING_COUNTRIES.find((c) => c.code === code)
  if (!known) return code
  return NAMED_WITH_THE.includes(code) ? `the ${known.name}` : known.name
}

/** The checkout's sentence for a shipping country, naming it ({country}), as soon as it is chosen. */
const SENTENCES: Readonly<Record<DestinationKind, string>> = {
  home: 'Shipping within India: prices include GST.',
  taxed: 'Shipping to {country}: Indian GST is removed and the taxes of {country} are included.',
  untaxed:
    'Shipping to {country}: Indian GST is removed; import duties and taxes of your country are not included and may be collected on delivery.',
}
const COUNTRY_SENTENCES: Readonly<Record<string, Partial<Record<DestinationKind, string>>>> = {
  GB: { taxed: 'Shipping to {country}: Indian GST is removed and UK VAT is included.' },
  US: {
    untaxed:
      'Shipping to {country}: Indian GST is removed; import duties and sales tax are not included and may be collected on delivery.',
  },
}

/** The sentence about the tax in the prices for a shipping country (see kindOf for `taxed`). */
export function destinationSentence(country: string | null | undefined, taxed?: boolean): string {
  const { code, kind } = kindOf(country, taxed)
  const sentence = COUNTRY_SENTENCES[code]?.[kind] ?? SENTENCES[kind]
  return sentence.replaceAll('{country}', countryInSentence(code))
}
