/**
 * Per-isolate copies of the index's hot columns (search_docs: visibility, status, type, prices,
 * dates), one array per column indexed by product id, so a narrowed search can test them, sort by
 * them and count price buckets in the isolate instead of looking each visited product up in the
 * statement (narrow/). A large catalogue's listing visits thousands of products; the lookup
 * of each one's row cost more than everything else the statement did.
 *
 * - Built by the catalogue writer with the facet postings (`hotColumnStatements`, migration 0170):
 *   per field and part of the ids, the ids and their values as text. Term columns as JSON strings,
 *   number columns as SQLite's text of the number (which reads back as the same double), text
 *   columns as the value's rank in SQLite's text order (equal values, equal ranks), so sorting by
 *   rank sorts as the statement would. Any write to search_docs empties them (triggers).
 * - Read per field on demand, in one batch with the index version (one snapshot), and valid for that
 *   version only; a field whose parts do not add up to the index rows they were built from, or that
 *   is not built, is not used (the statement tests it, as before).
 * - A missing value (the product has none, several, or no index row) is -1 (NaN for numbers): a
 *   column with a missing value is not used for clauses, sorts or buckets.
 * - A catalogue whose ids would not fit the budget with the columns asked is remembered as such for
 *   its version (not read again).
 */
import { createMemo } from '../../platform/memo'
import { HOT_COLUMNS } from '../semantics/facts'
import { indexVersionSeen, noteIndexVersion, versionOf, versionRead } from './index-version'

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

/**
 * What is known of a field at a version: its column, or that it cannot be used (not built, or its
 * parts do not check out). Under TOO_LARGE: the bytes per id of a read that would not have fitted
 * the budget (as many columns or more are not asked again at that version).
 */
type HotEntry = HotColumnValues | { unusable: true; perId: number }
const TOO_LARGE = ''

const hotCache = createMemo<HotEntry>({
  name: 'search hot columns',
  ttlMs: Number.POSITIVE_INFINITY,
  maxEntries: HOT_COLUMNS.length + 1,
  maxBytes: HOT_COLUMNS_MAX_BYTES,
  sizeOf: (c) =>
    'unusable' in c ? 64 : 96 + c.values.byteLength + c.dict.reduce((n, v) => n + 24 + 2 * v.length, 0),
  version: indexVersionSeen,
})

/** Bytes per product id of a column. */
const bytesPerId = (kind: HotColumnValues['kind']) => (kind === 'number' ? 8 : 4)

/** The columns of `fields` held at the current index version (no read). */
export function heldHotColumns(fields: Iterable<string>): Map<string, HotColumnValues> {
  const out = new Map<string, HotColumnValues>()
  for (const f of fields) {
    const c = hotCache.peek(f)
    if (c && !('unusable' in c)) out.set(f, c)
  }
  return out
}

/**
 * The hot columns of `fields` (hot fields only), reading the missing ones from their stored parts
 * in one batch with the index version. Absent from the answer: a field that is not a hot column or
 * not usable (see the file's note), or every field when the catalogue's largest product id would
 * not fit the budget with all of them.
 */
export async function hotColumnsFor(db: D1Database, fields: string[]): Promise<Map<string, HotColumnValues>> {
  const wanted = HOT_COLUMNS.filter((h) => fields.includes(h.field))
  const out = heldHotColumns(wanted.map((h) => h.field))
  const missing = wanted.filter((h) => hotCache.peek(h.field) === undefined)
  const perId = wanted.reduce((n, h) => n + bytesPerId(h.kind), 0)
  const tooLarge = hotCache.peek(TOO_LARGE)
  if (missing.length === 0 || (tooLarge && 'unusable' in tooLarge && perId >= tooLarge.perId)) return out
  const [meta, parts] = await db.batch<Record<string, unknown>>([
    versionRead(db),
    db
      .prepare(
        'SELECT h.field AS field, h.part AS part, h.total AS total, h.n AS n, h.ids AS ids, h.vals AS vals FROM json_each(?1) j CROSS JOIN search_hot h ON h.field = j.value ORDER BY h.field, h.part',
      )
      .bind(JSON.stringify(missing.map((h) => h.field))),
  ])
  const version = versionOf(meta)
  // The memo stamps an entry with the version last seen: record the version read first.
  noteIndexVersion(version)
  const rows = (parts?.results ?? []) as unknown as StoredPart[]
  const read = missing.map((h) => ({ h, parts: rows.filter((r) => r.field === h.field) }))
  // The largest id is in a field's last part (parts are ranges of ids).
  let maxId = -1
  for (const { parts } of read)
    for (const id of String(parts[parts.length - 1]?.ids ?? '').split(','))
      maxId = Math.max(maxId, Number(id) || 0)
  if ((maxId + 1) * perId > HOT_COLUMNS_MAX_BYTES) {
    hotCache.set(TOO_LARGE, { unusable: true, perId })
    return out
  }
  for (const { h, parts } of read) {
    const column = parts.length > 0 ? readColumn(h.kind, parts, maxId + 1, version) : null
    if (!column) {
      hotCache.set(h.field, { unusable: true, perId: 0 })
      continue
    }
    hotCache.set(h.field, column)
    out.set(h.field, column)
  }
  return out
}

interface StoredPart {
  field: string
  part: number
  total: number
  n: number
  ids: string
  vals: string
}

/**
 * One column from its stored parts, or null when they do not add up to the index rows they were
 * built from or do not read back (then it is not kept: the statement tests that field itself).
 */
function readColumn(
  kind: HotColumnValues['kind'],
  parts: StoredPart[],
  length: number,
  version: number,
): HotColumnValues | null {
  const total = Number(parts[0]?.total)
  if (parts.some((p) => Number(p.total) !== total) || parts.reduce((n, p) => n + Number(p.n), 0) !== total)
    return null
  const dict: string[] = []
  const codes = new Map<string, number>()
  const values =
    kind === 'number' ? new Float64Array(length).fill(Number.NaN) : new Int32Array(length).fill(-1)
  let nulls = 0
  for (const part of parts) {
    const ids = part.ids.split(',').map(Number)
    let vals: unknown[]
    try {
      vals = kind === 'term' ? (JSON.parse(part.vals) as unknown[]) : part.vals.split(',')
    } catch {
      return null
    }
    if (!Array.isArray(vals) || ids.length !== Number(part.n) || vals.length !== ids.length) return null
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as number
      const v = vals[i]
      if (!Number.isInteger(id) || id < 0 || id >= length) return null
      if (kind === 'term') {
        if (typeof v !== 'string') {
          nulls++
          continue
        }
        let code = codes.get(v)
        if (code === undefined) {
          code = dict.length
          dict.push(v)
          codes.set(v, code)
        }
        values[id] = code
        continue
      }
      // SQLite writes infinities as 'Inf' (not a number here): such a value counts as missing.
      const x = v === '' ? Number.NaN : Number(v)
      if (Number.isNaN(x) || (kind === 'text' && !(Number.isInteger(x) && x > 0))) nulls++
      else values[id] = x
    }
  }
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
