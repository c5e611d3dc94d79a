/**
 * Node entry for scripts/import.mjs (bundled with esbuild): one export file → either its errors
 * (file, line, reason; nothing to write) or the SQL text and KV entries that import it.
 */
import { urlMappingKey } from '../../../worker/catalog/url-map'
import { createRecordingDb, toSql } from '../seed/sql-recorder'
import { type ImportError, type ImportRecord, type ImportType, parseImportFile } from './transform'
import { importStatements, importUrlMappings } from './write'

type PreparedImport =
  | { ok: false; errors: ImportError[] }
  | {
      ok: true
      sql: string
      statements: number
      kv: Array<{ key: string; value: string }>
      counts: Partial<Record<ImportType, number>>
      /**
       * A SELECT of the stored `url_path` of the file's products and categories (before the write),
       * for staleUrlKeys; null when the file has neither.
       */
      previousUrlsSql: string | null
    }

/**
 * KV keys to delete after the write: the old url paths of the imported products and categories
 * that no mapping of the file (or of another entity in it) uses any more — a renamed path, or a
 * product that is no longer listed.
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

/** Validates a whole file, then renders all of its statements (only when every record is valid). */
export function prepareImport(
  text: string,
  file: string,
  opts: { type?: string; now: string; onProgress?: (done: number, total: number) => void },
): PreparedImport {
  const parsed = parseImportFile(text, file, opts)
  if (parsed.errors.length) return { ok: false, errors: parsed.errors }
  const db = createRecordingDb()
  const statements = importStatements(db, parsed.records).map(toSql)
  return {
    ok: true,
    sql: statements.join('\n'),
    statements: statements.length,
    kv: importUrlMappings(parsed.records).map(([key, value]) => ({ key, value: JSON.stringify(value) })),
    counts: parsed.counts,
    previousUrlsSql: previousUrlsSql(parsed.records),
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
