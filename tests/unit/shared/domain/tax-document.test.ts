import { describe, expect, it } from 'vitest'
import { stateByCode } from '../../../../shared/domain/gst-states'
import {
  CreditTooLarge,
  creditLines,
  type DocumentLine,
  EXPORT_UNDER_LUT,
  EXPORT_WITH_IGST,
  type InvoiceInput,
  invoiceFigures,
  type LineInput,
  remainingLines,
  totalsOf,
} from '../../../../shared/domain/tax-document'

const KA = stateByCode('29')!
const MH = stateByCode('27')!

const supplier = (lut: string | null = null, state = KA) => ({
  legalName: 'Ode Atelier Private Limited',
  address: ['1 Lavelle Road', 'Bengaluru 560001'],
  gstin: '29AAGCB7383J1Z4',
  state,
  lut,
})

const line = (over: Partial<LineInput> = {}): LineInput => ({
  sku: 'KURTA-1',
  description: 'Chanderi kurta',
  options: [{ label: 'Size', value: 'M' }],
  hsn: '6204',
  uqc: 'PCS',
  qty: 1,
  valueMinor: 240_000,
  discountMinor: 0,
  gstRate: 5,
  destinationTaxMinor: 0,
  voucher: false,
  ...over,
})

const party = (state = KA, country = 'IN') => ({
  name: 'Asha Rao',
  address: ['12 MG Road', 'Bengaluru 560001'],
  state,
  country,
})

const input = (over: Partial<InvoiceInput> = {}): InvoiceInput => ({
  supplier: supplier(),
  recipient: party(),
  delivery: party(),
  place: { kind: 'state', state: KA },
  lines: [line()],
  shippingMinor: 0,
  destinationTaxLabel: null,
  storeCreditMinor: 0,
  ...over,
})

/** Every line's parts add up to its value, and the totals are the lines' sums. */
function expectReconciled(lines: readonly DocumentLine[]) {
  for (const l of lines)
    expect(l.taxableMinor + l.cgst + l.sgst + l.igst + l.destinationTaxMinor, l.sku).toBe(l.valueMinor)
  const t = totalsOf(lines)
  expect(t.taxableMinor + t.cgst + t.sgst + t.igst + t.destinationTaxMinor).toBe(t.valueMinor)
  expect(t.valueMinor).toBe(lines.reduce((s, l) => s + l.valueMinor, 0))
}

