import { describe, expect, it } from 'vitest'
import {
  documentNumber,
  financialYear,
  indianWords,
  istDate,
  istMonth,
  istMonthRange,
  placeOfSupplyLabel,
  rupeesInWords,
  splitTax,
  taxRegime,
} from '../../../../shared/domain/gst'
import { GST_STATES, stateByCode } from '../../../../shared/domain/gst-states'

/** An instant given as India's wall clock (UTC+05:30). */
const ist = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0) =>
  Date.UTC(y, mo - 1, d, h, mi, s) - 330 * 60_000

describe('the financial year and the date of a document are India’s', () => {
  it('moves to the next financial year at 1 April 00:00 IST, not at midnight UTC', () => {
    expect(financialYear(ist(2026, 3, 31, 23, 59, 59))).toBe('25-26')
    expect(financialYear(ist(2026, 4, 1, 0, 0, 0))).toBe('26-27')
    // 1 April 00:30 IST is still 31 March in UTC.
    expect(new Date(ist(2026, 4, 1, 0, 30)).getUTCDate()).toBe(31)
    expect(financialYear(ist(2026, 4, 1, 0, 30))).toBe('26-27')
    expect(financialYear(ist(2027, 1, 15))).toBe('26-27')
    expect(financialYear(ist(2099, 12, 31))).toBe('99-00')
  })

  it('dates a document by India’s calendar day and month', () => {
    expect(istDate(ist(2026, 3, 31, 23, 59))).toBe('2026-03-31')
    expect(istDate(ist(2026, 4, 1, 0, 1))).toBe('2026-04-01')
    expect(istMonth(ist(2026, 4, 1, 5, 0))).toBe('2026-04')
    expect(istDate(Date.UTC(2026, 3, 30, 19, 0))).toBe('2026-05-01')
  })

  it('gives the instants a month of India’s calendar spans', () => {
    const { start, end } = istMonthRange('2026-04')
    expect(start).toBe(ist(2026, 4, 1))
    expect(end).toBe(ist(2026, 5, 1))
    expect(istMonthRange('2026-12').end).toBe(ist(2027, 1, 1))
    expect(() => istMonthRange('2026-4')).toThrow(RangeError)
  })
})

describe('document numbers', () => {
  it('are prefix/year/serial within 16 characters of the allowed set', () => {
    const n = documentNumber('OA', '26-27', 123)
    expect(n).toBe('OA/26-27/000123')
    const longest = documentNumber('ABC', '26-27', 999_999)
    expect(longest.length).toBeLessThanOrEqual(16)
    expect(longest).toMatch(/^[A-Za-z0-9/-]{1,16}$/)
  })

  it('restart their serial in each financial year and stay unique across years', () => {
    const march = documentNumber('OA', financialYear(ist(2026, 3, 31, 23, 59)), 4210)
    const april = documentNumber('OA', financialYear(ist(2026, 4, 1, 0, 0)), 1)
    expect(march).toBe('OA/25-26/004210')
    expect(april).toBe('OA/26-27/000001')
    expect(documentNumber('OA', '26-27', 4210)).not.toBe(march)
  })

  it('refuse a prefix, year or serial that would break the format', () => {
    expect(() => documentNumber('ABCD', '26-27', 1)).toThrow(RangeError)
    expect(() => documentNumber('oa', '26-27', 1)).toThrow(RangeError)
    expect(() => documentNumber('O/', '26-27', 1)).toThrow(RangeError)
    expect(() => documentNumber('OA', '2026-27', 1)).toThrow(RangeError)
    expect(() => documentNumber('OA', '26-27', 0)).toThrow(RangeError)
    expect(() => documentNumber('OA', '26-27', 1_000_000)).toThrow(RangeError)
    expect(() => documentNumber('OA', '26-27', 1.5)).toThrow(RangeError)
  })
})

