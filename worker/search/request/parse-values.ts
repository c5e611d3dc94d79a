/** Checks of the single values a search request carries: field paths, numbers, factors, exact values. */
import { MAX_VALUE_LENGTH, type Scalar, SearchError } from '../dsl'

/** Field paths: letters, digits, underscores, dots (whitelisted before they go anywhere near SQL). */
const FIELD_RE = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*){0,3}$/

/** A plain JSON object (not null, not an array). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** Validates a field path and strips the ES `.keyword` sub-field suffix. */
export function checkField(field: unknown, clause: string): string {
  if (typeof field !== 'string' || !FIELD_RE.test(field) || field.length > 100) {
    throw new SearchError(`Invalid field name in ${clause}: ${JSON.stringify(field)?.slice(0, 80)}`)
  }
  return field.endsWith('.keyword') ? field.slice(0, -'.keyword'.length) : field
}

/** A number (numeric strings too), `fallback` when absent. */
export function num(v: unknown, what: string, fallback: number): number {
  if (v === undefined || v === null) return fallback
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new SearchError(`${what} must be a number`)
  return n
}

/** Largest boost or weight (Elasticsearch reads them as 32-bit floats). */
const MAX_FACTOR = 3.4028234663852886e38

/** A boost, weight or tie_breaker: a number within the float range, so products of two stay finite. */
export function factor(v: unknown, what: string, fallback: number): number {
  const n = num(v, what, fallback)
  if (Math.abs(n) > MAX_FACTOR) throw new SearchError(`${what} must be a number between -3.4e38 and 3.4e38`)
  return n
}

/** The one field and its body of a single-field clause (`{terms: {color: [..]}}`), ignoring `boost`. */
export function singleField(body: unknown, clause: string, extra: string[] = []): [string, unknown, number] {
  if (!isObject(body)) throw new SearchError(`Malformed ${clause} clause`)
  let boost = 1
  let field: string | null = null
  let value: unknown
  for (const [k, v] of Object.entries(body)) {
    if (k === 'boost') boost = factor(v, 'boost', 1)
    else if (k === '_name' || extra.includes(k)) continue
    else if (field === null) {
      field = k
      value = v
    } else throw new SearchError(`${clause} accepts one field, got ${field} and ${k.slice(0, 60)}`)
  }
  if (field === null) throw new SearchError(`${clause} clause names no field`)
  return [checkField(field, clause), value, boost]
}

/** What a query has used so far of the per-request limits. */
export interface ParseState {
  clauses: number
  /** terms values so far. */
  values: number
  /** Full-text clauses so far. */
  text: number
  /** Distinct `field\u0000word` pairs the full-text clauses expand. */
  words: Set<string>
  /** How many filter clauses (bool filter, constant_score filter) enclose the clause being read. */
  filterDepth?: number
}

/** Checks one exact value (a terms value or range bound) against the length limit. */
export function checkValue(v: Scalar, clause: string, field: string): void {
  if (typeof v === 'string' && v.length > MAX_VALUE_LENGTH)
    throw new SearchError(
      `${clause} on ${field}: a value is longer than ${MAX_VALUE_LENGTH} characters (the longest indexed value)`,
    )
}
