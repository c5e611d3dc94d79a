/**
 * GST rules every tax document shares, pure: the financial year and document numbers, which taxes
 * a supply carries (CGST + SGST or UTGST inside the supplier's state, IGST between states, none on
 * an export under a letter of undertaking), splitting a tax amount into its halves, and an amount
 * in words the Indian way (lakh, crore).
 */
import { type GstState, OTHER_COUNTRIES } from './gst-states'

/** Indian Standard Time, the clock of GST law: UTC+05:30 all year (India keeps no daylight saving). */
const IST_OFFSET_MS = 330 * 60_000

/** The calendar date in India of an instant: {year, month 1-12, day}. */
function istParts(ms: number): { year: number; month: number; day: number } {
  const d = new Date(ms + IST_OFFSET_MS)
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() }
}

/** The date in India of an instant as YYYY-MM-DD. */
export function istDate(ms: number): string {
  const { year, month, day } = istParts(ms)
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}

/** The month in India of an instant as YYYY-MM (the tax period a document belongs to). */
export function istMonth(ms: number): string {
  return istDate(ms).slice(0, 7)
}

/** The instants (ms, UTC) a month of India's calendar begins and ends at: [start, end). */
export function istMonthRange(month: string): { start: number; end: number } {
  const m = /^(\d{4})-(\d{2})$/.exec(month)
  if (!m) throw new RangeError(`not a month YYYY-MM: ${month}`)
  const y = Number(m[1])
  const mo = Number(m[2])
  return {
    start: Date.UTC(y, mo - 1, 1) - IST_OFFSET_MS,
    end: Date.UTC(mo === 12 ? y + 1 : y, mo === 12 ? 0 : mo, 1) - IST_OFFSET_MS,
  }
}

/**
 * The financial year (1 April – 31 March, India's calendar) of an instant, as the short form a
 * document number carries: '26-27' for 1 April 2026 – 31 March 2027.
 */
export function financialYear(ms: number): string {
  const { year, month } = istParts(ms)
  const first = month >= 4 ? year : year - 1
  const yy = (n: number) => String(n % 100).padStart(2, '0')
  return `${yy(first)}-${yy(first + 1)}`
}

/** A document series' prefix: 1 to 3 capital letters or digits, so a number stays within 16 characters. */
export const DOCUMENT_PREFIX_RE = /^[A-Z0-9]{1,3}$/

/** The most documents one series numbers in a financial year (six digits). */
const MAX_DOCUMENT_SEQ = 999_999

/**
 * A document number: prefix, financial year and a six-digit serial, 'OA/26-27/000123'. At most 16
 * characters of capital letters, digits, '-' and '/', unique within (and across) financial years.
 */
export function documentNumber(prefix: string, fy: string, seq: number): string {
  if (!DOCUMENT_PREFIX_RE.test(prefix))
    throw new RangeError(`document prefix must match ${DOCUMENT_PREFIX_RE}`)
  if (!/^\d{2}-\d{2}$/.test(fy)) throw new RangeError(`financial year must be YY-YY: ${fy}`)
  if (!Number.isSafeInteger(seq) || seq < 1 || seq > MAX_DOCUMENT_SEQ)
    throw new RangeError(`document serial must be 1-${MAX_DOCUMENT_SEQ}: ${seq}`)
  return `${prefix}/${fy}/${String(seq).padStart(6, '0')}`
}

/** Which taxes a supply carries. */
export type TaxRegime =
  /** Inside the supplier's state: CGST + SGST, half the rate each. */
  | 'cgst_sgst'
  /** Inside the supplier's union territory without a legislature: CGST + UTGST. */
  | 'cgst_utgst'
  /** Between states: IGST at the full rate. */
  | 'igst'
  /** An export under a letter of undertaking: zero-rated, no tax. */
  | 'export_lut'
  /** An export on payment of IGST (no letter of undertaking). */
  | 'export_igst'

/** Where a supply is made: an Indian state (the delivery state for goods that move) or abroad. */
export type PlaceOfSupply = { kind: 'state'; state: GstState } | { kind: 'abroad'; country: string }

/**
 * The taxes of a supply from a supplier registered in `supplier` (IGST Act s. 10(1)(a): goods that
 * move are supplied where the movement ends). Inside the supplier's own state or union territory:
 * CGST with SGST (UTGST in a union territory without a legislature); between states IGST; an
 * export is zero-rated, without tax under a letter of undertaking, else on payment of IGST.
 */
