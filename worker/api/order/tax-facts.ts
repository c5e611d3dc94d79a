/**
 * What the order's tax invoice will need, fixed when the order is placed, so an invoice issued
 * later (at payment, or at shipping for cash on delivery) never depends on today's catalogue:
 * per line the HSN code, the unit, the Indian GST rate the line carries and the discount share it
 * was charged after (and, on an Indian line, its pieces' GST slabs — with each piece's share of the
 * unit price for a bundle or grouped product — so a later discount can decide its rate again); for
 * the order the place of supply and the buyer's GSTIN.
 *
 * - The rate of an Indian order's line is the one its charged price includes (the totals decided
 *   it, slab rules included). Abroad the price carries the destination's tax instead; the Indian
 *   rate is kept for an export invoice on payment of IGST.
 * - The place of supply of goods that move is where the movement ends (IGST Act s. 10(1)(a)): the
 *   delivery address's state, named by its region, else by its PIN code; an order of goods without
 *   delivery (all virtual) is supplied where the buyer's billing address is.
 * - A buyer's GSTIN (billing vat_id) on an Indian billing address must be a valid GSTIN: a tax
 *   invoice carrying a wrong one would move the buyer's input tax credit to someone else.
 */
import {
  type GstState,
  gstinProblem,
  normaliseGstin,
  stateFromPincode,
  stateFromRegion,
} from '@shared/domain/gst-states'
import {
  countryRates,
  slabRate,
  type TaxRateFields,
  type TaxRuleFields,
  taxRuleOf,
} from '@shared/domain/tax-rules'
import type { OrderBody } from '@shared/schemas/order'
import { fail } from '../../platform/http'
import type { ResolvedLine } from '../cart/lines'
import type { computeTotals, linePieces } from '../cart/totals'
import type { orderItems, StoredGstPiece, StoredGstSlab, StoredPlaceOfSupply } from './document'

/** The unit quantity code an invoice line of goods carries (GST's UQC list: pieces). */
const PIECES = 'PCS'

/** An HSN code as an invoice prints it: 4, 6 or 8 digits. */
const HSN_RE = /^(\d{4}|\d{6}|\d{8})$/

interface HsnSource {
  hsn_code?: unknown
}

/**
 * The HSN code of a line's product: the chosen variant's `hsn_code`, else its product's; null
 * when the catalogue names none (the invoice then prints a dash). The ONE place an HSN is read.
 */
function hsnOf(product: HsnSource, child?: HsnSource | null): string | null {
  for (const source of [child, product]) {
    const raw = source?.hsn_code
    const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : ''
    if (HSN_RE.test(text)) return text
  }
  return null
}

type LinePiece = {
  tax_class_id?: number | null
  hsn_code?: string | number | null
  price?: number | null
  final_price?: number | null
}

/** The piece a line of one kind of piece sells (its chosen variant, else its product). */
const pieceOf = (line: ResolvedLine) => (line.child ?? line.product) as LinePiece

/** India's GST rates for a line's piece, lowest slab first (its rule by tax class and HSN code). */
function indianRates(line: ResolvedLine, rules: readonly TaxRuleFields[]) {
  const taxed = {
    tax_class_id: pieceOf(line).tax_class_id ?? line.product.tax_class_id,
    hsn_code: hsnOf(line.product as HsnSource, line.child as HsnSource | undefined),
  }
  return countryRates(taxRuleOf(taxed, rules), 'IN')
}

/** The GST rate (percent) a line's catalogue value includes in India. */
function indianRate(line: ResolvedLine, rules: readonly TaxRuleFields[]): number {
  const piece = pieceOf(line)
  return slabRate(indianRates(line, rules), piece.final_price ?? piece.price ?? 0, true)
}

/** Products whose unit is several pieces, each taxed at its own slab (the totals split the unit over them). */
const SEVERAL_PIECES = new Set(['bundle', 'grouped'])

/** Rates as the order keeps them: `{rate, max_value}`, the bound left out when there is none. */
const storedSlabs = (rates: readonly TaxRateFields[]): StoredGstSlab[] =>
  rates.map((r) => (r.max_value != null ? { rate: r.rate, max_value: r.max_value } : { rate: r.rate }))

