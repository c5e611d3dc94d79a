/**
 * Node entry for scripts/import.mjs (bundled with esbuild): one export file → either its errors
 * (file, line, reason; nothing to write) or the SQL text and KV entries that import it.
 */
import { createRecordingDb, toSql } from '../seed/sql-recorder'
import { type ImportError, type ImportType, parseImportFile } from './transform'
import { importStatements, importUrlMappings } from './write'

export type PreparedImport =
  | { ok: false; errors: ImportError[] }
  | {
      ok: true
      sql: string
      statements: number
      kv: Array<{ key: string; value: string }>
      counts: Partial<Record<ImportType, number>>
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
  }
}
