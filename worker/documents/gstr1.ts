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

function hsnTable(
  rows: {
    hsn: string | null
    uqc: string
    rate: number
    qty: number
    value: number
    taxable: number
    igst: number
    cgst: number
    sgst: number
  }[],
): Table {
  return {
    header: [
      'HSN',
      'Description',
      'UQC',
      'Total Quantity',
      'Total Value',
      'Rate',
      'Taxable Value',
      'Integrated Tax Amount',
      'Central Tax Amount',
      'State/UT Tax Amount',
      'Cess Amount',
    ],
    rows: rows.map((r) => [
      r.hsn ?? '',
      r.hsn ? '' : 'Shipping and lines without an HSN code',
      r.uqc === 'PCS' ? 'PCS-PIECES' : 'OTH-OTHERS',
      r.qty,
      rupees(r.value),
      r.rate,
      rupees(r.taxable),
      rupees(r.igst),
      rupees(r.cgst),
      rupees(r.sgst),
      '0.00',
    ]),
  }
}

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
    .all<{
      hsn: string | null
      uqc: string
      rate: number
      qty: number
      value: number
      taxable: number
      igst: number
      cgst: number
      sgst: number
    }>()
  return hsnTable(results)
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
    return {
      header: ['Nature of Document', 'Sr. No. From', 'Sr. No. To', 'Total Number', 'Cancelled'],
      rows: results.map((r) => [
        r.kind === 'invoice' ? 'Invoices for outward supply' : 'Credit Note',
        r.first,
        r.last,
        r.n,
        0,
      ]),
    }
  }
  const rows = await documentRates(db, month, sellerState)
  const invoices = rows.filter((r) => r.kind === 'invoice')
  const notes = rows.filter((r) => r.kind === 'credit_note')
  if (section === 'b2b')
    return {
      header: [
        'GSTIN/UIN of Recipient',
        'Receiver Name',
        'Invoice Number',
        'Invoice date',
        'Invoice Value',
        'Place Of Supply',
        'Reverse Charge',
        'Applicable % of Tax Rate',
        'Invoice Type',
        'E-Commerce GSTIN',
        'Rate',
        'Taxable Value',
        'Cess Amount',
      ],
      rows: invoices
        .filter((r) => r.cls === 'b2b')
        .map((r) => [
          r.recipient_gstin ?? '',
          r.name ?? '',
          r.number,
          toolDate(r.issued_on),
          rupees(r.total_minor),
          pos(r.place_of_supply),
          'N',
          '',
          'Regular B2B',
          '',
          r.rate,
          rupees(r.taxable),
          '0.00',
        ]),
    }
  if (section === 'b2cl')
    return {
      header: [
        'Invoice Number',
        'Invoice date',
        'Invoice Value',
        'Place Of Supply',
        'Applicable % of Tax Rate',
        'Rate',
        'Taxable Value',
        'Cess Amount',
        'E-Commerce GSTIN',
      ],
      rows: invoices
        .filter((r) => r.cls === 'b2cl')
        .map((r) => [
          r.number,
          toolDate(r.issued_on),
          rupees(r.total_minor),
          pos(r.place_of_supply),
          '',
          r.rate,
          rupees(r.taxable),
          '0.00',
          '',
        ]),
    }
  if (section === 'exp')
    return {
      header: [
        'Export Type',
        'Invoice Number',
        'Invoice date',
        'Invoice Value',
        'Port Code',
        'Shipping Bill Number',
        'Shipping Bill Date',
        'Rate',
        'Taxable Value',
        'Cess Amount',
      ],
      rows: invoices
        .filter((r) => r.cls === 'exp')
        .map((r) => [
          r.regime === 'export_lut' ? 'WOPAY' : 'WPAY',
          r.number,
          toolDate(r.issued_on),
          rupees(r.total_minor),
          '',
          '',
          '',
          r.rate,
          rupees(r.taxable),
          '0.00',
        ]),
    }
  if (section === 'b2cs') {
    // Supplies to unregistered buyers in India, by place and rate, net of their credit notes.
    const sums = new Map<string, { place: string; rate: number; taxable: number; regime: string }>()
    for (const r of [...invoices, ...notes].filter((x) => x.cls === 'b2cs')) {
      const key = `${r.place_of_supply}|${r.rate}`
      const s = sums.get(key) ?? { place: r.place_of_supply, rate: r.rate, taxable: 0, regime: r.regime }
      s.taxable += r.kind === 'credit_note' ? -r.taxable : r.taxable
      sums.set(key, s)
    }
    return {
      header: [
        'Type',
        'Place Of Supply',
        'Applicable % of Tax Rate',
        'Rate',
        'Taxable Value',
        'Cess Amount',
        'E-Commerce GSTIN',
      ],
      rows: [...sums.values()]
        .sort((a, b) => a.place.localeCompare(b.place) || a.rate - b.rate)
        .map((s) => ['OE', pos(s.place), '', s.rate, rupees(s.taxable), '0.00', '']),
    }
  }
  if (section === 'cdnr')
    return {
      header: [
        'GSTIN/UIN of Recipient',
        'Receiver Name',
        'Note Number',
        'Note Date',
        'Note Type',
        'Place Of Supply',
        'Reverse Charge',
        'Note Supply Type',
        'Note Value',
        'Applicable % of Tax Rate',
        'Rate',
        'Taxable Value',
        'Cess Amount',
      ],
      rows: notes
        .filter((r) => r.cls === 'b2b')
        .map((r) => [
          r.recipient_gstin ?? '',
          r.name ?? '',
          r.number,
          toolDate(r.issued_on),
          'C',
          pos(r.place_of_supply),
          'N',
          'Regular B2B',
          rupees(r.total_minor),
          '',
          r.rate,
          rupees(r.taxable),
          '0.00',
        ]),
    }
  return {
    header: [
      'UR Type',
      'Note Number',
      'Note Date',
      'Note Type',
      'Place Of Supply',
      'Note Value',
      'Applicable % of Tax Rate',
      'Rate',
      'Taxable Value',
      'Cess Amount',
    ],
    rows: notes
      .filter((r) => r.cls === 'b2cl' || r.cls === 'exp')
      .map((r) => [
        r.cls === 'b2cl' ? 'B2CL' : r.regime === 'export_lut' ? 'EXPWOP' : 'EXPWP',
        r.number,
        toolDate(r.issued_on),
        'C',
        pos(r.place_of_supply),
        rupees(r.total_minor),
        '',
        r.rate,
        rupees(r.taxable),
        '0.00',
      ]),
  }
}

/** A table as CSV (quoted cells, formula characters neutralised, CRLF lines). */
export function tableCsv(t: Table): string {
  return `${[t.header, ...t.rows].map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`
}
