/**
 * Tax invoices and credit notes as figures, pure: what each line of an order is worth, its taxable
 * value and the tax it carries, from the amounts the ORDER stored at placement (what each line was
 * charged after its share of the discount, and the GST rate that charge includes). Nothing is read
 * from today's catalogue, so the same order always gives the same document.
 *
 * Rules:
 * - every amount is in paise (integer minor units of INR);
 * - a line's value is what the buyer pays for it, tax included, after discount; the tax inside is
 *   value × rate / (100 + rate) rounded to the paisa (the rule the order's own totals use), the
 *   taxable value is the rest, so taxable + taxes = value on every line and the document's totals
 *   are sums of its lines: the tax lines always add up to the invoice total, with no round-off line;
 * - store credit and gift-card redemptions are payment, not discount: they never lower a value;
 * - a gift card sold is not a supply of goods (a voucher): it is listed apart, without tax;
 * - on an export, a destination tax the price included (UK VAT) is shown apart and is not part of
 *   the Indian taxable value; under a letter of undertaking there is no IGST, otherwise the IGST is
 *   inside what was charged, like GST in India;
 * - a credit note reverses tax line by line at the invoice's rates; the credit notes of one
 *   invoice never reverse more than it charged, and the last one takes exactly what is left.
 */

import { type PlaceOfSupply, rupeesInWords, splitTax, type TaxRegime, taxRegime } from './gst'
import type { GstState } from './gst-states'
import { allocateMinor, includedTaxMinor } from './money'

/** Who issues the document, as configured for the shop. */
export interface Supplier {
  legalName: string
  address: readonly string[]
  gstin: string
  state: GstState
  /** The letter of undertaking's reference (ARN) for exports without IGST, or null. */
  lut: string | null
}

/** A party on the document: the recipient (billing) or the place of delivery. */
export interface Party {
  name: string
  /** Address lines, the city and PIN code included. */
  address: readonly string[]
  /** The Indian state, when in India. */
  state: GstState | null
  /** ISO country code. */
  country: string
  phone?: string | null
  /** The recipient's GSTIN, when registered. */
  gstin?: string | null
}

/** One line of the order as placed, its amounts already in paise of INR. */
export interface LineInput {
  sku: string
  description: string
  /** What the shopper configured ('Size: M'). */
  options: readonly { label: string; value: string }[]
  hsn: string | null
  /** Unit quantity code ('PCS'). */
  uqc: string
  qty: number
  /** What the line was charged, tax included, after its discount share. */
  valueMinor: number
  /** Its share of the discount (shown; already out of the value). */
  discountMinor: number
  /** The Indian GST rate (percent) the line carries. */
  gstRate: number
  /** A destination tax inside the value (UK VAT on an export), 0 in India. */
  destinationTaxMinor: number
  /** A gift card: a voucher, not a supply of goods. */
  voucher: boolean
}

export interface InvoiceInput {
  supplier: Supplier
  recipient: Party
  delivery: Party
  place: PlaceOfSupply
  lines: readonly LineInput[]
  /** Shipping charged, tax included (its own line, at the highest rate of the goods). */
  shippingMinor: number
  /** The destination tax's name ('UK VAT'), when there is one. */
  destinationTaxLabel: string | null
  /** Paid with store credit (a payment, not a discount). */
  storeCreditMinor: number
}

/** One line of a document with its tax: what the order line says of the goods, and the tax split. */
export interface DocumentLine
  extends Pick<
    LineInput,
    'sku' | 'description' | 'options' | 'hsn' | 'uqc' | 'qty' | 'discountMinor' | 'destinationTaxMinor'
  > {
  /** Value: taxable + cgst + sgst + igst + destination tax. */
  valueMinor: number
  taxableMinor: number
  rate: number
  cgst: number
  sgst: number
  igst: number
  /** The shipping line. */
  shipping?: boolean
}

interface DocumentTotals {
  taxableMinor: number
  cgst: number
  sgst: number
  igst: number
  destinationTaxMinor: number
  /** The document's value: the sum of its lines. */
  valueMinor: number
  words: string
}

