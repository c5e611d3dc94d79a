/**
 * Node entry for scripts/import.mjs (bundled with esbuild): the export files of one run → either
 * every issue of every bad record (nothing to write), or the SQL text and KV entries that import
 * them all. A run is all-or-nothing: one bad record anywhere means nothing is written.
 */
import { urlMappingKey } from '../../../worker/catalog/url-map'
import { bumpIndexVersionStatement, facetPostingsStatements } from '../../../worker/search'
import {
  createRecordingDb,
  D1_MAX_STATEMENT_BYTES,
  toMergedSql,
  toSql,
  utf8Bytes,
} from '../seed/sql-recorder'
import type { CoercionCounts } from './coerce'
import { labelOptionsFromAttributes } from './option-labels'
import {
  type ImportError,
  type ImportRecord,
  type ImportType,
  type ImportWarning,
  parseImportFile,
  recordKey,
} from './transform'
import { clearCatalogueStatements, importStatements, importUrlMappings } from './write'

type PreparedImport =
  | { ok: false; errors: ImportError[]; coercions: CoercionCounts }
  | {
      ok: true
      sql: string
      statements: number
      kv: Array<{ key: string; value: string }>
      counts: Partial<Record<ImportType, number>>
      /** Conversions made on the way in, '<kind> (<field>)' → how many. */
      coercions: CoercionCounts
      /** Per product, what was converted (the older format, several values → one). */
      warnings: ImportWarning[]
      /**
       * A SELECT of the stored `url_path` of the products and categories the run replaces (before
       * the write), for staleUrlKeys; null when there are none.
       */
      previousUrlsSql: string | null
    }

interface RunOptions {
  type?: string
  /** Empty the whole catalogue first (the demo included), in the same run as the writes. */
  replace?: boolean
  /** With `replace`, empty the shop's content too (CMS pages and blocks, home, size guides, stores). */
  replaceContent?: boolean
  onProgress?: (done: number, total: number, file: string) => void
}

/**
 * KV keys to delete after the write: the old url paths of the replaced products and categories
 * that no new mapping uses any more — a renamed path, or a product that is no longer listed.
 */
export function staleUrlKeys(
  previous: ReadonlyArray<{ url_path?: unknown }>,
  kv: ReadonlyArray<{ key: string }>,
): string[] {
  const kept = new Set(kv.map((e) => e.key))
  const stale = new Set<string>()
  for (const row of previous) {
    const key = typeof row.url_path === 'string' ? urlMappingKey(row.url_path) : ''
    if (key && !kept.has(key)) stale.add(key)
  }
  return [...stale]
}

const grouped = (n: number) => n.toLocaleString('en-US')

/**
 * Why a record cannot be written, or null when it can: one of its statements is longer than D1
 * takes (D1_MAX_STATEMENT_BYTES of SQL text, its values written in as literals). The dry run and
 * the write render the very same statements, so a record the dry run passes is one the write takes.
 */
function sizeProblem(entry: ImportRecord['entry'], statements: readonly D1PreparedStatement[]) {
  const longest = Math.max(0, ...statements.map((st) => utf8Bytes(toSql(st))))
  if (longest <= D1_MAX_STATEMENT_BYTES) return null
  // Name the field that makes it long, so the operator knows what to shorten.
  const fields = Object.entries(entry.doc as Record<string, unknown>).map(
    ([name, value]) => [name, utf8Bytes(JSON.stringify(value) ?? '')] as const,
  )
  const [field, bytes] = fields.reduce((a, b) => (b[1] > a[1] ? b : a), ['', 0] as const)
  return {
    reason: `invalid ${entry.type}: too large to store: it is written as a statement of ${grouped(longest)} bytes and D1 takes at most ${grouped(D1_MAX_STATEMENT_BYTES)} (largest field: ${field}, ${grouped(bytes)} bytes)`,
    kind: `invalid ${entry.type}: too large to store (over ${grouped(D1_MAX_STATEMENT_BYTES)} bytes of SQL)`,
  }
}

/** One file (see prepareRun). */
export function prepareImport(text: string, file: string, opts: RunOptions): PreparedImport {
  return prepareRun([{ text, file }], opts)
}

/**
 * Validates every file of a run, then renders all of their statements (only when every record of
 * every file is valid and every statement of each fits in D1). Same-shaped inserts are merged into
 * multi-row statements; the catalogue version moves on once, at the end.
 */
