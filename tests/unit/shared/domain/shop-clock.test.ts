import { describe, expect, it } from 'vitest'
import {
  isTimeZone,
  storedInstant,
  zonedDate,
  zonedDateTime,
  zonedDayRange,
  zonedWallToInstant,
} from '../../../../shared/domain/shop-clock'

const IST = 'Asia/Kolkata'

describe('the shop’s clock', () => {
  it('reads stored UTC times on India’s wall clock, the day changing at 00:00 IST', () => {
    // 18:40 UTC on 28 November is 00:10 IST on 29 November.
    const ms = storedInstant('2026-11-28 18:40:00') as number
    expect(ms).toBe(Date.UTC(2026, 10, 28, 18, 40))
    expect(zonedDate(ms, IST)).toBe('2026-11-29')
    expect(zonedDateTime(ms, IST)).toBe('2026-11-29 00:10')
    expect(zonedDateTime(ms, 'UTC')).toBe('2026-11-28 18:40')
    expect(storedInstant('2026-11-28T18:40:00.000Z')).toBe(ms)
    expect(storedInstant('not a date')).toBeNull()
    expect(storedInstant(null)).toBeNull()
  })

  it('spans a shop day from its midnight to the next', () => {
    expect(zonedDayRange('2026-11-29', IST)).toEqual({
      start: Date.UTC(2026, 10, 28, 18, 30),
      end: Date.UTC(2026, 10, 29, 18, 30),
    })
    expect(zonedDayRange('2026-12-31', IST).end).toBe(Date.UTC(2026, 11, 31, 18, 30))
    expect(() => zonedDayRange('2026-02-30', IST)).toThrow(RangeError)
  })

  it('turns a time entered on the shop’s clock into the instant it names', () => {
    expect(zonedWallToInstant('2026-12-01T09:30', IST)).toBe(Date.UTC(2026, 11, 1, 4, 0))
    expect(zonedWallToInstant('2026-12-01', IST)).toBe(Date.UTC(2026, 10, 30, 18, 30))
    expect(zonedWallToInstant('2026-13-01', IST)).toBeNull()
    expect(zonedWallToInstant('yesterday', IST)).toBeNull()
  })

  it('follows a zone with daylight saving through its changes', () => {
    // London: 29 March 2026 01:00 GMT → 02:00 BST; a BST day is 23 hours long that day.
    const { start, end } = zonedDayRange('2026-03-29', 'Europe/London')
    expect(start).toBe(Date.UTC(2026, 2, 29, 0, 0))
    expect(end - start).toBe(23 * 3_600_000)
    expect(zonedWallToInstant('2026-07-01T12:00', 'Europe/London')).toBe(Date.UTC(2026, 6, 1, 11, 0))
  })

  it('knows an IANA zone from a typo', () => {
    expect(isTimeZone('Asia/Kolkata')).toBe(true)
    expect(isTimeZone('Asia/Calcutta')).toBe(true)
    expect(isTimeZone('India/Delhi')).toBe(false)
    expect(isTimeZone('')).toBe(false)
  })
})

describe('the shop’s clock read from a kept offset', () => {
  /** The wall clock as Intl gives it, 'YYYY-MM-DD HH:MM' (Swedish dates are written that way). */
  const intl = (ms: number, timeZone: string) =>
    new Date(ms).toLocaleString('sv-SE', { timeZone, hourCycle: 'h23' }).slice(0, 16)
  // Zones with daylight saving (London, New York, Lord Howe's half hour, Chatham's 12:45), with
  // offsets of a half and three quarters of an hour (St John's, Kathmandu), and India.
  const zones = [
    'Asia/Kolkata',
    'Europe/London',
    'America/New_York',
    'Australia/Lord_Howe',
    'Pacific/Chatham',
    'America/St_Johns',
    'Asia/Kathmandu',
  ]
  // Each zone's changes in 2026: the days whose offset changes, then the quarter hour in the day.
  const changes = (timeZone: string) => {
    const out: number[] = []
    const offset = (ms: number) => Date.parse(`${intl(ms, timeZone).replace(' ', 'T')}:00Z`) - ms
    const DAY = 86_400_000
    const STEP = 15 * 60_000
    for (let day = Date.UTC(2026, 0, 1); day < Date.UTC(2027, 0, 1); day += DAY) {
      if (offset(day) === offset(day + DAY)) continue
      for (let ms = day; ms < day + DAY; ms += STEP) if (offset(ms) !== offset(ms + STEP)) out.push(ms + STEP)
    }
    return out
  }

  it('gives what Intl gives at every instant, asked again and again, across each zone’s changes', () => {
    for (const zone of zones) {
      const instants: number[] = []
      for (const change of changes(zone))
        for (let d = -20 * 60_000; d <= 20 * 60_000; d += 29_000) instants.push(change + d)
      // Ordinary moments, each asked twice in a row (the second from the kept offset).
      for (let ms = Date.UTC(2026, 10, 28, 18, 0); ms < Date.UTC(2026, 10, 28, 20, 0); ms += 61_001)
        instants.push(ms, ms)
      for (const ms of [...instants, ...instants.reverse()]) {
        expect(zonedDateTime(ms, zone), `${zone} at ${new Date(ms).toISOString()}`).toBe(intl(ms, zone))
      }
      // Time entered on the wall clock, turned into the instant and back.
      for (const ms of instants.filter((_, i) => i % 7 === 0)) {
        const shown = zonedDateTime(ms, zone)
        const back = zonedWallToInstant(shown.replace(' ', 'T'), zone) as number
        expect(zonedDateTime(back, zone)).toBe(shown)
      }
    }
    // London's two changes and Lord Howe's half-hour ones were among those read.
    expect(changes('Europe/London')).toHaveLength(2)
    expect(changes('Australia/Lord_Howe')).toHaveLength(2)
  })
})

describe('a time entered on the shop’s clock next to a change', () => {
  it('reads a time in the spring gap forward, and the repeated autumn hour as its first', () => {
    // London: 29 March 2026, 01:00 GMT → 02:00 BST; 01:30 does not exist and is read as 02:30 BST.
    expect(zonedWallToInstant('2026-03-29T01:30', 'Europe/London')).toBe(Date.UTC(2026, 2, 29, 1, 30))
    expect(zonedDateTime(Date.UTC(2026, 2, 29, 1, 30), 'Europe/London')).toBe('2026-03-29 02:30')
    // 25 October 2026, 02:00 BST → 01:00 GMT: 01:30 happens twice; the first is 00:30 UTC.
    expect(zonedWallToInstant('2026-10-25T01:30', 'Europe/London')).toBe(Date.UTC(2026, 9, 25, 0, 30))
  })

  it('finds the instant in a zone twelve hours and more ahead of UTC on the day it changes', () => {
    // Chatham: 27 September 2026, 02:45 (+12:45) → 03:45 (+13:45); 02:44 is 13:59 UTC the day before.
    expect(zonedWallToInstant('2026-09-27T02:44', 'Pacific/Chatham')).toBe(Date.UTC(2026, 8, 26, 13, 59))
    expect(zonedWallToInstant('2026-09-27T04:00', 'Pacific/Chatham')).toBe(Date.UTC(2026, 8, 26, 14, 15))
  })
})
