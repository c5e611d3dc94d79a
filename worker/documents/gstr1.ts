/**
 * GSTR-1's sections of a month (India's calendar), from the documents issued in it — never from
 * orders re-priced today — as the GST offline tool's CSV templates name their columns:
 * - b2b: invoices to a registered buyer (GSTIN), per invoice and rate;
 * - b2cl: inter-state invoices to unregistered buyers above ₹1,00,000, per invoice and rate;
 * - b2cs: every other supply to unregistered buyers in India, by place of supply and rate, net of
 *   the credit notes against such invoices issued in the month;
 * - exp: exports, per invoice and rate (with or without payment of IGST);
 * - cdnr / cdnur: credit notes to registered buyers / against b2cl and export invoices;
 * - hsn(b2b), hsn(b2c): by HSN code, unit and rate, invoices less credit notes;
 * - docs: the first and last number and the count of each series used in the month.
 */
import { placeOfSupplyLabel } from '@shared/domain/gst'
import { OTHER_COUNTRIES, stateByCode } from '@shared/domain/gst-states'
import { csvCell } from '../admin/order-list'
import { sellerConfig } from './seller'

/** Inter-state supplies to unregistered buyers above this (paise) are B2C large (from 1 August 2024). */
const B2CL_THRESHOLD_MINOR = 1_00_000_00

/** The most documents a month's report reads (beyond it the report says so and stops). */
export const MAX_REPORT_DOCUMENTS = 50_000

export const GSTR1_SECTIONS = [
  'b2b',
  'b2cl',
  'b2cs',
  'exp',
  'cdnr',
  'cdnur',
  'hsn_b2b',
  'hsn_b2c',
  'docs',
] as const
type Gstr1Section = (typeof GSTR1_SECTIONS)[number]

interface Row {
  id: number
  kind: 'invoice' | 'credit_note'
  number: string
  issued_on: string
  recipient_gstin: string | null
  place_of_supply: string
  regime: string
  total_minor: number
  invoice_id: number | null
  /** The invoice's class (for a credit note: its invoice's). */
  cls: 'b2b' | 'b2cl' | 'b2cs' | 'exp'
  name: string
  rate: number
  taxable: number
  cgst: number
  sgst: number
  igst: number
  value: number
}

export const rupees = (minor: number) => (minor / 100).toFixed(2)
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
/** The offline tool's date: 05-Apr-2026. */
const toolDate = (ymd: string) =>
  `${ymd.slice(8, 10)}-${MONTHS[Number(ymd.slice(5, 7)) - 1]}-${ymd.slice(0, 4)}`
export const pos = (code: string) =>
  code === OTHER_COUNTRIES.code
    ? `${OTHER_COUNTRIES.code}-${OTHER_COUNTRIES.name}`
    : placeOfSupplyLabel({
        kind: 'state',
        state: stateByCode(code) ?? { code, name: code, iso: '', utgst: false },
      })

/**
 * Each document of the month per rate (its lines added up by rate), with the class of its invoice.
 * One statement; the class rule (b2b / exp / b2cl / b2cs) is written once, here.
 */
async function documentRates(db: D1Database, month: string, sellerState: string): Promise<Row[]> {
  const cls = `CASE WHEN i.recipient_gstin IS NOT NULL THEN 'b2b'
      WHEN i.place_of_supply = '96' THEN 'exp'
      WHEN i.place_of_supply <> ?2 AND i.total_minor > ?3 THEN 'b2cl'
      ELSE 'b2cs' END`
  const { results } = await db
    .prepare(
      `SELECT d.id, d.kind, d.number, d.issued_on, d.recipient_gstin, d.place_of_supply, d.regime, d.total_minor,
         d.invoice_id, ${cls} AS cls, json_extract(d.data, '$.figures.recipient.name') AS name, l.rate,
         SUM(l.taxable_minor) AS taxable, SUM(l.cgst_minor) AS cgst, SUM(l.sgst_minor) AS sgst,
         SUM(l.igst_minor) AS igst, SUM(l.value_minor) AS value
       FROM tax_documents d
       JOIN tax_documents i ON i.id = COALESCE(d.invoice_id, d.id)
       JOIN tax_document_lines l ON l.document_id = d.id
       WHERE d.period = ?1 AND d.id IN (SELECT id FROM tax_documents WHERE period = ?1 ORDER BY id LIMIT ?4)
       GROUP BY d.id, l.rate
       HAVING SUM(l.value_minor) <> 0
       ORDER BY d.kind DESC, d.id, l.rate`,
    )
    .bind(month, sellerState, B2CL_THRESHOLD_MINOR, MAX_REPORT_DOCUMENTS)
    .all<Row>()
  return results
}

