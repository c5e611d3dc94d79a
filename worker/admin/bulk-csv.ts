/**
 * The catalogue's prices, special prices and stock as a CSV file an operator edits in a
 * spreadsheet and brings back:
 * - One row per sku. A simple product's row holds its price, special price (with its window) and
 *   stock; a configurable's row holds the price and special price its sizes follow (no stock);
 *   each size's row (its `parent_sku` filled in) holds that size's stock only.
 * - Amounts are rupees as people write them (`2400`, `2,400.50`, `₹2,400`), dates `YYYY-MM-DD`.
 * - A column left out of the file changes nothing; a row's empty price or stock changes nothing;
 *   an empty special price means "no special price" (so an exported file brought back unchanged
 *   changes nothing). `name` and `parent_sku` are there to read and are not imported.
 * - Any bad row refuses the whole file, naming its line (the header is line 1) and why.
 */
import { baseCurrency } from '@shared/config/store'
import { z } from 'zod'
import { amountTyped } from './input'
import { csvCell } from './order-list'

const CSV_COLUMNS = [
  'sku',
  'parent_sku',
  'name',
  'price',
  'special_price',
  'special_from_date',
  'special_to_date',
  'qty',
] as const
type Column = (typeof CSV_COLUMNS)[number]

/** The most data rows one file may hold (the file itself is at most the body limit, 1 MB). */
const MAX_CSV_ROWS = 5000
/** The most rows an export writes. */
const MAX_EXPORT_ROWS = 20_000
const MAX_CELL_CHARS = 500

/** A row of the file as read: its line and the columns it gives (undefined: not in the file). */
export interface PriceRow {
  line: number
  sku: string
  /** Minor units; undefined: unchanged. */
  price?: number
  /** Minor units, null: no special price; undefined: the column is not in the file. */
  special?: number | null
  from?: string | null
  to?: string | null
  qty?: number
}

/** A refusal of the file: its line and why (what the operator reads). */
export class CsvRefusal extends Error {}
const refuse = (line: number, why: string): never => {
  throw new CsvRefusal(`line ${line}: ${why}`)
}

/**
 * Splits CSV text into rows of cells with the line each row starts on. A quoted cell may hold
 * commas, line breaks and "" for a quote; a byte-order mark is ignored; blank lines are skipped.
 */
function csvRows(text: string): { line: number; cells: string[] }[] {
  const rows: { line: number; cells: string[] }[] = []
  const src = text.replace(/^\uFEFF/, '')
  let cells: string[] = []
  let cell = ''
  let quoted = false
  let line = 1
  let start = 1
  const endRow = () => {
    cells.push(cell)
    if (cells.length > 1 || cells[0]?.trim() !== '')
      rows.push({ line: start, cells: cells.map((c) => c.trim()) })
    cells = []
    cell = ''
  }
  for (let i = 0; i < src.length; i++) {
    const ch = src[i]
    if (quoted) {
      if (ch === '"' && src[i + 1] === '"') {
        cell += '"'
        i++
      } else if (ch === '"') quoted = false
      else {
        if (ch === '\n') line++
        cell += ch
      }
    } else if (ch === '"') quoted = true
    else if (ch === ',') {
      cells.push(cell)
      cell = ''
    } else if (ch === '\r' && src[i + 1] === '\n') continue
    else if (ch === '\n' || ch === '\r') {
      endRow()
      start = ++line
    } else cell += ch
    if (cell.length > MAX_CELL_CHARS) refuse(line, `a cell is longer than ${MAX_CELL_CHARS} characters`)
  }
  if (quoted) refuse(start, 'a quoted cell is not closed (a " is missing)')
  endRow()
  return rows
}

const DATE = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}:\d{2})?$/
const Qty = z
  .string()
  .regex(/^\d{1,7}$/, 'stock must be a whole number of units, like 12')
  .transform(Number)
  .pipe(z.number().max(1_000_000, 'stock is too large (at most 10,00,000)'))