export function taxRegime(supplier: GstState, place: PlaceOfSupply, hasLut: boolean): TaxRegime {
  if (place.kind === 'abroad') return hasLut ? 'export_lut' : 'export_igst'
  if (place.state.code !== supplier.code) return 'igst'
  return supplier.utgst ? 'cgst_utgst' : 'cgst_sgst'
}

/** The place of supply as GST returns write it: '29-Karnataka', '96-Other Countries'. */
export function placeOfSupplyLabel(place: PlaceOfSupply): string {
  return place.kind === 'abroad'
    ? `${OTHER_COUNTRIES.code}-${OTHER_COUNTRIES.name}`
    : `${place.state.code}-${place.state.name}`
}

/** A line's tax in its parts, minor units. */
interface TaxParts {
  cgst: number
  /** SGST, or UTGST under 'cgst_utgst'. */
  sgst: number
  igst: number
}

/**
 * Splits a line's tax into the parts its regime levies. Central and state halves are each half the
 * rate; an odd paisa goes to the central half, so the parts always sum to the tax exactly. An
 * export under a letter of undertaking carries no tax at all.
 */
export function splitTax(taxMinor: number, regime: TaxRegime): TaxParts {
  if (regime === 'igst' || regime === 'export_igst') return { cgst: 0, sgst: 0, igst: taxMinor }
  if (regime === 'export_lut') return { cgst: 0, sgst: 0, igst: 0 }
  const state = Math.floor(taxMinor / 2)
  return { cgst: taxMinor - state, sgst: state, igst: 0 }
}

const ONES = [
  '',
  'One',
  'Two',
  'Three',
  'Four',
  'Five',
  'Six',
  'Seven',
  'Eight',
  'Nine',
  'Ten',
  'Eleven',
  'Twelve',
  'Thirteen',
  'Fourteen',
  'Fifteen',
  'Sixteen',
  'Seventeen',
  'Eighteen',
  'Nineteen',
]
const TENS = ['', '', 'Twenty', 'Thirty', 'Forty', 'Fifty', 'Sixty', 'Seventy', 'Eighty', 'Ninety']

/** 0-99 in words ('' for 0). */
function belowHundred(n: number): string {
  if (n < 20) return ONES[n] as string
  const unit = n % 10
  return `${TENS[Math.floor(n / 10)]}${unit ? ` ${ONES[unit]}` : ''}`
}

/** 0-999 in words ('' for 0). */
function belowThousand(n: number): string {
  const hundreds = Math.floor(n / 100)
  const rest = belowHundred(n % 100)
  return [hundreds ? `${ONES[hundreds]} Hundred` : '', rest].filter(Boolean).join(' ')
}

/** A whole number in words the Indian way: crore, lakh, thousand, hundred ('' for 0). */
export function indianWords(n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`not a whole amount: ${n}`)
  if (n === 0) return ''
  const crore = Math.floor(n / 10_000_000)
  const lakh = Math.floor((n % 10_000_000) / 100_000)
  const thousand = Math.floor((n % 100_000) / 1000)
  const rest = n % 1000
  return [
    crore ? `${crore >= 1000 ? indianWords(crore) : belowThousand(crore)} Crore` : '',
    lakh ? `${belowHundred(lakh)} Lakh` : '',
    thousand ? `${belowHundred(thousand)} Thousand` : '',
    belowThousand(rest),
  ]
    .filter(Boolean)
    .join(' ')
}

/**
 * An amount of rupees in words as an Indian invoice prints it:
 * 22,070,615 paise → 'Rupees Two Lakh Twenty Thousand Seven Hundred Six and Fifteen Paise Only'.
 */
export function rupeesInWords(minor: number): string {
  if (!Number.isSafeInteger(minor) || minor < 0) throw new RangeError(`not an amount in paise: ${minor}`)
  const rupees = Math.floor(minor / 100)
  const paise = minor % 100
  const r = rupees ? `Rupees ${indianWords(rupees)}` : ''
  const p = paise ? `${belowHundred(paise)} Paise` : ''
  if (!r && !p) return 'Rupees Zero Only'
  return `${[r, p].filter(Boolean).join(' and ')} Only`
}
