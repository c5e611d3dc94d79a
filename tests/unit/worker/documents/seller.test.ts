import { describe, expect, it } from 'vitest'
import { readSellerConfig } from '../../../../worker/documents/seller'

const good = {
  SELLER_LEGAL_NAME: 'Ode Atelier Private Limited',
  SELLER_ADDRESS: '14 Lavelle Road| Ashok Nagar |Bengaluru 560001',
  SELLER_GSTIN: '29aadco4321k1zc',
  SELLER_STATE: 'Karnataka',
  SELLER_LUT: 'AD290326000123X',
  INVOICE_PREFIX: 'OA',
  CREDIT_NOTE_PREFIX: 'OC',
}

describe('the seller on tax documents', () => {
  it('reads the registration: address lines, GSTIN in capitals, the state, the LUT', () => {
    const r = readSellerConfig(good)
    expect('config' in r && r.config).toMatchObject({
      supplier: {
        legalName: 'Ode Atelier Private Limited',
        address: ['14 Lavelle Road', 'Ashok Nagar', 'Bengaluru 560001'],
        gstin: '29AADCO4321K1ZC',
        state: { code: '29', name: 'Karnataka' },
        lut: 'AD290326000123X',
      },
      invoicePrefix: 'OA',
      creditNotePrefix: 'OC',
    })
    // No LUT: exports pay IGST.
    const noLut = readSellerConfig({ ...good, SELLER_LUT: '' })
    expect('config' in noLut && noLut.config.supplier.lut).toBeNull()
  })

  it('names every var that is missing or wrong', () => {
    const r = readSellerConfig({})
    expect('problems' in r && r.problems.map((p) => p.split(':')[0])).toEqual([
      'SELLER_LEGAL_NAME',
      'SELLER_ADDRESS',
      'SELLER_GSTIN',
      'SELLER_STATE',
    ])
  })

  it('refuses a GSTIN of another state, a mistyped GSTIN, long or equal prefixes', () => {
    const other = readSellerConfig({ ...good, SELLER_STATE: 'Maharashtra' })
    expect('problems' in other && other.problems).toEqual([
      'SELLER_STATE: Maharashtra (27) is not the state of the GSTIN (29)',
    ])
    const typo = readSellerConfig({ ...good, SELLER_GSTIN: '29AADCO4321K1ZD' })
    expect('problems' in typo && typo.problems[0]).toMatch(
      /^SELLER_GSTIN: 29AADCO4321K1ZD is not a GSTIN: its last character/,
    )
    const prefixes = readSellerConfig({ ...good, INVOICE_PREFIX: 'OAXY', CREDIT_NOTE_PREFIX: 'OAXY' })
    expect('problems' in prefixes && prefixes.problems).toEqual([
      'INVOICE_PREFIX: 1 to 3 capital letters or digits',
      'CREDIT_NOTE_PREFIX: 1 to 3 capital letters or digits',
      'CREDIT_NOTE_PREFIX: must differ from INVOICE_PREFIX (each series is numbered on its own)',
    ])
    const lut = readSellerConfig({ ...good, SELLER_LUT: 'AD 29<script>' })
    expect('problems' in lut && lut.problems[0]).toMatch(/^SELLER_LUT: /)
  })
})