/** The file's rows (the rules in this file's header), or a CsvRefusal naming the first bad line. */
export function readPriceFile(text: string): PriceRow[] {
  const rows = csvRows(text)
  const head = rows.shift()
  if (!head) return refuse(1, 'the file is empty; it needs a header row naming its columns, sku first')
  const columns = head.cells.map((c) => c.toLowerCase())
  for (const c of columns)
    if (!(CSV_COLUMNS as readonly string[]).includes(c))
      refuse(head.line, `"${c.slice(0, 40)}" is not a column (columns: ${CSV_COLUMNS.join(', ')})`)
  if (!columns.includes('sku')) refuse(head.line, 'the header has no sku column')
  if (new Set(columns).size !== columns.length) refuse(head.line, 'a column is named twice')
  if (rows.length > MAX_CSV_ROWS) refuse(head.line, `at most ${MAX_CSV_ROWS} rows in one file`)
  const seen = new Map<string, number>()
  return rows.map(({ line, cells }) => {
    if (cells.length > columns.length) refuse(line, `${cells.length} cells for ${columns.length} columns`)
    const cell = (c: Column) => {
      const i = columns.indexOf(c)
      return i < 0 ? undefined : (cells[i] ?? '')
    }
    const sku = cell('sku') ?? ''
    if (!sku) refuse(line, 'the sku is empty')
    const first = seen.get(sku.toUpperCase())
    if (first) refuse(line, `sku ${sku} is also on line ${first}`)
    seen.set(sku.toUpperCase(), line)
    const amount = (c: 'price' | 'special_price', label: string) => {
      const parsed = amountTyped(label).safeParse(cell(c))
      return parsed.success
        ? parsed.data
        : refuse(line, parsed.error.issues[0]?.message ?? `${label} is not an amount`)
    }
    const date = (c: 'special_from_date' | 'special_to_date') => {
      const v = cell(c)
      if (v === undefined || v === '') return v === undefined ? undefined : null
      return DATE.test(v) ? v : refuse(line, `${c.replace(/_/g, ' ')} must be a date like 2027-01-31`)
    }
    const row: PriceRow = { line, sku }
    if (cell('price')) row.price = amount('price', 'price')
    const special = cell('special_price')
    if (special !== undefined) row.special = special === '' ? null : amount('special_price', 'special price')
    const from = date('special_from_date')
    const to = date('special_to_date')
    if (from !== undefined) row.from = from
    if (to !== undefined) row.to = to
    const qty = cell('qty')
    if (qty) {
      const parsed = Qty.safeParse(qty)
      row.qty = parsed.success
        ? parsed.data
        : refuse(line, parsed.error.issues[0]?.message ?? 'stock is not a number')
    }
    return row
  })
}

/** An amount of the catalogue (rupees) as the file writes it: 2400 or 1299.50, no grouping. */
const fileAmount = (v: unknown) => {
  if (typeof v !== 'number' || !Number.isFinite(v)) return ''
  const minor = Math.round(v * 100)
  return minor % 100 === 0 ? String(minor / 100) : (minor / 100).toFixed(2)
}

/** The catalogue as the file (every product by sku, each configurable followed by its sizes). */
export async function catalogueCsv(db: D1Database): Promise<string> {
  const [products, sizes] = await db.batch([
    db
      .prepare(
        `SELECT p.sku, p.type_id, p.name, p.price,
           json_extract(p.doc, '$.special_price') AS special, json_extract(p.doc, '$.special_from_date') AS from_date,
           json_extract(p.doc, '$.special_to_date') AS to_date, i.qty
         FROM products p LEFT JOIN inventory i ON i.sku = p.sku AND i.parent_sku IS NULL
         ORDER BY p.sku LIMIT ?1`,
      )
      .bind(MAX_EXPORT_ROWS),
    db
      .prepare(
        `SELECT i.sku, i.parent_sku, i.qty, json_extract(c.value, '$.name') AS name
         FROM inventory i JOIN products p ON p.sku = i.parent_sku,
           json_each(p.doc, '$.configurable_children') AS c
         WHERE json_extract(c.value, '$.sku') = i.sku ORDER BY i.parent_sku, i.sku LIMIT ?1`,
      )
      .bind(MAX_EXPORT_ROWS),
  ])
  type P = {
    sku: string
    type_id: string
    name: string
    price: number
    special: number | null
    from_date: string | null
    to_date: string | null
    qty: number | null
  }
  type S = { sku: string; parent_sku: string; qty: number; name: string | null }
  const bySku = new Map<string, S[]>()
  for (const s of (sizes?.results ?? []) as S[])
    bySku.set(s.parent_sku, [...(bySku.get(s.parent_sku) ?? []), s])
  const lines = [CSV_COLUMNS.join(',')]
  for (const p of (products?.results ?? []) as P[]) {
    if (lines.length > MAX_EXPORT_ROWS) break
    lines.push(
      [p.sku, '', p.name, fileAmount(p.price), fileAmount(p.special), p.from_date, p.to_date, p.qty]
        .map(csvCell)
        .join(','),
    )
    for (const s of bySku.get(p.sku) ?? [])
      lines.push([s.sku, p.sku, s.name, '', '', '', '', s.qty].map(csvCell).join(','))
  }
  return `${lines.join('\r\n')}\r\n`
}

/** The file's name for a download: prices and stock of the shop's currency. */
export const exportName = () => `catalogue-prices-${baseCurrency().toLowerCase()}.csv`