describe('a tax invoice from the order as placed', () => {
  it('takes CGST + SGST at half the rate each inside the supplier’s state', () => {
    const inv = invoiceFigures(input())
    const [l] = inv.lines
    expect(inv.regime).toBe('cgst_sgst')
    // ₹2,400 at 5 %: tax 240,000 × 5 / 105 = 11,428.57 → 11,429 paise; taxable 228,571.
    expect(l).toMatchObject({ taxableMinor: 228_571, cgst: 5_715, sgst: 5_714, igst: 0, rate: 5 })
    expect(inv.totals.valueMinor).toBe(240_000)
    expect(inv.totals.words).toBe('Rupees Two Thousand Four Hundred Only')
    expect(inv.endorsement).toBeNull()
    expectReconciled(inv.lines)
  })

  it('takes IGST at the full rate for delivery to another state', () => {
    const inv = invoiceFigures(input({ place: { kind: 'state', state: MH }, delivery: party(MH) }))
    expect(inv.regime).toBe('igst')
    expect(inv.lines[0]).toMatchObject({ taxableMinor: 228_571, cgst: 0, sgst: 0, igst: 11_429 })
  })

  it('takes CGST + UTGST when the supplier is in a union territory without a legislature', () => {
    const ch = stateByCode('04')!
    const inv = invoiceFigures(input({ supplier: supplier(null, ch), place: { kind: 'state', state: ch } }))
    expect(inv.regime).toBe('cgst_utgst')
    expect(inv.lines[0]!.cgst + inv.lines[0]!.sgst).toBe(11_429)
  })

  it('applies each discounted piece’s own slab rate, on the value after its discount', () => {
    // A ₹2,800 kurta with ₹400 of the coupon is ₹2,400 (at most ₹2,500: 5 %); a ₹3,000 lehenga
    // with ₹100 off is ₹2,900 (above ₹2,500: 18 %); jewellery 3 %. The rates are the ones the order
    // recorded; the invoice charges each on the line's value after discount.
    const inv = invoiceFigures(
      input({
        lines: [
          line({ sku: 'KURTA', valueMinor: 240_000, discountMinor: 40_000, gstRate: 5 }),
          line({ sku: 'LEHENGA', hsn: '6204', valueMinor: 290_000, discountMinor: 10_000, gstRate: 18 }),
          line({ sku: 'JHUMKA', hsn: '7113', valueMinor: 150_000, discountMinor: 0, gstRate: 3 }),
        ],
      }),
    )
    const [kurta, lehenga, jhumka] = inv.lines
    expect(kurta).toMatchObject({ rate: 5, taxableMinor: 228_571, discountMinor: 40_000 })
    // 290,000 × 18 / 118 = 44,237.29 → 44,237; taxable 245,763.
    expect(lehenga).toMatchObject({ rate: 18, taxableMinor: 245_763, cgst: 22_119, sgst: 22_118 })
    // 150,000 × 3 / 103 = 4,368.93 → 4,369.
    expect(jhumka).toMatchObject({ rate: 3, taxableMinor: 145_631 })
    expect(inv.totals.valueMinor).toBe(680_000)
    expectReconciled(inv.lines)
  })

  it('rounds per line so the tax lines always sum to the invoice total', () => {
    // Awkward values at every rate: the parts of each line and of the totals add up exactly.
    const lines = [1, 7, 99, 1_001, 33_333, 249_999, 250_001, 1_234_567].flatMap((v, i) =>
      [0, 3, 5, 18].map((r) => line({ sku: `L${i}-${r}`, valueMinor: v, gstRate: r })),
    )
    for (const place of [
      { kind: 'state', state: KA },
      { kind: 'state', state: MH },
    ] as const) {
      const inv = invoiceFigures(input({ lines, place, shippingMinor: 9_901 }))
      expectReconciled(inv.lines)
      const sumValues = lines.reduce((s, l) => s + l.valueMinor, 0) + 9_901
      expect(inv.totals.valueMinor).toBe(sumValues)
    }
  })

  it('puts shipping on its own line at the goods’ highest rate', () => {
    const inv = invoiceFigures(
      input({
        lines: [line({ gstRate: 5 }), line({ sku: 'B', gstRate: 18, valueMinor: 300_000 })],
        shippingMinor: 11_800,
      }),
    )
    const ship = inv.lines.at(-1)!
    expect(ship).toMatchObject({ shipping: true, rate: 18, valueMinor: 11_800, taxableMinor: 10_000 })
    expect(ship.cgst + ship.sgst).toBe(1_800)
    const free = invoiceFigures(input()).lines.at(-1)!
    expect(free).toMatchObject({ shipping: true, valueMinor: 0, taxableMinor: 0, cgst: 0 })
  })

  it('keeps the taxable value when store credit paid part of the order (payment, not discount)', () => {
    const plain = invoiceFigures(input())
    const credit = invoiceFigures(input({ storeCreditMinor: 100_000 }))
    expect(credit.lines).toEqual(plain.lines)
    expect(credit.totals).toEqual(plain.totals)
    expect(credit.storeCreditMinor).toBe(100_000)
  })

  it('lists gift cards apart, without tax: they are vouchers, not goods', () => {
    const inv = invoiceFigures(
      input({
        lines: [
          line(),
          line({ sku: 'GIFT', description: 'Gift card', valueMinor: 500_000, gstRate: 0, voucher: true }),
        ],
      }),
    )
    expect(inv.lines.map((l) => l.sku)).toEqual(['KURTA-1', 'shipping'])
    expect(inv.vouchers).toEqual([{ sku: 'GIFT', description: 'Gift card', qty: 1, valueMinor: 500_000 }])
    expect(inv.totals.valueMinor).toBe(240_000)
  })

  it('zero-rates an export under a letter of undertaking, with its endorsement', () => {
    const inv = invoiceFigures(
      input({
        supplier: supplier('AD290326000123X'),
        place: { kind: 'abroad', country: 'GB' },
        delivery: party(KA, 'GB'),
        // £ converted: the line is ₹2,880 with ₹480 of UK VAT inside it.
        lines: [line({ valueMinor: 288_000, destinationTaxMinor: 48_000, gstRate: 5 })],
        destinationTaxLabel: 'UK VAT',
      }),
    )
    expect(inv.regime).toBe('export_lut')
    expect(inv.endorsement).toBe(EXPORT_UNDER_LUT)
    expect(inv.lines[0]).toMatchObject({
      rate: 0,
      igst: 0,
      taxableMinor: 240_000,
      destinationTaxMinor: 48_000,
    })
    expectReconciled(inv.lines)
  })

  it('takes IGST out of what was charged on an export without a letter of undertaking', () => {
    const inv = invoiceFigures(
      input({ place: { kind: 'abroad', country: 'US' }, lines: [line({ valueMinor: 210_000, gstRate: 5 })] }),
    )
    expect(inv.regime).toBe('export_igst')
    expect(inv.endorsement).toBe(EXPORT_WITH_IGST)
    expect(inv.lines[0]).toMatchObject({ rate: 5, igst: 10_000, taxableMinor: 200_000 })
  })
})

