import { describe, expect, it } from 'vitest'
import {
  GST_STATES,
  gstinCheckChar,
  gstinProblem,
  normaliseGstin,
  stateByCode,
  stateFromPincode,
  stateFromRegion,
} from '../../../../shared/domain/gst-states'

describe('GST state codes', () => {
  it('lists every state and union territory once, by its two-digit code', () => {
    const codes = GST_STATES.map((s) => s.code)
    expect(new Set(codes).size).toBe(codes.length)
    expect(codes).toHaveLength(36)
    expect(codes.every((c) => /^\d{2}$/.test(c))).toBe(true)
    // 25 (Daman and Diu) merged into 26 in 2020.
    expect(stateByCode('25')).toBeNull()
    expect(stateByCode('26')?.name).toBe('Dadra and Nagar Haveli and Daman and Diu')
    expect(stateByCode('29')?.name).toBe('Karnataka')
    expect(stateByCode('27')?.name).toBe('Maharashtra')
    expect(stateByCode('07')?.name).toBe('Delhi')
  })

  it('marks exactly the union territories without a legislature as UTGST territories', () => {
    expect(
      GST_STATES.filter((s) => s.utgst)
        .map((s) => s.code)
        .sort(),
    ).toEqual(['04', '26', '31', '35', '38'])
    // Delhi, Puducherry and Jammu and Kashmir have legislatures: SGST.
    expect(stateByCode('07')?.utgst).toBe(false)
    expect(stateByCode('34')?.utgst).toBe(false)
    expect(stateByCode('01')?.utgst).toBe(false)
  })

  it('reads a region written as a name, an older name, an ISO code or a GST code', () => {
    expect(stateFromRegion('Karnataka')?.code).toBe('29')
    expect(stateFromRegion('  tamil  nadu ')?.code).toBe('33')
    expect(stateFromRegion('Jammu & Kashmir')?.code).toBe('01')
    expect(stateFromRegion('Orissa')?.code).toBe('21')
    expect(stateFromRegion('Pondicherry')?.code).toBe('34')
    expect(stateFromRegion('IN-MH')?.code).toBe('27')
    expect(stateFromRegion('KA')?.code).toBe('29')
    expect(stateFromRegion('9')?.code).toBe('09')
    expect(stateFromRegion('29')?.code).toBe('29')
    expect(stateFromRegion('New Delhi')?.code).toBe('07')
    for (const s of GST_STATES) expect(stateFromRegion(s.name)).toBe(s)
  })

  it('names no state for an unknown region', () => {
    for (const r of ['', '  ', 'Bavaria', '25', '99', 'Karnatakaa', null, undefined])
      expect(stateFromRegion(r)).toBeNull()
  })

  it('reads the state of a PIN code only where its prefix belongs to one state', () => {
    expect(stateFromPincode('560001')?.code).toBe('29')
    expect(stateFromPincode('400001')?.code).toBe('27')
    expect(stateFromPincode('403001')?.code).toBe('30') // Goa inside the Maharashtra circle
    expect(stateFromPincode('110001')?.code).toBe('07')
    expect(stateFromPincode('737101')?.code).toBe('11') // Sikkim inside West Bengal's
    expect(stateFromPincode('744101')?.code).toBe('35')
    expect(stateFromPincode('799001')?.code).toBe('16')
    expect(stateFromPincode('600001')?.code).toBe('33') // Chennai
    expect(stateFromPincode('682001')?.code).toBe('32') // Kochi
    expect(stateFromPincode('682555')?.code).toBe('31') // Lakshadweep inside Kerala's 682
    expect(stateFromPincode('700016')?.code).toBe('19')
    expect(stateFromPincode('194101')?.code).toBe('38') // Leh
    // Shared prefixes: Chandigarh and Mohali, Puducherry and Tamil Nadu, Diu and Gujarat.
    expect(stateFromPincode('160017')).toBeNull()
    expect(stateFromPincode('605001')).toBeNull()
    expect(stateFromPincode('362520')).toBeNull()
    for (const bad of ['056000', '56000', '5600011', 'abcdef', '', null])
      expect(stateFromPincode(bad)).toBeNull()
  })
})

describe('GSTIN', () => {
  it('accepts GSTINs whose check character matches', () => {
    for (const g of ['27AAPFU0939F1ZV', '29AAGCB7383J1Z4', '33AAHCS8802L1Z3', '07AAGFF2194N1Z1'])
      expect(gstinProblem(g)).toBeNull()
    expect(gstinProblem(' 27aapfu0939f1zv ')).toBeNull()
    expect(normaliseGstin(' 27aapfu 0939f1zv')).toBe('27AAPFU0939F1ZV')
  })

  it('computes the check character mod 36 from the first 14', () => {
    expect(gstinCheckChar('27AAPFU0939F1Z')).toBe('V')
    expect(gstinCheckChar('29AAGCB7383J1Z')).toBe('4')
  })

  it('refuses a mistyped GSTIN, naming why', () => {
    expect(gstinProblem('27AAPFU0939F1ZW')).toMatch(/last character/)
    expect(gstinProblem('27AAPFU0939F1Z')).toMatch(/15 characters/)
    expect(gstinProblem('27AAPF10939F1ZV')).toMatch(/15 characters/)
    expect(gstinProblem('99AAPFU0939F1ZV')).toMatch(/99 is not/)
    expect(gstinProblem('')).toMatch(/15 characters/)
    expect(gstinProblem(null)).toMatch(/15 characters/)
  })

  it('finds every single-character typo', () => {
    const good = '27AAPFU0939F1ZV'
    const chars = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'
    for (let i = 0; i < 15; i++)
      for (const ch of chars) {
        if (ch === good[i]) continue
        const typo = `${good.slice(0, i)}${ch}${good.slice(i + 1)}`
        expect(gstinProblem(typo), typo).not.toBeNull()
      }
  })
})

describe('the checkout’s State list', () => {
  it('offers exactly the states and territories a tax invoice can name', async () => {
    // The checkout keeps its own copy of the names (the GST table would cost its bundle 0.3 KB).
    const { INDIAN_STATES } = await import('../../../../shared/components/checkout/indian-states')
    expect([...INDIAN_STATES].sort()).toEqual(GST_STATES.map((s) => s.name).sort())
    for (const name of INDIAN_STATES) expect(stateFromRegion(name)?.name).toBe(name)
  })
})
