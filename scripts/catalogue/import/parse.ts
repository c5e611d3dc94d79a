/**
 * Reading a vue-storefront-api catalogue export: elasticdump NDJSON (one `{_index,_type,_id,
 * _source}` per line) or a JSON array of documents (or of such hits). Every record keeps the
 * line it starts on, so errors can name file and line.
 */

interface RawRecord {
  /** 1-based line where the record starts. */
  line: number
  /** The parsed JSON value, or undefined when the text was not valid JSON. */
  value?: unknown
  /** Why the record could not be parsed. */
  error?: string
}

/** Splits NDJSON text into records (blank lines skipped). */
function parseNdjson(text: string): RawRecord[] {
  const out: RawRecord[] = []
  const lines = text.split(/\r?\n/)
  lines.forEach((raw, i) => {
    const line = raw.trim()
    if (!line) return
    try {
      out.push({ line: i + 1, value: JSON.parse(line) })
    } catch (err) {
      out.push({ line: i + 1, error: `malformed JSON (${(err as Error).message})` })
    }
  })
  return out
}

/**
 * Parses a JSON array and reports the line each top-level element starts on. A malformed array
 * gives one record with the error at the line where parsing failed (best effort).
 */
function parseJsonArray(text: string): RawRecord[] {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (err) {
    const msg = (err as Error).message
    const pos = Number(/position (\d+)/.exec(msg)?.[1] ?? Number.NaN)
    const line = Number.isFinite(pos) ? text.slice(0, pos).split('\n').length : 1
    return [{ line, error: `malformed JSON (${msg})` }]
  }
  if (!Array.isArray(parsed)) return [{ line: 1, error: 'a JSON file must hold an array of documents' }]
  const starts = elementLines(text)
  return parsed.map((value, i) => ({ line: starts[i] ?? 1, value }))
}

/** Line numbers where each element of a top-level JSON array starts (a small JSON scanner). */
function elementLines(text: string): number[] {
  const lines: number[] = []
  let line = 1
  let depth = 0
  let inString = false
  let escaped = false
  let expectValue = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]
    if (ch === '\n') line++
    if (inString) {
      if (escaped) escaped = false
      else if (ch === '\\') escaped = true
      else if (ch === '"') inString = false
      continue
    }
    if (ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n') continue
    if (depth === 1 && expectValue && ch !== ']') {
      lines.push(line)
      expectValue = false
    }
    if (ch === '"') inString = true
    else if (ch === '[' || ch === '{') {
      depth++
      if (depth === 1) expectValue = true
    } else if (ch === ']' || ch === '}') depth--
    else if (ch === ',' && depth === 1) expectValue = true
  }
  return lines
}

/** Parses an export file by its shape: a leading '[' is a JSON array, anything else NDJSON. */
export function parseExport(text: string): RawRecord[] {
  const body = text.replace(/^\uFEFF/, '')
  return body.trimStart().startsWith('[') ? parseJsonArray(body) : parseNdjson(body)
}

/**
 * Deepest nesting of objects and arrays a record may have. A catalogue document needs about ten
 * levels (a category's children_data tree twice that at most); deeper nesting is refused before
 * anything walks the record, since the validators and the SQL writer recurse.
 */
export const MAX_RECORD_DEPTH = 64

/** Whether `value` nests objects and arrays deeper than `limit` (walked without recursion). */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]]
  while (stack.length) {
    const [v, depth] = stack.pop() as [unknown, number]
    if (typeof v !== 'object' || v === null) continue
    if (depth > limit) return true
    for (const child of Object.values(v)) stack.push([child, depth + 1])
  }
  return false
}