describe('which taxes a supply carries', () => {
  const karnataka = stateByCode('29')!
  const chandigarh = stateByCode('04')!

  it('is CGST + SGST only for delivery in the supplier’s own state, IGST for every other state', () => {
    for (const s of GST_STATES) {
      const regime = taxRegime(karnataka, { kind: 'state', state: s }, false)
      expect(regime, s.name).toBe(s.code === '29' ? 'cgst_sgst' : 'igst')
    }
  })

  it('is CGST + UTGST inside a union territory without a legislature', () => {
    for (const s of GST_STATES) {
      const regime = taxRegime(chandigarh, { kind: 'state', state: s }, false)
      expect(regime, s.name).toBe(s.code === '04' ? 'cgst_utgst' : 'igst')
    }
    expect(taxRegime(stateByCode('07')!, { kind: 'state', state: stateByCode('07')! }, false)).toBe(
      'cgst_sgst',
    )
  })

  it('is zero-rated abroad: no tax under a letter of undertaking, IGST without one', () => {
    expect(taxRegime(karnataka, { kind: 'abroad', country: 'GB' }, true)).toBe('export_lut')
    expect(taxRegime(karnataka, { kind: 'abroad', country: 'US' }, false)).toBe('export_igst')
  })

  it('writes the place of supply as the returns do', () => {
    expect(placeOfSupplyLabel({ kind: 'state', state: karnataka })).toBe('29-Karnataka')
    expect(placeOfSupplyLabel({ kind: 'abroad', country: 'GB' })).toBe('96-Other Countries')
  })

  it('splits a tax into halves that sum to it, the odd paisa to the central half', () => {
    expect(splitTax(1000, 'cgst_sgst')).toEqual({ cgst: 500, sgst: 500, igst: 0 })
    expect(splitTax(1001, 'cgst_sgst')).toEqual({ cgst: 501, sgst: 500, igst: 0 })
    expect(splitTax(1001, 'cgst_utgst')).toEqual({ cgst: 501, sgst: 500, igst: 0 })
    expect(splitTax(1001, 'igst')).toEqual({ cgst: 0, sgst: 0, igst: 1001 })
    expect(splitTax(1001, 'export_igst')).toEqual({ cgst: 0, sgst: 0, igst: 1001 })
    expect(splitTax(1001, 'export_lut')).toEqual({ cgst: 0, sgst: 0, igst: 0 })
    for (let t = 0; t < 50; t++) {
      const p = splitTax(t, 'cgst_sgst')
      expect(p.cgst + p.sgst).toBe(t)
      expect(p.cgst - p.sgst).toBeLessThanOrEqual(1)
    }
  })
})

describe('amounts in words, the Indian way', () => {
  it('writes lakh and crore', () => {
    expect(rupeesInWords(22_070_615)).toBe(
      'Rupees Two Lakh Twenty Thousand Seven Hundred Six and Fifteen Paise Only',
    )
    expect(rupeesInWords(1_234_567_890_00)).toBe(
      'Rupees One Hundred Twenty Three Crore Forty Five Lakh Sixty Seven Thousand Eight Hundred Ninety Only',
    )
    expect(indianWords(10_000_000)).toBe('One Crore')
    expect(indianWords(100_000)).toBe('One Lakh')
    expect(indianWords(99_999)).toBe('Ninety Nine Thousand Nine Hundred Ninety Nine')
    expect(indianWords(10_000_000_000)).toBe('One Thousand Crore')
    expect(indianWords(1_000_000_000_000)).toBe('One Lakh Crore')
  })

  it('writes paise alone, rupees alone, and zero', () => {
    expect(rupeesInWords(5)).toBe('Five Paise Only')
    expect(rupeesInWords(249_900)).toBe('Rupees Two Thousand Four Hundred Ninety Nine Only')
    expect(rupeesInWords(0)).toBe('Rupees Zero Only')
    expect(rupeesInWords(1_100)).toBe('Rupees Eleven Only')
    expect(rupeesInWords(2_000)).toBe('Rupees Twenty Only')
  })

  it('refuses what is not a whole number of paise', () => {
    expect(() => rupeesInWords(-1)).toThrow(RangeError)
    expect(() => rupeesInWords(1.5)).toThrow(RangeError)
    expect(() => indianWords(-3)).toThrow(RangeError)
  })
})