describe('credit notes reverse tax line by line at the invoice’s rates', () => {
  const invoice = invoiceFigures(
    input({
      lines: [
        line({ sku: 'A', qty: 3, valueMinor: 720_001, gstRate: 5 }),
        line({ sku: 'B', qty: 1, valueMinor: 290_000, gstRate: 18 }),
      ],
      shippingMinor: 5_000,
    }),
  ).lines

  it('a full credit note gives back exactly the invoice', () => {
    const note = creditLines(remainingLines(invoice, []), { kind: 'full' })
    expect(note).toEqual(invoice)
    expect(totalsOf(note)).toEqual(totalsOf(invoice))
    const after = remainingLines(invoice, [note])
    expect(
      after.every((l) => l.valueMinor === 0 && l.cgst === 0 && l.sgst === 0 && l.taxableMinor === 0),
    ).toBe(true)
  })

  it('a partial (amount) credit note spreads the amount over the lines and reconciles', () => {
    const note = creditLines(remainingLines(invoice, []), { kind: 'amount', valueMinor: 100_001 })
    expect(totalsOf(note).valueMinor).toBe(100_001)
    expectReconciled(note)
    // Each line's part is in proportion to its value, and its tax at the line's own rate.
    expect(note[0]!.valueMinor).toBeGreaterThan(note[1]!.valueMinor)
    const a = note[0]!
    expect(Math.abs((a.cgst + a.sgst) / a.taxableMinor - 0.05)).toBeLessThan(0.001)
    const b = note[1]!
    expect(Math.abs((b.cgst + b.sgst) / b.taxableMinor - 0.18)).toBeLessThan(0.001)
  })

  it('successive partial notes and a final one reverse the invoice exactly, never more', () => {
    const notes: DocumentLine[][] = []
    for (const v of [333_333, 1, 250_000]) {
      notes.push(creditLines(remainingLines(invoice, notes), { kind: 'amount', valueMinor: v }))
      expectReconciled(notes.at(-1)!)
    }
    notes.push(creditLines(remainingLines(invoice, notes), { kind: 'full' }))
    const left = remainingLines(invoice, notes)
    for (const l of left) {
      expect([l.valueMinor, l.taxableMinor, l.cgst, l.sgst, l.igst, l.qty]).toEqual([0, 0, 0, 0, 0, 0])
    }
    const credited = notes.reduce((s, n) => s + totalsOf(n).valueMinor, 0)
    expect(credited).toBe(totalsOf(invoice).valueMinor)
    expect(() => creditLines(remainingLines(invoice, notes), { kind: 'amount', valueMinor: 1 })).toThrow(
      CreditTooLarge,
    )
  })

  it('a line credit note returns pieces of a line at its value per piece', () => {
    const one = creditLines(remainingLines(invoice, []), { kind: 'lines', lines: [{ index: 0, qty: 1 }] })
    expect(one[0]).toMatchObject({ qty: 1, valueMinor: 240_000 })
    expect(one[1]!.valueMinor).toBe(0)
    expectReconciled(one)
    const rest = creditLines(remainingLines(invoice, [one]), { kind: 'lines', lines: [{ index: 0, qty: 2 }] })
    // The last pieces take exactly what is left of the line (the odd paisa included).
    expect(rest[0]).toMatchObject({ qty: 2, valueMinor: 480_001 })
    const left = remainingLines(invoice, [one, rest])[0]!
    expect([left.qty, left.valueMinor, left.cgst, left.sgst, left.taxableMinor]).toEqual([0, 0, 0, 0, 0])
    expect(() =>
      creditLines(remainingLines(invoice, [one, rest]), { kind: 'lines', lines: [{ index: 0, qty: 1 }] }),
    ).toThrow(CreditTooLarge)
  })

  it('refuses a credit larger than what is left, or a line the invoice does not have', () => {
    const rem = remainingLines(invoice, [])
    expect(() => creditLines(rem, { kind: 'amount', valueMinor: totalsOf(invoice).valueMinor + 1 })).toThrow(
      CreditTooLarge,
    )
    expect(() => creditLines(rem, { kind: 'amount', valueMinor: 0 })).toThrow(RangeError)
    expect(() => creditLines(rem, { kind: 'lines', lines: [{ index: 9, qty: 1 }] })).toThrow(RangeError)
    expect(() => creditLines(rem, { kind: 'lines', lines: [{ index: 1, qty: 2 }] })).toThrow(CreditTooLarge)
    expect(() => creditLines(rem, { kind: 'lines', lines: [{ index: 1, qty: 0 }] })).toThrow(RangeError)
  })
})
