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
