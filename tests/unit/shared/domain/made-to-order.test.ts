import { describe, expect, it } from 'vitest'
import { madeToOrderLeadDays, madeToOrderNote, shipsByDate } from '../../../../shared/domain/made-to-order'

const IST = 'Asia/Kolkata'
/** An instant given as India's wall clock (IST is UTC+05:30 all year). */
const ist = (ymd: string, hm: string) => Date.parse(`${ymd}T${hm}:00+05:30`)

describe('the ships-by date of a piece made to order', () => {
  it('counts working days Monday to Saturday, stepping over a Sunday', () => {
    // Thursday 10 December 2026 + 4 working days: Fri 11, Sat 12, (Sun 13), Mon 14, Tue 15.
    expect(shipsByDate(ist('2026-12-10', '10:00'), 4, IST)).toBe('2026-12-15')
    expect(madeToOrderNote('2026-12-15')).toBe('Made to order — ships by Tue, 15 Dec')
    // Saturday + 1 working day is Monday; a Sunday order counts from that Sunday.
    expect(shipsByDate(ist('2026-12-12', '12:00'), 1, IST)).toBe('2026-12-14')
    expect(shipsByDate(ist('2026-12-13', '12:00'), 1, IST)).toBe('2026-12-14')
    expect(shipsByDate(ist('2026-12-13', '12:00'), 6, IST)).toBe('2026-12-19')
    expect(shipsByDate(ist('2026-12-13', '12:00'), 7, IST)).toBe('2026-12-21')
  })

  it('starts from the date in India: the day turns at midnight IST, not UTC', () => {
    // 23:59 IST on Wednesday 9 December (18:29 UTC) is still the 9th: Thu, Fri, Sat, Mon.
    expect(shipsByDate(Date.UTC(2026, 11, 9, 18, 29), 4, IST)).toBe('2026-12-14')
    // 00:00 IST on Thursday 10 December is 18:30 UTC on the 9th: the count starts a day later.
    expect(shipsByDate(Date.UTC(2026, 11, 9, 18, 30), 4, IST)).toBe('2026-12-15')
    // Midnight IST into a Sunday: Saturday 23:59 + 1 is Monday, and so is Sunday 00:00 + 1.
    expect(shipsByDate(ist('2026-12-12', '23:59'), 1, IST)).toBe('2026-12-14')
    expect(shipsByDate(ist('2026-12-13', '00:00'), 1, IST)).toBe('2026-12-14')
  })

  it('runs across a month and a year', () => {
    expect(shipsByDate(ist('2026-12-31', '09:00'), 2, IST)).toBe('2027-01-02')
    expect(madeToOrderNote('2027-01-02')).toBe('Made to order — ships by Sat, 2 Jan')
    expect(shipsByDate(ist('2026-11-28', '09:00'), 3, IST)).toBe('2026-12-02')
  })
})

describe('which pieces are made to order', () => {
  it.each([
    ['a lead time and no ready-to-ship units', { delivery_days: 14, rts_qty: null }, false, 14],
    ['a lead time with ready-to-ship units ships from stock', { delivery_days: 5, rts_qty: 3 }, false, null],
    ['listed: made to order even with ready-to-ship units', { delivery_days: 5, rts_qty: 3 }, true, 5],
    ['no lead time', { delivery_days: null }, false, null],
    ['listed without a lead time has no date', { delivery_days: null }, true, null],
    ['a zero lead time (a gift card)', { delivery_days: 0 }, false, null],
    ['a negative lead time', { delivery_days: -3 }, false, null],
    ['a lead time that is not a number', { delivery_days: Number.NaN }, false, null],
    ['a fractional lead time rounds', { delivery_days: 6.6 }, false, 7],
  ])('%s', (_, piece, listed, days) => {
    expect(madeToOrderLeadDays(piece, listed)).toBe(days)
  })
})
