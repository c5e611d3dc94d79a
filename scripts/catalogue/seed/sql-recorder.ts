/**
 * A recording stand-in for D1Database used in Node (scripts/seed.mjs, scripts/import.mjs): the
 * catalogue writers prepare statements against it, then `toSql` renders them as SQL text with
 * literal values for `wrangler d1 execute --file`. Only prepare/bind are supported.
 */

class RecordedPrepared {
  constructor(
    readonly sql: string,
    readonly params: unknown[] = [],
  ) {}
  bind(...values: unknown[]): RecordedPrepared {
    return new RecordedPrepared(this.sql, values)
  }
}

/** A D1Database whose statements only record their SQL and parameters. */
export function createRecordingDb(): D1Database {
  const db = {
    prepare: (sql: string) => new RecordedPrepared(sql),
    batch: () => {
      throw new Error('the recording database cannot run statements')
    },
  }
  return db as unknown as D1Database
}

/** Renders a value as an SQLite literal. */
export function sqlLiteral(v: unknown): string {
  if (v === null || v === undefined) return 'NULL'
  if (typeof v === 'boolean') return v ? '1' : '0'
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error(`cannot store non-finite number ${v}`)
    return String(v)
  }
  if (typeof v === 'bigint') return v.toString()
  return `'${String(v).replace(/'/g, "''")}'`
}

/**
 * The longest statement text D1 takes, in bytes (UTF-8). A longer one fails with "statement too
 * long: SQLITE_TOOBIG", locally and deployed; values written as literals count in full.
 */
export const D1_MAX_STATEMENT_BYTES = 100_000

/** Length of `text` in UTF-8 bytes (what D1's statement limit counts), without encoding it. */
export function utf8Bytes(text: string): number {
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) bytes += 1
    else if (code < 0x800) bytes += 2
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      // A surrogate pair: one code point of four bytes.
      bytes += 4
      i++
    } else bytes += 3
  }
  return bytes
}

/** Rendered statements, so checking a statement's size and writing it render it once. */
const rendered = new WeakMap<object, string>()

/** Renders a prepared (recorded) statement as one SQL statement with literal values. */
export function toSql(stmt: D1PreparedStatement): string {
  const done = rendered.get(stmt)
  if (done !== undefined) return done
  const text = renderSql(stmt)
  rendered.set(stmt, text)
  return text
}

function renderSql(stmt: D1PreparedStatement): string {
  const { sql, params } = stmt as unknown as RecordedPrepared
  let next = 0
  // Placeholders never occur inside the writers' SQL string literals, so a plain scan is safe.
  const text = sql.replace(/\?(\d+)?/g, (_m, n: string | undefined) => {
    const index = n ? Number(n) - 1 : next++
    if (index >= params.length) throw new Error(`missing parameter ${index + 1} for: ${sql}`)
    return sqlLiteral(params[index])
  })
  return `${text.trim().replace(/\s+\n/g, '\n')};`
}

const VALUES_INSERT = /^(INSERT(?: OR \w+)? INTO \w+\s*\([^)]*\))\s*VALUES\s*(\(.*\))$/is
const SELECT_INSERT = /^(INSERT(?: OR \w+)? INTO \w+\s*\([^)]*\))\s*(SELECT\s.*)$/is

/**
 * Renders statements as few SQL statements as possible: INSERTs with the same SQL text are merged
 * into multi-row VALUES (≤ 250 rows) / UNION ALL SELECT (≤ 5 terms: D1's compound-select limit)
 * statements of at most `maxBytes` UTF-8 bytes of rows (under D1_MAX_STATEMENT_BYTES; text in
 * Devanagari is three bytes a character, so characters are not what counts). A single row longer
 * than that stays a statement of its own. Only for writes whose relative order across different
 * SQL texts does not matter (a full reseed into cleared tables); other statements keep their place.
 */
export function toMergedSql(stmts: readonly D1PreparedStatement[], maxBytes = 90_000): string[] {
  const out: string[] = []
  const groups = new Map<string, { head: string; kind: 'values' | 'select'; parts: string[] }>()
  const order: string[] = []
  for (const stmt of stmts) {
    const { sql } = stmt as unknown as RecordedPrepared
    const rendered = toSql(stmt).slice(0, -1)
    const values = VALUES_INSERT.exec(rendered)
    const select = values ? null : SELECT_INSERT.exec(rendered)
    if (!values && !select) {
      out.push(`${rendered};`)
      continue
    }
    let group = groups.get(sql)
    if (!group) {
      group = { head: (values ?? select)?.[1] ?? '', kind: values ? 'values' : 'select', parts: [] }
      groups.set(sql, group)
      order.push(sql)
    }
    group.parts.push(((values ?? select) as RegExpExecArray)[2] as string)
  }
  for (const key of order) {
    const g = groups.get(key) as { head: string; kind: 'values' | 'select'; parts: string[] }
    const glue = g.kind === 'values' ? ',\n' : '\nUNION ALL\n'
    let batch: string[] = []
    let size = 0
    const flush = () => {
      if (!batch.length) return
      out.push(`${g.head}${g.kind === 'values' ? ' VALUES\n' : '\n'}${batch.join(glue)};`)
      batch = []
      size = 0
    }
    for (const part of g.parts) {
      const bytes = utf8Bytes(part)
      if (batch.length && (size + bytes > maxBytes || batch.length >= (g.kind === 'values' ? 250 : 5)))
        flush()
      batch.push(part)
      size += bytes + glue.length
    }
    flush()
  }
  return out
}
