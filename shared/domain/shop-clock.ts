/**
 * The shop's clock: stored times are UTC ('YYYY-MM-DD HH:MM:SS' or ISO); what the back office
 * shows, filters by, exports and counts as "today" is the wall clock of the shop's time zone (an
 * IANA zone, Asia/Kolkata by default). These convert between the two through the runtime's time
 * zone data (Intl), so any zone works, daylight saving included.
 */

const formatters = new Map<string, Intl.DateTimeFormat>()

function wallFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
    formatters.set(timeZone, f)
  }
  return f
}

/** Whether `timeZone` is an IANA time zone the runtime knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    wallFormatter(timeZone)
    return true
  } catch {
    return false
  }
}

/** The wall clock of `timeZone` at an instant, as numbers. */
function wall(ms: number, timeZone: string) {
  const parts = Object.fromEntries(
    wallFormatter(timeZone)
      .formatToParts(ms)
      .map((p) => [p.type, p.value]),
  ) as Record<string, string>
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  }
}

const pad = (n: number) => String(n).padStart(2, '0')

/** How far `timeZone`'s wall clock is ahead of UTC at an instant (ms). */
function offsetMs(ms: number, timeZone: string): number {
  const w = wall(ms, timeZone)
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(ms / 1000) * 1000
}

/** A stored time ('YYYY-MM-DD HH:MM:SS' in UTC, or ISO with a zone) as ms; null when unreadable. */
export function storedInstant(value: string | number | null | undefined): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  if (!value) return null
  const text = value.trim()
  const utc = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text)
    ? `${text.replace(' ', 'T')}Z`
    : text
  const ms = Date.parse(utc)
  return Number.isNaN(ms) ? null : ms
}

/** The shop's calendar date of an instant: 'YYYY-MM-DD'. */
export function zonedDate(ms: number, timeZone: string): string {
  const w = wall(ms, timeZone)
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`
}

/** The shop's wall-clock time of an instant: 'YYYY-MM-DD HH:MM'. */
export function zonedDateTime(ms: number, timeZone: string): string {
  const w = wall(ms, timeZone)
  return `${w.year}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}`
}

/**
 * The instant a wall-clock time of `timeZone` names: 'YYYY-MM-DD' (its midnight) or
 * 'YYYY-MM-DDTHH:MM[:SS]'. In a daylight-saving gap the clock is read forward; in the repeated hour,
 * the first one. Null when the text is not such a time.
 */
export function zonedWallToInstant(text: string, timeZone: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(text.trim())
  if (!m) return null
  const [y, mo, d, h, mi, sec] = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(
    Number,
  ) as number[]
  if ((h as number) > 23 || (mi as number) > 59 || (sec as number) > 59) return null
  const asUtc = Date.UTC(y as number, (mo as number) - 1, d, h, mi, sec)
  const check = new Date(asUtc)
  // A date the calendar does not have (31 April, month 13) is refused, not rolled over.
  if (check.getUTCFullYear() !== y || check.getUTCMonth() + 1 !== mo || check.getUTCDate() !== d) return null
  // The offset at the guess, then at the corrected instant (they differ only across a change).
  const first = asUtc - offsetMs(asUtc, timeZone)
  const second = asUtc - offsetMs(first, timeZone)
  return Math.min(first, second)
}

/** The instants the shop's calendar day `ymd` spans: [start, end). */
export function zonedDayRange(ymd: string, timeZone: string): { start: number; end: number } {
  const start = zonedWallToInstant(ymd, timeZone)
  if (start === null) throw new RangeError(`not a date YYYY-MM-DD: ${ymd}`)
  const next = new Date(Date.parse(`${ymd}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
  return { start, end: zonedWallToInstant(next, timeZone) as number }
}