export type Table = { header: string[]; rows: (string | number)[][] }

/** A column of a section: the offline tool's heading and the cell of one row. */
type Column<R> = readonly [heading: string, cell: (row: R) => string | number]

/** A section's table: the columns' headings, then one line per row. */
function table<R>(columns: readonly Column<R>[], rows: readonly R[]): Table {
  return {
    header: columns.map(([heading]) => heading),
    rows: rows.map((r) => columns.map(([, cell]) => cell(r))),
  }
}

/** Columns the tool wants filled with a fixed value in every row of the sections using them. */
const fixed = (heading: string, value: string): Column<unknown> => [heading, () => value]
const APPLICABLE_RATE = fixed('Applicable % of Tax Rate', '')
const CESS = fixed('Cess Amount', '0.00')
const ECOMMERCE = fixed('E-Commerce GSTIN', '')
const REVERSE_CHARGE = fixed('Reverse Charge', 'N')

/** Columns of the document sections, in the tool's words (invoices say "date", notes "Date"). */
const RECIPIENT: Column<Row>[] = [
  ['GSTIN/UIN of Recipient', (r) => r.recipient_gstin ?? ''],
  ['Receiver Name', (r) => r.name ?? ''],
]
const INVOICE: Column<Row>[] = [
  ['Invoice Number', (r) => r.number],
  ['Invoice date', (r) => toolDate(r.issued_on)],
  ['Invoice Value', (r) => rupees(r.total_minor)],
]
const NOTE: Column<Row>[] = [
  ['Note Number', (r) => r.number],
  ['Note Date', (r) => toolDate(r.issued_on)],
  fixed('Note Type', 'C'),
]
const PLACE: Column<Row> = ['Place Of Supply', (r) => pos(r.place_of_supply)]
const NOTE_VALUE: Column<Row> = ['Note Value', (r) => rupees(r.total_minor)]
/** The rate of the row, its taxable value, no cess. */
const TAXED: Column<Row>[] = [['Rate', (r) => r.rate], ['Taxable Value', (r) => rupees(r.taxable)], CESS]

interface HsnRow {
  hsn: string | null
  uqc: string
  rate: number
  qty: number
  value: number
  taxable: number
  igst: number
  cgst: number
  sgst: number
}

const HSN_COLUMNS: Column<HsnRow>[] = [
  ['HSN', (r) => r.hsn ?? ''],
  ['Description', (r) => (r.hsn ? '' : 'Shipping and lines without an HSN code')],
  ['UQC', (r) => (r.uqc === 'PCS' ? 'PCS-PIECES' : 'OTH-OTHERS')],
  ['Total Quantity', (r) => r.qty],
  ['Total Value', (r) => rupees(r.value)],
  ['Rate', (r) => r.rate],
  ['Taxable Value', (r) => rupees(r.taxable)],
  ['Integrated Tax Amount', (r) => rupees(r.igst)],
  ['Central Tax Amount', (r) => rupees(r.cgst)],
  ['State/UT Tax Amount', (r) => rupees(r.sgst)],
  CESS,
]

/** The HSN summary of the month: invoice lines less credit-note lines, registered or not. */
async function hsnSummary(db: D1Database, month: string, registered: boolean): Promise<Table> {
  const sign = `CASE WHEN d.kind = 'credit_note' THEN -1 ELSE 1 END`
  const { results } = await db
    .prepare(
      `SELECT l.hsn, l.uqc, l.rate, SUM(${sign} * l.qty) AS qty, SUM(${sign} * l.value_minor) AS value,
         SUM(${sign} * l.taxable_minor) AS taxable, SUM(${sign} * l.igst_minor) AS igst,
         SUM(${sign} * l.cgst_minor) AS cgst, SUM(${sign} * l.sgst_minor) AS sgst
       FROM tax_documents d JOIN tax_documents i ON i.id = COALESCE(d.invoice_id, d.id)
       JOIN tax_document_lines l ON l.document_id = d.id
       WHERE d.period = ?1 AND (i.recipient_gstin IS NOT NULL) = ?2
       GROUP BY l.hsn, l.uqc, l.rate HAVING SUM(${sign} * l.value_minor) <> 0
       ORDER BY l.hsn IS NULL, l.hsn, l.rate`,
    )
    .bind(month, registered ? 1 : 0)
    .all<HsnRow>()
  return table(HSN_COLUMNS, results)
}