export function prepareRun(
  files: ReadonlyArray<{ text: string; file: string; type?: string }>,
  opts: RunOptions,
): PreparedImport {
  const errors: ImportError[] = []
  const warnings: ImportWarning[] = []
  const records: ImportRecord[] = []
  const counts: Partial<Record<ImportType, number>> = {}
  const coercions: CoercionCounts = new Map()
  const seen = new Map<string, string>()
  const db = createRecordingDb()
  const recordWrites: D1PreparedStatement[] = []
  const runs = files.map(({ text, file, type }) => {
    const onProgress = opts.onProgress && ((d: number, t: number) => opts.onProgress?.(d, t, file))
    // A file's own type (TYPE:FILE on the command line) wins over --type.
    const parsed = parseImportFile(text, file, { type: type ?? opts.type, onProgress })
    errors.push(...parsed.errors)
    warnings.push(...parsed.warnings)
    for (const [k, n] of parsed.coercions) coercions.set(k, (coercions.get(k) ?? 0) + n)
    return { file, parsed }
  })
  // Every file is read before any is written, so a product takes labels from any file's attributes.
  labelOptionsFromAttributes(
    runs.flatMap(({ file, parsed }) => parsed.records.map((record) => ({ file, record }))),
    warnings,
  )
  for (const { file, parsed } of runs) {
    for (const r of parsed.records) {
      const key = recordKey(r.entry)
      const first = seen.get(key)
      if (first !== undefined) {
        const reason = `duplicate ${r.entry.type} id ${key.split(':')[1]} (also in ${first})`
        errors.push({ file, line: r.line, reason, kind: `duplicate ${r.entry.type} id` })
        continue
      }
      const statements = importStatements(db, [r])
      const tooLarge = sizeProblem(r.entry, statements)
      if (tooLarge) {
        errors.push({ file, line: r.line, ...tooLarge })
        continue
      }
      seen.set(key, `${file}:${r.line}`)
      records.push(r)
      recordWrites.push(...statements)
    }
    for (const [t, n] of Object.entries(parsed.counts))
      counts[t as ImportType] = (counts[t as ImportType] ?? 0) + n
  }
  if (errors.length) return { ok: false, errors, coercions }
  const sqlOf = (st: D1PreparedStatement) => (st as unknown as { sql: string }).sql
  // The index's per-product DELETEs stay for an upsert (they run before every INSERT after
  // merging); after a full clear they are dropped. Version bumps are replaced by one at the end.
  const writes = recordWrites.filter(
    (st) =>
      !/^\s*UPDATE search_meta/.test(sqlOf(st)) &&
      !(opts.replace && /^\s*DELETE FROM (search_|inventory)/.test(sqlOf(st))),
  )
  const sqls = [
    ...(opts.replace ? toMergedSql(clearCatalogueStatements(db, { content: opts.replaceContent })) : []),
    ...toMergedSql(writes),
    ...toMergedSql([...facetPostingsStatements(db), bumpIndexVersionStatement(db)]),
  ]
  return {
    ok: true,
    sql: sqls.join('\n'),
    statements: sqls.length,
    kv: importUrlMappings(records).map(([key, value]) => ({ key, value: JSON.stringify(value) })),
    counts,
    coercions,
    warnings,
    previousUrlsSql: opts.replace
      ? 'SELECT url_path FROM products UNION ALL SELECT url_path FROM categories;'
      : previousUrlsSql(records),
  }
}

function previousUrlsSql(records: readonly ImportRecord[]): string | null {
  const ids = (type: 'product' | 'category') =>
    records.flatMap(({ entry }) =>
      entry.type === type && Number.isSafeInteger(entry.doc.id) ? [entry.doc.id as number] : [],
    )
  const parts = [
    ['products', ids('product')],
    ['categories', ids('category')],
  ] as const
  const selects = parts
    .filter(([, list]) => list.length > 0)
    // Integer ids only (checked above): nothing from the file reaches the SQL as text.
    .map(([table, list]) => `SELECT url_path FROM ${table} WHERE id IN (${list.join(',')})`)
  return selects.length ? `${selects.join(' UNION ALL ')};` : null
}

/**
 * The warnings as the import prints them, one line a conversion ('file:line: product 'SKU':
 * what'), the first `max` of them and then how many more, so a large file stays readable.
 */
export function warningLines(warnings: readonly ImportWarning[], max = 50): string[] {
  const lines = warnings.slice(0, max).map((w) => `${w.file}:${w.line}: product '${w.product}': ${w.message}`)
  if (warnings.length > max) lines.push(`… and ${warnings.length - max} more conversion warning(s)`)
  return lines
}

/**
 * Issues grouped by kind, most frequent first: how many, and the first few places
 * ('file:line'), so a file with thousands of the same problem reads as one line.
 */
export function groupIssues(
  errors: readonly ImportError[],
  firstPlaces = 5,
): Array<{ kind: string; count: number; first: string[] }> {
  const groups = new Map<string, { kind: string; count: number; first: string[] }>()
  for (const e of errors) {
    let g = groups.get(e.kind)
    if (!g) {
      g = { kind: e.kind, count: 0, first: [] }
      groups.set(e.kind, g)
    }
    g.count++
    if (g.first.length < firstPlaces) g.first.push(`${e.file}:${e.line}`)
  }
  return [...groups.values()].sort((a, b) => b.count - a.count)
}

/**
 * Why writing failed, in words an operator can act on: a database without the catalogue's tables
 * has not been migrated (wrangler answers "no such table"), so the message says to run the
 * migrations first, for the same database the import was pointed at.
 */
export function writeFailure(message: string, where: readonly string[]): string {
  if (/no such table/i.test(message)) {
    const table = /no such table: ?([\w.]+)/i.exec(message)?.[1]
    return `the database has no catalogue tables yet${table ? ` (no table ${table})` : ''}: run the migrations first — npx wrangler d1 migrations apply DB ${where.join(' ')} — then import again`
  }
  return message
}
