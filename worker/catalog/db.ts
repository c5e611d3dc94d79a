/**
 * Small D1 helpers shared by the catalogue read library: chunked IN-lists (D1 binds at most 100
 * parameters per statement) and JSON document parsing.
 */

/** D1 allows 100 bound parameters per statement; leave room for the other binds. */
const IN_CHUNK = 90

/** Splits a list into chunks of at most `size` items. */
export function chunk<T>(items: readonly T[], size = IN_CHUNK): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

/** `?, ?, ?` for an IN list of n parameters. */
export function placeholders(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ')
}

/** Parses a stored JSON document column (written by the seed or the import, validated then). */
export function parseDoc<T>(doc: string): T {
  return JSON.parse(doc) as T
}
