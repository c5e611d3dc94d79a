/**
 * `_source` filtering with Elasticsearch semantics: include/exclude patterns are dotted paths,
 * may use `*` wildcards (matching any run of characters, dots included), and apply through arrays
 * of objects (`configurable_children.sku`). A path matched by a pattern brings everything under it.
 *
 * Patterns are matched by a linear-time glob matcher, never turned into regular expressions: the
 * cost of a match is proportional to the path plus the pattern, whatever the pattern looks like.
 */

/** Most patterns in one include (or exclude) list of a request. */
export const MAX_SOURCE_PATTERNS = 100
/** Longest pattern accepted (characters). */
export const MAX_SOURCE_PATTERN_LENGTH = 128

const PATTERN_RE = /^[A-Za-z0-9_.*]+$/

/** Checks the combined size of a pattern list (URL and body lists together). */
export function checkPatternCount(list: string[], what: string, onError: (m: string) => Error): void {
  if (list.length > MAX_SOURCE_PATTERNS)
    throw onError(`${what} lists more than ${MAX_SOURCE_PATTERNS} fields (the limit per request)`)
}

/** Splits and validates a comma list of source patterns; throws on anything but [A-Za-z0-9_.*]. */
export function parsePatterns(raw: unknown, what: string, onError: (m: string) => Error): string[] {
  if (raw === undefined || raw === null || raw === '') return []
  const list = Array.isArray(raw) ? raw : String(raw).split(',')
  const out: string[] = []
  for (const item of list) {
    if (typeof item !== 'string') throw onError(`${what} must list field names`)
    const s = item.trim()
    if (!s) continue
    if (s.length > MAX_SOURCE_PATTERN_LENGTH)
      throw onError(
        `A field pattern in ${what} is longer than ${MAX_SOURCE_PATTERN_LENGTH} characters: ${JSON.stringify(s.slice(0, 40))}…`,
      )
    if (!PATTERN_RE.test(s)) throw onError(`Invalid field name in ${what}: ${JSON.stringify(s.slice(0, 60))}`)
    out.push(s)
    checkPatternCount(out, what, onError)
  }
  return out
}

/** Knuth–Morris–Pratt failure table of a literal. */
function failureTable(lit: string): Int32Array {
  const fail = new Int32Array(lit.length)
  let k = 0
  for (let i = 1; i < lit.length; i++) {
    while (k > 0 && lit[i] !== lit[k]) k = fail[k - 1] as number
    if (lit[i] === lit[k]) k++
    fail[i] = k
  }
  return fail
}

/** First index ≥ from where `lit` occurs wholly before `end` in `text`, or -1 (linear time). */
function indexOfWithin(text: string, lit: string, fail: Int32Array, from: number, end: number): number {
  let k = 0
  for (let i = from; i < end; i++) {
    while (k > 0 && text[i] !== lit[k]) k = fail[k - 1] as number
    if (text[i] === lit[k]) k++
    if (k === lit.length) return i - lit.length + 1
  }
  return -1
}

/** A compiled `*` glob: literal head and tail, and the literals between stars in order. */
interface Glob {
  source: string
  /** No star at all: the pattern matches only itself. */
  exact: boolean
  head: string
  tail: string
  middle: { lit: string; fail: Int32Array }[]
}

function compileGlob(pattern: string): Glob {
  const parts = pattern.split('*')
  if (parts.length === 1) return { source: pattern, exact: true, head: pattern, tail: '', middle: [] }
  return {
    source: pattern,
    exact: false,
    head: parts[0] as string,
    tail: parts[parts.length - 1] as string,
    middle: parts
      .slice(1, -1)
      .filter((lit) => lit.length > 0)
      .map((lit) => ({ lit, fail: failureTable(lit) })),
  }
}

/**
 * Whether `text` matches the glob as a whole. The head must start it and the tail end it; each
 * literal between stars is taken at its leftmost occurrence after the previous one (for globs
 * whose only wildcard is `*`, the leftmost choice never loses a match). O(|text| + |pattern|).
 */
export function globMatches(glob: Glob, text: string): boolean {
  if (glob.exact) return text === glob.source
  const { head, tail } = glob
  if (text.length < head.length + tail.length) return false
  if (!text.startsWith(head) || !text.endsWith(tail)) return false
  let pos = head.length
  const end = text.length - tail.length
  for (const m of glob.middle) {
    const at = indexOfWithin(text, m.lit, m.fail, pos, end)
    if (at < 0) return false
    pos = at + m.lit.length
  }
  return true
}

/** Compiles one pattern (exported for tests). */
export function compileFieldPattern(pattern: string): Glob {
  return compileGlob(pattern)
}

interface Matcher {
  full: (path: string) => boolean
  /** Could the pattern match something under `path`? */
  under: (path: string) => boolean
}

/** Most paths whose answers a matcher remembers (documents repeat the same paths). */
const MATCHER_MEMO = 4096

function memo(fn: (path: string) => boolean): (path: string) => boolean {
  const seen = new Map<string, boolean>()
  return (path) => {
    const hit = seen.get(path)
    if (hit !== undefined) return hit
    const v = fn(path)
    if (seen.size < MATCHER_MEMO) seen.set(path, v)
    return v
  }
}

function compile(patterns: string[]): Matcher {
  const globs = patterns.map(compileGlob)
  return {
    // A path matches when a pattern matches it, or when it lies under a literal pattern's path.
    full: memo((path) => globs.some((g) => globMatches(g, path) || path.startsWith(`${g.source}.`))),
    // Descend into `path` when a pattern's literal head reaches below it, or when a pattern with a
    // star has a head that `path.` extends (the star may match the rest).
    under: memo((path) =>
      globs.some((g) => g.head.startsWith(`${path}.`) || (!g.exact && `${path}.`.startsWith(g.head))),
    ),
  }
}

function filterValue(
  v: unknown,
  path: string,
  inc: Matcher | null,
  exc: Matcher | null,
  included: boolean,
): unknown {
  if (Array.isArray(v)) {
    const out: unknown[] = []
    for (const item of v) {
      if (item !== null && typeof item === 'object') {
        const f = filterValue(item, path, inc, exc, included)
        if (f !== undefined) out.push(f)
      } else if (included) out.push(item)
    }
    return out.length || included ? out : undefined
  }
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {}
    let kept = 0
    for (const [k, child] of Object.entries(v as Record<string, unknown>)) {
      const p = path ? `${path}.${k}` : k
      if (exc?.full(p)) continue
      const inChild = included || !inc || inc.full(p)
      if (!inChild && !inc?.under(p)) continue
      const f = filterValue(child, p, inc, exc, inChild)
      if (f !== undefined) {
        out[k] = f
        kept++
      }
    }
    return kept || included ? out : undefined
  }
  return included ? v : undefined
}

/** Applies include/exclude patterns to a document (empty includes = everything). */
export function filterSource(
  doc: Record<string, unknown>,
  includes: string[],
  excludes: string[],
): Record<string, unknown> {
  return sourceFilter(includes, excludes)(doc)
}

/**
 * A filter for many documents: the patterns are compiled once and the matchers remember the
 * paths they have answered, so a page of hits costs one match per distinct path and pattern.
 */
export function sourceFilter(
  includes: string[],
  excludes: string[],
): (doc: Record<string, unknown>) => Record<string, unknown> {
  if (includes.length === 0 && excludes.length === 0) return (doc) => doc
  const inc = includes.length ? compile(includes) : null
  const exc = excludes.length ? compile(excludes) : null
  return (doc) => (filterValue(doc, '', inc, exc, inc === null) as Record<string, unknown> | undefined) ?? {}
}