/** The figures of a tax invoice (everything but its number and date). */
export interface InvoiceFigures {
  supplier: Supplier
  recipient: Party
  delivery: Party
  place: PlaceOfSupply
  regime: TaxRegime
  lines: DocumentLine[]
  /** Gift cards sold: not a supply, no tax. */
  vouchers: { sku: string; description: string; qty: number; valueMinor: number }[]
  totals: DocumentTotals
  destinationTaxLabel: string | null
  storeCreditMinor: number
  /** The endorsement an export invoice carries, or null. */
  endorsement: string | null
}

export const EXPORT_UNDER_LUT =
  'SUPPLY MEANT FOR EXPORT UNDER BOND OR LETTER OF UNDERTAKING WITHOUT PAYMENT OF INTEGRATED TAX'
export const EXPORT_WITH_IGST = 'SUPPLY MEANT FOR EXPORT ON PAYMENT OF INTEGRATED TAX'

/** A line's tax from its value, rate and regime: taxable + parts + destination tax = value. */
function taxLine(
  value: number,
  rate: number,
  destinationTax: number,
  regime: TaxRegime,
): Pick<DocumentLine, 'taxableMinor' | 'cgst' | 'sgst' | 'igst' | 'rate'> {
  const gstRate = regime === 'export_lut' ? 0 : rate
  const tax = includedTaxMinor(value - destinationTax, gstRate)
  const parts = splitTax(tax, regime)
  return { ...parts, rate: gstRate, taxableMinor: value - destinationTax - tax }
}

/** Sums a document's lines. */
export function totalsOf(lines: readonly DocumentLine[]): DocumentTotals {
  const sum = (f: (l: DocumentLine) => number) => lines.reduce((s, l) => s + f(l), 0)
  const valueMinor = sum((l) => l.valueMinor)
  return {
    taxableMinor: sum((l) => l.taxableMinor),
    cgst: sum((l) => l.cgst),
    sgst: sum((l) => l.sgst),
    igst: sum((l) => l.igst),
    destinationTaxMinor: sum((l) => l.destinationTaxMinor),
    valueMinor,
    words: rupeesInWords(valueMinor),
  }
}

/** The figures of the tax invoice of an order. */
export function invoiceFigures(input: InvoiceInput): InvoiceFigures {
  const regime = taxRegime(input.supplier.state, input.place, input.supplier.lut !== null)
  const goods = input.lines.filter((l) => !l.voucher)
  const lines: DocumentLine[] = goods.map((l) => ({
    sku: l.sku,
    description: l.description,
    options: l.options,
    hsn: l.hsn,
    uqc: l.uqc,
    qty: l.qty,
    discountMinor: l.discountMinor,
    valueMinor: l.valueMinor,
    destinationTaxMinor: l.destinationTaxMinor,
    ...taxLine(l.valueMinor, l.gstRate, l.destinationTaxMinor, regime),
  }))
  // Delivery charged with goods follows the goods (a composite supply): the highest rate among them.
  const shippingRate = Math.max(0, ...goods.map((l) => l.gstRate))
  lines.push({
    sku: 'shipping',
    description: 'Shipping',
    options: [],
    hsn: null,
    uqc: 'OTH',
    qty: 1,
    discountMinor: 0,
    valueMinor: input.shippingMinor,
    destinationTaxMinor: 0,
    shipping: true,
    ...taxLine(input.shippingMinor, shippingRate, 0, regime),
  })
  return {
    supplier: input.supplier,
    recipient: input.recipient,
    delivery: input.delivery,
    place: input.place,
    regime,
    lines,
    vouchers: input.lines
      .filter((l) => l.voucher)
      .map((l) => ({ sku: l.sku, description: l.description, qty: l.qty, valueMinor: l.valueMinor })),
    totals: totalsOf(lines),
    destinationTaxLabel: input.destinationTaxLabel,
    storeCreditMinor: input.storeCreditMinor,
    endorsement:
      regime === 'export_lut' ? EXPORT_UNDER_LUT : regime === 'export_igst' ? EXPORT_WITH_IGST : null,
  }
}

/** What a credit note gives back. */
export type CreditRequest =
  /** Everything the invoice still has (a cancel or a full refund). */
  | { kind: 'full' }
  /** An amount (paise, tax included), spread over the lines in proportion to what they still have. */
  | { kind: 'amount'; valueMinor: number }
  /** Pieces of lines returned (index into the invoice's lines, quantity). */
  | { kind: 'lines'; lines: readonly { index: number; qty: number }[] }

/** Thrown when a credit note would reverse more than its invoice still has. */
export class CreditTooLarge extends Error {}

