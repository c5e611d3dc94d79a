/**
 * India's GST state codes and the GSTIN. Every GST document names a state by its two-digit code
 * (the first two digits of a GSTIN registered there) and its name; a union territory without a
 * legislature levies UTGST where a state levies SGST. A GSTIN is 15 characters: the state code, the
 * holder's PAN (5 letters, 4 digits, 1 letter), an entity number (1-9 or A-Z), 'Z' by default, and a
 * check character computed from the first 14 (mod 36).
 */

export interface GstState {
  /** Two-digit GST state code ('29'). */
  code: string
  /** The name GST documents print. */
  name: string
  /** ISO 3166-2:IN subdivision code without the 'IN-' prefix ('KA'). */
  iso: string
  /** A union territory without a legislature: CGST + UTGST instead of CGST + SGST. */
  utgst: boolean
}

const state = (code: string, name: string, iso: string, utgst = false): GstState => ({
  code,
  name,
  iso,
  utgst,
})

/**
 * The states and union territories by GST code. 25 (Daman and Diu) merged into 26 in 2020; 97
 * (Other Territory) is not a place a parcel is delivered to by a shop, and 96 (Other Countries)
 * is the place of supply of an export, not a state.
 */
export const GST_STATES: readonly GstState[] = [
  state('01', 'Jammu and Kashmir', 'JK'),
  state('02', 'Himachal Pradesh', 'HP'),
  state('03', 'Punjab', 'PB'),
  state('04', 'Chandigarh', 'CH', true),
  state('05', 'Uttarakhand', 'UK'),
  state('06', 'Haryana', 'HR'),
  state('07', 'Delhi', 'DL'),
  state('08', 'Rajasthan', 'RJ'),
  state('09', 'Uttar Pradesh', 'UP'),
  state('10', 'Bihar', 'BR'),
  state('11', 'Sikkim', 'SK'),
  state('12', 'Arunachal Pradesh', 'AR'),
  state('13', 'Nagaland', 'NL'),
  state('14', 'Manipur', 'MN'),
  state('15', 'Mizoram', 'MZ'),
  state('16', 'Tripura', 'TR'),
  state('17', 'Meghalaya', 'ML'),
  state('18', 'Assam', 'AS'),
  state('19', 'West Bengal', 'WB'),
  state('20', 'Jharkhand', 'JH'),
  state('21', 'Odisha', 'OD'),
  state('22', 'Chhattisgarh', 'CG'),
  state('23', 'Madhya Pradesh', 'MP'),
  state('24', 'Gujarat', 'GJ'),
  state('26', 'Dadra and Nagar Haveli and Daman and Diu', 'DH', true),
  state('27', 'Maharashtra', 'MH'),
  state('29', 'Karnataka', 'KA'),
  state('30', 'Goa', 'GA'),
  state('31', 'Lakshadweep', 'LD', true),
  state('32', 'Kerala', 'KL'),
  state('33', 'Tamil Nadu', 'TN'),
  state('34', 'Puducherry', 'PY'),
  state('35', 'Andaman and Nicobar Islands', 'AN', true),
  state('36', 'Telangana', 'TS'),
  state('37', 'Andhra Pradesh', 'AP'),
  state('38', 'Ladakh', 'LA', true),
]

/** The place of supply of an export in GST returns. */
export const OTHER_COUNTRIES = { code: '96', name: 'Other Countries' } as const

/** Older or common spellings an address may carry, by the state's GST code. */
const OTHER_NAMES: Readonly<Record<string, readonly string[]>> = {
  '07': ['NCT of Delhi', 'New Delhi', 'National Capital Territory of Delhi'],
  '21': ['Orissa', 'OR'],
  '05': ['Uttaranchal', 'UT'],
  '34': ['Pondicherry'],
  '35': ['Andaman & Nicobar Islands', 'Andaman and Nicobar'],
  '26': ['Dadra and Nagar Haveli', 'Daman and Diu', 'Dadra & Nagar Haveli and Daman & Diu'],
  '01': ['Jammu & Kashmir'],
  // ISO codes before and after their 2023 changes, and the vehicle-registration letters.
  '36': ['TG'],
  '22': ['CT', 'Chattisgarh'],
}

/** Letters and digits only, lower case: 'Tamil  Nadu', 'tamil-nadu' and 'TAMILNADU' read alike. */
const key = (text: string) =>
  text
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]/g, '')

const BY_KEY: ReadonlyMap<string, GstState> = /* @__PURE__ */ (() => {
  const map = new Map<string, GstState>()
  for (const s of GST_STATES) {
    map.set(key(s.name), s)
    map.set(key(s.iso), s)
    map.set(key(`IN-${s.iso}`), s)
    map.set(s.code, s)
    for (const other of OTHER_NAMES[s.code] ?? []) map.set(key(other), s)
  }
  return map
})()

/** The state with this two-digit GST code, or null. */
export function stateByCode(code: string | null | undefined): GstState | null {
  const s = GST_STATES.find((x) => x.code === code)
  return s ?? null
}

/**
 * The state an address's region names: its name (any case, spacing or '&'), an older name
 * ('Orissa', 'Pondicherry'), its ISO code ('KA', 'IN-KA') or its GST code ('29'); null otherwise.
 */
export function stateFromRegion(region: string | null | undefined): GstState | null {
  if (!region) return null
  const trimmed = region.trim()
  if (/^\d{1,2}$/.test(trimmed)) return stateByCode(trimmed.padStart(2, '0'))
  return BY_KEY.get(key(trimmed)) ?? null
}

