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

type Wall = { year: number; month: number; day: number; hour: number; minute: number; second: number }

/** The wall clock of `timeZone` at an instant, as the runtime's time zone data gives it. */
function intlWall(ms: number, timeZone: string): Wall {
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

/** The stretch of UTC whose offset is checked at its two ends and then kept (a quarter hour). */
const STRETCH_MS = 15 * 60_000
/** Instants whose wall clock is worked out from a kept offset: 1970 to 9999 (four-digit years). */
const KEPT_FROM = 0
const KEPT_UNTIL = Date.UTC(9999, 11, 31)

/**
 * Per zone, the last quarter hour of UTC asked about, and its offset once it has been asked about
 * twice and the offset is the same at its first and last second: no zone changes its offset twice
 * within fifteen minutes, so it is that offset throughout, and an instant in it is read with
 * arithmetic instead of Intl (every product page asks for the shop's date of the same moment). A
 * quarter hour asked about once costs one Intl reading, as before (a list of times far apart), and
 * one in which the offset changes is always read through Intl. One entry per zone, like the
 * formatters: only zones the runtime knows get one.
 */
const keptOffsets = new Map<string, { from: number; offset: number | 'asked once' | 'changes' }>()

/** The wall clock of `timeZone` at an instant, as numbers. */
function wall(ms: number, timeZone: string): Wall {
  if (!(ms >= KEPT_FROM && ms < KEPT_UNTIL)) return intlWall(ms, timeZone)
  const from = Math.floor(ms / STRETCH_MS) * STRETCH_MS
  const kept = keptOffsets.get(timeZone)
  if (kept?.from !== from) {
    // Read first: a zone the runtime does not know throws here and keeps nothing.
    const read = intlWall(ms, timeZone)
    keptOffsets.set(timeZone, { from, offset: 'asked once' })
    return read
  }
  if (kept.offset === 'asked once') {
    const offset = offsetAt(from, intlWall(from, timeZone))
    const last = from + STRETCH_MS - 1000
    kept.offset = offsetAt(last, intlWall(last, timeZone)) === offset ? offset : 'changes'
  }
  if (kept.offset === 'changes') return intlWall(ms, timeZone)
  const d = new Date(Math.floor(ms / 1000) * 1000 + kept.offset)
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  }
}

/** How far a wall clock `w` read at instant `ms` is ahead of UTC (ms). */
function offsetAt(ms: number, w: Wall): number {
  return Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second) - Math.floor(ms / 1000) * 1000
}

const pad = (n: number) => String(n).padStart(2, '0')

/** How far `timeZone`'s wall clock is ahead of UTC at an instant (ms). */
function offsetMs(ms: number, timeZone: string): number {
  return offsetAt(ms, wall(ms, timeZone))
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
  // The instant lies within 14 hours before and 12 after the same clock reading in UTC (offsets run
  // from -12:00 to +14:00), and no zone changes its offset twice in that day: the offsets before,
  // at and after the guess are every one the reading can have been made at. A reading made at one
  // of them names an instant that has it; two such instants are the repeated hour (the first is
  // taken); none is a gap, read forward with the offset from before it.
  const before = offsetMs(asUtc - 15 * 3_600_000, timeZone)
  const offsets = new Set([before, offsetMs(asUtc, timeZone), offsetMs(asUtc + 13 * 3_600_000, timeZone)])
  const named = [...offsets].map((o) => asUtc - o).filter((t) => asUtc - offsetMs(t, timeZone) === t)
  return named.length > 0 ? Math.min(...named) : asUtc - before
}

/** The instants the shop's calendar day `ymd` spans: [start, end). */
export function zonedDayRange(ymd: string, timeZone: string): { start: number; end: number } {
  const start = zonedWallToInstant(ymd, timeZone)
  if (start === null) throw new RangeError(`not a date YYYY-MM-DD: ${ymd}`)
  const next = new Date(Date.parse(`${ymd}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
  return { start, end: zonedWallToInstant(next, timeZone) as number }
}