/** Each invoice line as it stands after the credit notes issued against it. */
export function remainingLines(
  invoice: readonly DocumentLine[],
  credited: readonly (readonly DocumentLine[])[],
): DocumentLine[] {
  return invoice.map((line, i) => {
    const minus = (f: (l: DocumentLine) => number) =>
      f(line) - credited.reduce((s, note) => s + (note[i] ? f(note[i] as DocumentLine) : 0), 0)
    return {
      ...line,
      qty: minus((l) => l.qty),
      discountMinor: minus((l) => l.discountMinor),
      valueMinor: minus((l) => l.valueMinor),
      taxableMinor: minus((l) => l.taxableMinor),
      cgst: minus((l) => l.cgst),
      sgst: minus((l) => l.sgst),
      igst: minus((l) => l.igst),
      destinationTaxMinor: minus((l) => l.destinationTaxMinor),
    }
  })
}

/**
 * `value` paise of a line that still has `left`: every part taken in the same proportion
 * (rounded), the taxable value the rest, and exactly what is left when all of it is taken.
 */
function takeFrom(left: DocumentLine, value: number, qty: number): DocumentLine {
  if (value >= left.valueMinor) return { ...left, qty: Math.min(qty, left.qty) }
  const part = (x: number) => (left.valueMinor > 0 ? Math.round((x * value) / left.valueMinor) : 0)
  const cgst = part(left.cgst)
  const sgst = part(left.sgst)
  const igst = part(left.igst)
  const destinationTaxMinor = part(left.destinationTaxMinor)
  return {
    ...left,
    qty,
    discountMinor: part(left.discountMinor),
    valueMinor: value,
    cgst,
    sgst,
    igst,
    destinationTaxMinor,
    taxableMinor: value - cgst - sgst - igst - destinationTaxMinor,
  }
}

/**
 * The lines of a credit note against an invoice whose `remaining` lines are what earlier credit
 * notes left. Lines of the result keep the invoice's order and indexes (a line not credited is
 * all zeros), so later notes subtract line by line.
 */
export function creditLines(remaining: readonly DocumentLine[], request: CreditRequest): DocumentLine[] {
  const zero = (l: DocumentLine): DocumentLine => ({
    ...l,
    qty: 0,
    discountMinor: 0,
    valueMinor: 0,
    taxableMinor: 0,
    cgst: 0,
    sgst: 0,
    igst: 0,
    destinationTaxMinor: 0,
  })
  const left = remaining.reduce((s, l) => s + l.valueMinor, 0)
  if (request.kind === 'full') return remaining.map((l) => ({ ...l }))
  if (request.kind === 'amount') {
    if (!Number.isSafeInteger(request.valueMinor) || request.valueMinor <= 0)
      throw new RangeError('a credit amount is a whole number of paise above 0')
    if (request.valueMinor > left)
      throw new CreditTooLarge(`a credit of ${request.valueMinor} paise is more than the ${left} left`)
    const shares = allocateMinor(
      request.valueMinor,
      remaining.map((l) => Math.max(0, l.valueMinor)),
    )
    return remaining.map((l, i) => {
      const share = shares[i] as number
      if (share === 0) return zero(l)
      // Pieces are not named by an amount: the quantity stays 0 unless the whole line goes back.
      return takeFrom(l, share, share >= l.valueMinor ? l.qty : 0)
    })
  }
  const wanted = new Map<number, number>()
  for (const { index, qty } of request.lines) {
    if (!Number.isSafeInteger(index) || index < 0 || index >= remaining.length)
      throw new RangeError(`line ${index + 1} is not a line of the invoice`)
    if (!Number.isSafeInteger(qty) || qty <= 0)
      throw new RangeError('a returned quantity is a whole number above 0')
    wanted.set(index, (wanted.get(index) ?? 0) + qty)
  }
  return remaining.map((l, i) => {
    const qty = wanted.get(i)
    if (qty === undefined) return zero(l)
    if (qty > l.qty) throw new CreditTooLarge(`line ${i + 1} has ${l.qty} pieces left, not ${qty}`)
    // The pieces' value: the line's value per piece, the last pieces taking exactly what is left.
    return takeFrom(l, qty === l.qty ? l.valueMinor : Math.round((l.valueMinor * qty) / l.qty), qty)
  })
}
