/**
 * A recording stand-in for D1Database used in Node (scripts/seed.mjs, scripts/import.mjs): the
 * catalogue writers prepare statements against it, then `toSql` renders them as SQL text with
 * literal values for `wrangler d1 execute --file`. Only prepare/bind are supported.
 */

export interface RecordedStatement {
  sql: string
  params: unknown[]
}

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

/** Renders a prepared (recorded) statement as one SQL statement with literal values. */
export function toSql(stmt: D1PreparedStatement): string {
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
