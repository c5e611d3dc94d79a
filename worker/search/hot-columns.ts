/**
 * Per-isolate copies of the index's hot columns (search_docs: visibility, status, type, prices,
 * dates), one array per column indexed by product id, so a narrowed search can test them, sort by
 * them and count price buckets in the isolate instead of looking each visited product up in the
 * statement (candidates.ts). A large catalogue's listing visits thousands of products; the lookup
 * of each one's row cost more than everything else the statement did.
 *
 * - A column is read whole, on demand, in one statement with the index version (one snapshot), and
 *   is valid for that version only. Term columns hold a code per product (its value's number in
 *   `dict`), number columns the number, text columns the value's rank in SQLite's text order
 *   (equal values, equal ranks), so sorting by rank sorts as the statement would.
 * - A missing value (the product has none, several, or no index row) is -1 (NaN for numbers): a
 *   clause is only answered here when every product it is asked about has a value.
 * - Read only when a search visits many products, and only while the columns asked fit the
 *   budget: a catalogue too large for it is remembered as such for its version (no re-reading).
 */
import { createMemo } from '../platform/memo'
import { HOT_COLUMNS } from './facts'
import { indexVersionSeen, noteIndexVersion } from './index-version'

/** One hot column of every product: `values[id]` (see the file's note for what a value is). */
export interface HotColumnValues {
  version: number
  kind: 'term' | 'number' | 'text'
  values: Int32Array | Float64Array
  /** Term columns: the value of each code. */
  dict: string[]
  /** Index rows without a value here (a clause on the column is then left to the statement). */
  nulls: number
}

/** Most bytes of columns one isolate keeps (a column is 4 or 8 bytes per product id). */
const HOT_COLUMNS_MAX_BYTES = 4 * 1024 * 1024

const hotCache = createMemo<HotColumnValues>({
  name: 'search hot columns',
  ttlMs: Number.POSITIVE_INFINITY,
  maxEntries: HOT_COLUMNS.length,
  maxBytes: HOT_COLUMNS_MAX_BYTES,
  sizeOf: (c) => 96 + c.values.byteLength + c.dict.reduce((n, v) => n + 24 + 2 * v.length, 0),
  version: indexVersionSeen,
})

/**
 * The index version at which the catalogue's ids were too many for the budget, and the bytes per id
 * that were asked: as many columns or more are not asked again at that version.
 */
let tooLarge: { version: number | null; perId: number } | null = null

/** Bytes per product id of a column. */
const bytesPerId = (kind: HotColumnValues['kind']) => (kind === 'number' ? 8 : 4)

/** The columns of `fields` held at the current index version (no read). */
export function heldHotColumns(fields: Iterable<string>): Map<string, HotColumnValues> {
  const out = new Map<string, HotColumnValues>()
  for (const f of fields) {
    const c = hotCache.peek(f)
    if (c) out.set(f, c)
  }
  return out
}

/**
 * The hot columns of `fields` (hot fields only), reading the missing ones in one statement. Absent
 * from the answer: a field that is not a hot column, or every field when the catalogue's largest
 * product id would not fit the budget with all of them.
 */
