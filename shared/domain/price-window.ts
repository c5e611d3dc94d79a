/**
 * A catalogue price at a moment: the special price and its date window, the final (charged) price
 * before options, and the discount percent. `now` is a parameter (ms epoch or Date).
 *
 * Date window: special_from_date / special_to_date are Magento date strings ('YYYY-MM-DD' or
 * 'YYYY-MM-DD HH:MM:SS', read as UTC) or ISO strings; a bound given as a bare date or at midnight
 * covers that whole day (Magento treats both bounds as inclusive days). A missing bound is open.
 * The backend's `final_price` field is not trusted for the window: final = active special ?? price.
 */

export type Now = number | Date

export interface PriceFields {
  price?: number | null
  special_price?: number | null
  special_from_date?: string | null
  special_to_date?: string | null
}

const DAY_MS = 86_400_000

function toMs(now: Now): number {
  return typeof now === 'number' ? now : now.getTime()
}

/**
 * Dates already parsed, by their text: a catalogue repeats a few special-price dates on thousands
 * of variants, and a listing prices every variant of every tile. Texts over DATE_TEXT_MAX
 * characters are not kept, and the map is emptied when it holds PARSED_DATES_MAX, so it stays
 * under 100 KB. A date's text always parses to the same instant, so a kept value is exact.
 */
const parsedDates = new Map<string, number | null>()
const PARSED_DATES_MAX = 512
const DATE_TEXT_MAX = 40

/** Parses a Magento/ISO date string to ms epoch (UTC when no zone is given), or null when unparseable. */
export function parseCatalogDate(value: string | null | undefined): number | null {
  if (!value) return null
  const held = parsedDates.get(value)
  if (held !== undefined) return held
  const ms = parseDateText(value)
  if (value.length <= DATE_TEXT_MAX) {
    if (parsedDates.size >= PARSED_DATES_MAX) parsedDates.clear()
    parsedDates.set(value, ms)
  }
  return ms
}

function parseDateText(value: string): number | null {
  const trimmed = value.trim()
  // Zone-less catalogue dates ('2027-03-15', '2027-3-5 10:00:00.000', '2027/03/15') are UTC, so the
  // server and every shopper's browser agree on whether a window is open whatever their time zone.
  const m =
    /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?$/.exec(
      trimmed,
    )
  if (m) {
    return Date.UTC(
      Number(m[1]),
      Number(m[2]) - 1,
      Number(m[3]),
      Number(m[4] ?? 0),
      Number(m[5] ?? 0),
      Number(m[6] ?? 0),
      Number((m[7] ?? '0').padEnd(3, '0')),
    )
  }
  // Anything else is read only when it names its zone; a form the runtime would read in local time
  // is refused rather than read differently on the server and in the browser.
  if (!/(?:Z|[+-]\d{2}:?\d{2})$/i.test(trimmed)) return null
  const ms = Date.parse(trimmed)
  return Number.isNaN(ms) ? null : ms
}

/** The instants [from, until) around `now` over which every window answer given so far stays the same. */
interface SteadySpan {
  from: number
  until: number
}

/** The span being narrowed by the window answers of the computation under way (see steadyOver). */
let narrowing: SteadySpan | null = null

/**
 * `compute()` with the span of time around its `now` over which its result is the same: every
 * window answer it asks for narrows the span to the instants that give the same answer. Time
 * enters prices only through date windows, so a price computed at `now` is exact for any instant
 * of [from, until): a value kept with its span is reused within it and computed again outside.
 */
export function steadyOver<T>(compute: () => T): { value: T } & SteadySpan {
  const outer = narrowing
  const span: SteadySpan = { from: Number.NEGATIVE_INFINITY, until: Number.POSITIVE_INFINITY }
  narrowing = span
  try {
    return { value: compute(), ...span }
  } finally {
    narrowing = outer
    if (outer) {
      outer.from = Math.max(outer.from, span.from)
      outer.until = Math.min(outer.until, span.until)
    }
  }
}

/** The answer holds from `at` on (records it on the span under way). */
function sameFrom(at: number): void {
  if (narrowing && at > narrowing.from) narrowing.from = at
}

/** The answer holds until just before `at`. */
function sameUntil(at: number): void {
  if (narrowing && at < narrowing.until) narrowing.until = at
}

/** Whether `now` lies within [from, to]; a bound at midnight (or a bare date) as `to` covers that whole day. */
export function isWithinDateWindow(
  from: string | null | undefined,
  to: string | null | undefined,
  now: Now,
): boolean {
  const t = toMs(now)
  const fromMs = parseCatalogDate(from)
  if (from && fromMs === null) return false
  if (fromMs !== null) {
    if (t < fromMs) {
      sameUntil(fromMs)
      return false
    }
    sameFrom(fromMs)
  }
  const toMsRaw = parseCatalogDate(to)
  if (to && toMsRaw === null) return false
  if (toMsRaw !== null) {
    const end = toMsRaw % DAY_MS === 0 ? toMsRaw + DAY_MS - 1 : toMsRaw
    if (t > end) {
      sameFrom(end + 1)
      return false
    }
    sameUntil(end + 1)
  }
  return true
}

/** The special price when it is > 0, below the regular price and `now` is in its window; else 0 (an inactive special price counts as 0). */
export function effectiveSpecialPrice(p: PriceFields, now: Now): number {
  const special = p.special_price ?? 0
  const regular = p.price ?? 0
  if (!(special > 0) || !(special < regular)) return 0
  return isWithinDateWindow(p.special_from_date, p.special_to_date, now) ? special : 0
}

/** True when the special price applies now (see effectiveSpecialPrice). */
export function hasSpecialPrice(p: PriceFields, now: Now): boolean {
  return effectiveSpecialPrice(p, now) > 0
}

/** The price actually charged (excl. tax, before options): the active special price, else the regular price. */
export function finalPrice(p: PriceFields, now: Now): number {
  return effectiveSpecialPrice(p, now) || (p.price ?? 0)
}

/** The original (regular) price before any special price: price, or 0 when unknown. */
export function originalPrice(p: PriceFields): number {
  return p.price ?? 0
}

/** Discount percent of `final` against `regular`, rounded to a whole number; 0 when not lower. */
export function discountPercent(regular: number, final: number): number {
  if (!(regular > 0) || !(final < regular)) return 0
  return Math.round(((regular - final) / regular) * 100)
}