/** One GSTR-1 section of a month as a table. */
export async function gstr1Section(
  db: D1Database,
  env: object,
  month: string,
  section: Gstr1Section,
): Promise<Table> {
  const sellerState = sellerConfig(env)?.supplier.state.code ?? ''
  if (section === 'hsn_b2b' || section === 'hsn_b2c') return hsnSummary(db, month, section === 'hsn_b2b')
  if (section === 'docs') {
    const { results } = await db
      .prepare(
        `SELECT kind, MIN(number) AS first, MAX(number) AS last, COUNT(*) AS n FROM tax_documents
         WHERE period = ? GROUP BY kind ORDER BY kind DESC`,
      )
      .bind(month)
      .all<{ kind: string; first: string; last: string; n: number }>()
    return table(
      [
        ['Nature of Document', (r) => (r.kind === 'invoice' ? 'Invoices for outward supply' : 'Credit Note')],
        ['Sr. No. From', (r) => r.first],
        ['Sr. No. To', (r) => r.last],
        ['Total Number', (r) => r.n],
        ['Cancelled', () => 0],
      ],
      results,
    )
  }
  const rows = await documentRates(db, month, sellerState)
  const invoices = rows.filter((r) => r.kind === 'invoice')
  const notes = rows.filter((r) => r.kind === 'credit_note')
  if (section === 'b2b')
    return table(
      [
        ...RECIPIENT,
        ...INVOICE,
        PLACE,
        REVERSE_CHARGE,
        APPLICABLE_RATE,
        fixed('Invoice Type', 'Regular B2B'),
        ECOMMERCE,
        ...TAXED,
      ],
      invoices.filter((r) => r.cls === 'b2b'),
    )
  if (section === 'b2cl')
    return table(
      [...INVOICE, PLACE, APPLICABLE_RATE, ...TAXED, ECOMMERCE],
      invoices.filter((r) => r.cls === 'b2cl'),
    )
  if (section === 'exp')
    return table(
      [
        ['Export Type', (r) => (r.regime === 'export_lut' ? 'WOPAY' : 'WPAY')],
        ...INVOICE,
        fixed('Port Code', ''),
        fixed('Shipping Bill Number', ''),
        fixed('Shipping Bill Date', ''),
        ...TAXED,
      ],
      invoices.filter((r) => r.cls === 'exp'),
    )
  if (section === 'b2cs') {
    // Supplies to unregistered buyers in India, by place and rate, net of their credit notes.
    const sums = new Map<string, { place: string; rate: number; taxable: number; regime: string }>()
    for (const r of [...invoices, ...notes].filter((x) => x.cls === 'b2cs')) {
      const key = `${r.place_of_supply}|${r.rate}`
      const s = sums.get(key) ?? { place: r.place_of_supply, rate: r.rate, taxable: 0, regime: r.regime }
      s.taxable += r.kind === 'credit_note' ? -r.taxable : r.taxable
      sums.set(key, s)
    }
    return table(
      [
        fixed('Type', 'OE'),
        ['Place Of Supply', (s) => pos(s.place)],
        APPLICABLE_RATE,
        ['Rate', (s) => s.rate],
        ['Taxable Value', (s) => rupees(s.taxable)],
        CESS,
        ECOMMERCE,
      ],
      [...sums.values()].sort((a, b) => a.place.localeCompare(b.place) || a.rate - b.rate),
    )
  }
  if (section === 'cdnr')
    return table(
      [
        ...RECIPIENT,
        ...NOTE,
        PLACE,
        REVERSE_CHARGE,
        fixed('Note Supply Type', 'Regular B2B'),
        NOTE_VALUE,
        APPLICABLE_RATE,
        ...TAXED,
      ],
      notes.filter((r) => r.cls === 'b2b'),
    )
  return table(
    [
      ['UR Type', (r) => (r.cls === 'b2cl' ? 'B2CL' : r.regime === 'export_lut' ? 'EXPWOP' : 'EXPWP')],
      ...NOTE,
      PLACE,
      NOTE_VALUE,
      APPLICABLE_RATE,
      ...TAXED,
    ],
    notes.filter((r) => r.cls === 'b2cl' || r.cls === 'exp'),
  )
}

/** A table as CSV (quoted cells, formula characters neutralised, CRLF lines). */
export function tableCsv(t: Table): string {
  return `${[t.header, ...t.rows].map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`
}