export async function hotColumnsFor(db: D1Database, fields: string[]): Promise<Map<string, HotColumnValues>> {
  const wanted = HOT_COLUMNS.filter((h) => fields.includes(h.field))
  const out = heldHotColumns(wanted.map((h) => h.field))
  const missing = wanted.filter((h) => !out.has(h.field))
  const perId = wanted.reduce((n, h) => n + bytesPerId(h.kind), 0)
  if (missing.length === 0 || (tooLarge?.version === indexVersionSeen() && perId >= tooLarge.perId))
    return out
  const maxId = Math.floor(HOT_COLUMNS_MAX_BYTES / perId) - 1
  // Every column aggregated in the same pass as the ids, so value i belongs to id i whatever order
  // the rows come in. Numbers as SQLite's text of them (which reads back as the same double), a
  // missing one as ''; terms as JSON strings; text columns as their dense rank in text order.
  const cols = missing.map((h, i) =>
    h.kind === 'term'
      ? `json_group_array(r${i}) AS c${i}`
      : `group_concat(COALESCE(r${i}, ''), ',') AS c${i}`,
  )
  const picked = missing.map((h, i) =>
    h.kind === 'text'
      ? `, CASE WHEN ${h.column} IS NULL THEN NULL ELSE DENSE_RANK() OVER (ORDER BY ${h.column}) END AS r${i}`
      : `, ${h.column} AS r${i}`,
  )
  let row: Record<string, string | number | null> | null
  try {
    row = await db
      .prepare(
        `SELECT (SELECT value FROM search_meta WHERE key = 'version') AS ver, (SELECT MAX(product_id) FROM search_docs) AS top, group_concat(product_id, ',') AS ids, ${cols.join(', ')} FROM (SELECT product_id${picked.join('')} FROM search_docs WHERE (SELECT MAX(product_id) FROM search_docs) <= ?1)`,
      )
      .bind(maxId)
      .first<Record<string, string | number | null>>()
  } catch {
    // Beyond what one statement may return (SQLite's value length): the statement tests these.
    tooLarge = { version: indexVersionSeen(), perId }
    return out
  }
  const version = Number(row?.ver ?? 0)
  // The memo stamps an entry with the version last seen: record the version read first.
  noteIndexVersion(version)
  const top = row?.top === null || row?.top === undefined ? -1 : Number(row.top)
  if (top > maxId) {
    tooLarge = { version, perId }
    return out
  }
  const ids = typeof row?.ids === 'string' ? row.ids.split(',').map(Number) : []
  missing.forEach((h, i) => {
    const raw = row?.[`c${i}`]
    const column = readColumn(h.kind, raw ?? null, ids, top + 1, version)
    if (!column) return
    hotCache.set(h.field, column)
    out.set(h.field, column)
  })
  return out
}

/**
 * One column from its aggregated text (see hotColumnsFor), or null when it does not line up with
 * the ids (then it is not kept: the statement tests that field itself).
 */
function readColumn(
  kind: HotColumnValues['kind'],
  raw: string | number | null,
  ids: number[],
  length: number,
  version: number,
): HotColumnValues | null {
  const text = raw === null ? '' : String(raw)
  const dict: string[] = []
  let parts: (string | null)[]
  if (kind === 'term') {
    parts = ids.length === 0 ? [] : (JSON.parse(text) as (string | null)[])
  } else {
    parts = ids.length === 0 ? [] : text.split(',')
  }
  if (parts.length !== ids.length) return null
  let nulls = 0
  if (kind === 'number') {
    const values = new Float64Array(length).fill(Number.NaN)
    ids.forEach((id, i) => {
      const v = parts[i]
      const x = v === '' || v === null || v === undefined ? Number.NaN : Number(v)
      // SQLite writes infinities as 'Inf' (not read here): such a value counts as missing.
      if (Number.isNaN(x)) nulls++
      values[id] = x
    })
    return { version, kind, values, dict, nulls }
  }
  const values = new Int32Array(length).fill(-1)
  const codes = new Map<string, number>()
  ids.forEach((id, i) => {
    const v = parts[i]
    if (v === null || v === undefined || (kind === 'text' && v === '')) {
      nulls++
      return
    }
    if (kind === 'text') {
      values[id] = Number(v)
      return
    }
    let code = codes.get(v)
    if (code === undefined) {
      code = dict.length
      dict.push(v)
      codes.set(v, code)
    }
    values[id] = code
  })
  return { version, kind, values, dict, nulls }
}

/** Whether every product of `ids` has a value in `column` (a missing one is left to the statement). */
export function complete(column: HotColumnValues, ids: ArrayLike<number>): boolean {
  const v = column.values
  for (let i = 0; i < ids.length; i++) {
    const x = v[ids[i] as number]
    if (x === undefined || (column.kind === 'number' ? Number.isNaN(x) : x < 0)) return false
  }
  return true
}