/**
 * What an Indian line's rate is decided by again when what it is charged changes after placement
 * (a prepaid discount), as the cart's totals decide it. A line whose unit is ONE piece stores that
 * piece's Indian slabs (`gst_slabs`; `{rate, max_value}`, the bound of one piece's value without
 * GST, base currency): its charged value per unit is that piece's value. A bundle's or grouped
 * product's unit is several pieces, so it stores each kind of piece as priced (`gst_pieces`: its
 * share of the unit price, how many, its slabs).
 */
function gstSlabs(
  line: ResolvedLine,
  pieces: ReturnType<typeof linePieces> | undefined,
  rules: readonly TaxRuleFields[],
): { gst_slabs?: StoredGstSlab[]; gst_pieces?: StoredGstPiece[] } {
  if (SEVERAL_PIECES.has(line.product.type_id)) {
    if (!pieces?.length) return {}
    return {
      gst_pieces: pieces.map((p) => ({ minor: p.minor, count: p.count, slabs: storedSlabs(p.rates) })),
    }
  }
  const rates = indianRates(line, rules)
  return rates.length ? { gst_slabs: storedSlabs(rates) } : {}
}

type Address = { region?: string | null; postcode?: string | null; country_id: string }

/** The Indian state an address is in: its region, else its PIN code; null when neither says. */
export function addressState(address: Address): GstState | null {
  return stateFromRegion(address.region) ?? stateFromPincode(address.postcode)
}

type Items = ReturnType<typeof orderItems>

/**
 * The order's items with what their invoice lines need, and the order's place of supply and
 * buyer GSTIN. A bad buyer GSTIN, or an Indian delivery whose state cannot be told, is a 400.
 */
export function withTaxFacts(input: {
  items: Items
  totals: ReturnType<typeof computeTotals>
  lines: readonly ResolvedLine[]
  /** Each line's pieces as priced (the totals' lines), in the lines' order. */
  pieces?: readonly ReturnType<typeof linePieces>[]
  taxRules: readonly TaxRuleFields[]
  info: OrderBody['addressInformation']
  shipping: Address | null
}) {
  const billing = input.info.billingAddress
  const deliveredTo = input.shipping ?? billing
  const where = input.shipping ? 'shippingAddress' : 'billingAddress'
  const country = deliveredTo.country_id.toUpperCase()
  const inIndia = country === 'IN'
  const items = input.items.map((item, i) => {
    const line = input.lines[i] as ResolvedLine
    const totalsItem = input.totals.items[i]
    return {
      ...item,
      hsn_code: hsnOf(line.product as HsnSource, line.child as HsnSource | undefined),
      uqc: PIECES,
      // Abroad, the rate India's GST would take from the piece (its HSN's slab at its catalogue value).
      gst_rate: inIndia ? item.tax_percent : indianRate(line, input.taxRules),
      ...(inIndia ? gstSlabs(line, input.pieces?.[i], input.taxRules) : {}),
      discount_minor: totalsItem?.extension_attributes.discount_minor ?? 0,
      tax_minor: totalsItem?.extension_attributes.tax_minor ?? 0,
    }
  })
  let place: StoredPlaceOfSupply = { country }
  if (inIndia) {
    const state = addressState(deliveredTo)
    const taxed = items.some((it) => it.gst_rate > 0)
    if (!state && taxed)
      fail(
        400,
        `Invalid order: addressInformation.${where}.region: choose the state or union territory of the address (it decides the GST on the invoice)`,
      )
    if (state) place = { state: state.code, name: state.name }
  }
  const vatId = normaliseGstin(billing.vat_id)
  let buyerGstin: string | null = null
  if (vatId && billing.country_id.toUpperCase() === 'IN') {
    const problem = gstinProblem(vatId)
    if (problem)
      fail(
        400,
        `Invalid order: addressInformation.billingAddress.vat_id: ${vatId} is not a GSTIN: ${problem}`,
      )
    buyerGstin = vatId
  }
  return { items, gst: { place_of_supply: place, buyer_gstin: buyerGstin } }
}
