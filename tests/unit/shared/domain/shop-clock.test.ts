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
