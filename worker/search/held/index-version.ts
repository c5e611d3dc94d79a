/**
 * The search index version: a number in search_meta that every write of the catalogue moves on in
 * the same batch. Every memo of held/ is valid for the version it was read at; this file holds the
 * version this isolate last read and the statement that moves it.
 */
/** The search index version this isolate's product searches last read (every statement returns it). */
let lastVersion: number | null = null

/** The search index version the last product search of this isolate read (null before any). */
export function indexVersionSeen(): number | null {
  return lastVersion
}

/** Records the index version a statement just read. */
export function noteIndexVersion(version: number): void {
  lastVersion = version
}

/**
 * The statement that moves the stored catalogue version on, in the same batch as the catalogue
 * write it stands for: every memoised read made under the old version becomes stale. With
 * `afterChange`, it only does so when the statement just before it changed a row.
 */
export function bumpIndexVersionStatement(db: D1Database, opts: { afterChange?: boolean } = {}) {
  return db.prepare(
    `UPDATE search_meta SET value = abs(random() % 9007199254740991) WHERE key = 'version'${
      opts.afterChange ? ' AND changes() = 1' : ''
    }`,
  )
}

/** The index version as a column of a statement that reads the index (`ver`): its answer is dated. */
export const VERSION_COLUMN = "(SELECT value FROM search_meta WHERE key = 'version') AS ver"

/** The read of the index version, first in a batch: the batch's other reads are of that version. */
export function versionRead(db: D1Database): D1PreparedStatement {
  return db.prepare("SELECT value FROM search_meta WHERE key = 'version'")
}

/** The version a batch's versionRead answered (0 without the row). */
export function versionOf(result: D1Result<Record<string, unknown>> | undefined): number {
  return Number((result?.results[0] as { value?: number } | undefined)?.value ?? 0)
}