/**
 * The state of an Indian PIN code, where its leading digits belong to ONE state: the postal
 * circles' prefixes, longest match first. Prefixes shared by two states or territories (Chandigarh
 * and Mohali, Puducherry's enclaves among Tamil Nadu's, Andhra Pradesh's and Kerala's, Daman, Diu,
 * parts of the Uttar Pradesh and Uttarakhand border) are left out: the address must name its state.
 */
const PIN_PREFIXES: Readonly<Record<string, string>> = {
  '11': '07',
  '12': '06',
  '13': '06',
  '14': '03',
  '15': '03',
  '17': '02',
  '18': '01',
  '190': '01',
  '191': '01',
  '192': '01',
  '193': '01',
  '194': '38',
  '20': '09',
  '21': '09',
  '22': '09',
  '23': '09',
  '240': '09',
  '241': '09',
  '242': '09',
  '243': '09',
  '245': '09',
  '248': '05',
  '249': '05',
  '25': '09',
  '263': '05',
  '27': '09',
  '28': '09',
  '30': '08',
  '31': '08',
  '32': '08',
  '33': '08',
  '34': '08',
  '360': '24',
  '361': '24',
  '363': '24',
  '364': '24',
  '365': '24',
  '366': '24',
  '367': '24',
  '368': '24',
  '369': '24',
  '37': '24',
  '38': '24',
  '390': '24',
  '391': '24',
  '392': '24',
  '393': '24',
  '394': '24',
  '395': '24',
  '40': '27',
  '403': '30',
  '41': '27',
  '42': '27',
  '43': '27',
  '44': '27',
  '45': '23',
  '46': '23',
  '47': '23',
  '48': '23',
  '49': '22',
  '50': '36',
  '51': '37',
  '52': '37',
  '530': '37',
  '531': '37',
  '532': '37',
  '534': '37',
  '535': '37',
  '56': '29',
  '57': '29',
  '58': '29',
  '59': '29',
  '600': '33',
  '601': '33',
  '602': '33',
  '603': '33',
  '604': '33',
  '606': '33',
  '607': '33',
  '608': '33',
  '61': '33',
  '62': '33',
  '63': '33',
  '64': '33',
  '670': '32',
  '671': '32',
  '672': '32',
  '674': '32',
  '675': '32',
  '676': '32',
  '677': '32',
  '678': '32',
  '679': '32',
  '680': '32',
  '681': '32',
  '682': '32',
  '683': '32',
  '684': '32',
  '685': '32',
  '686': '32',
  '687': '32',
  '688': '32',
  '689': '32',
  '68255': '31',
  '69': '32',
  '70': '19',
  '71': '19',
  '72': '19',
  '73': '19',
  '737': '11',
  '74': '19',
  '744': '35',
  '75': '21',
  '76': '21',
  '77': '21',
  '78': '18',
  '790': '12',
  '791': '12',
  '792': '12',
  '793': '17',
  '794': '17',
  '795': '14',
  '796': '15',
  '797': '13',
  '798': '13',
  '799': '16',
  '80': '10',
  '810': '10',
  '811': '10',
  '812': '10',
  '813': '10',
  '814': '20',
  '815': '20',
  '816': '20',
  '821': '10',
  '822': '20',
  '823': '20',
  '824': '20',
  '825': '20',
  '826': '20',
  '827': '20',
  '828': '20',
  '829': '20',
  '83': '20',
  '84': '10',
  '85': '10',
}

/** The state of a six-digit Indian PIN code where its prefix belongs to one state; null otherwise. */
export function stateFromPincode(pin: string | null | undefined): GstState | null {
  const digits = (pin ?? '').replace(/\s+/g, '')
  if (!/^[1-9][0-9]{5}$/.test(digits)) return null
  // The longest prefix the table knows wins ('68255' Lakshadweep inside Kerala's '682').
  const code = [5, 4, 3, 2].map((n) => PIN_PREFIXES[digits.slice(0, n)]).find(Boolean)
  return code ? stateByCode(code) : null
}

const GSTIN_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'
/** State code, PAN (AAAAA9999A), entity number, 'Z' or another letter/digit, check character. */
const GSTIN_RE = /^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z][A-Z0-9][0-9A-Z]$/

/**
 * The check character of a GSTIN's first 14 characters: each character's value (0-9, A-Z = 10-35)
 * times 1 or 2 alternately, each product folded to (product div 36 + product mod 36), summed; the
 * check value is (36 − sum mod 36) mod 36.
 */
export function gstinCheckChar(first14: string): string {
  let sum = 0
  for (let i = 0; i < 14; i++) {
    const value = GSTIN_CHARS.indexOf(first14.charAt(i))
    const product = value * (i % 2 === 0 ? 1 : 2)
    sum += Math.floor(product / 36) + (product % 36)
  }
  return GSTIN_CHARS.charAt((36 - (sum % 36)) % 36)
}

/** A GSTIN written the canonical way: upper case, without spaces. */
export function normaliseGstin(text: string | null | undefined): string {
  return (text ?? '').toUpperCase().replace(/\s+/g, '')
}

/**
 * Why a GSTIN is not valid (a sentence a person can act on), or null when it is: its shape, its
 * state code, and its check character.
 */
export function gstinProblem(text: string | null | undefined): string | null {
  const gstin = normaliseGstin(text)
  if (!GSTIN_RE.test(gstin))
    return 'a GSTIN is 15 characters: a 2-digit state code, a 10-character PAN, an entity number, a letter and a check character'
  if (!stateByCode(gstin.slice(0, 2)) && gstin.slice(0, 2) !== '97')
    return `a GSTIN starts with a state code, and ${gstin.slice(0, 2)} is not one`
  if (gstinCheckChar(gstin.slice(0, 14)) !== gstin.charAt(14))
    return 'its last character does not match the rest (a typing mistake?)'
  return null
}
