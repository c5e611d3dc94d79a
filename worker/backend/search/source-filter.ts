/**
 * `_source` filtering with Elasticsearch semantics: include/exclude patterns are dotted paths,
 * may use `*` wildcards, and apply through arrays of objects (`configurable_children.sku`).
 */

const PATTERN_RE = /^[A-Za-z0-9_.*]{1,200}$/

/** Splits and validates a comma list of source patterns; throws on anything but [A-Za-z0-9_.*]. */
export function parsePatterns(raw: unknown, what: string, onError: (m: string) => Error): string[] {
  if (raw === undefined || raw === null || raw === '') return []
  const list = Array.isArray(raw) ? raw : String(raw).split(',')
  const out: string[] = []
  for (const item of list) {
    if (typeof item !== 'string') throw onError(`${what} must list field names`)
    const s = item.trim()
    if (!s) continue
    if (!PATTERN_RE.test(s)) throw onError(`Invalid field name in ${what}: ${JSON.stringify(s.slice(0, 60))}`)
    out.push(s)
  }
  if (out.length > 200) throw onError(`${what} lists too many fields`)
  return out
}

interface Matcher {
  full: (path: string) => boolean
  /** Could the pattern match something under `path`? */
  under: (path: string) => boolean
}

function compile(patterns: string[]): Matcher {
  const regs = patterns.map(
    (p) =>
      new RegExp(
        `^${p
          .split('*')
          .map((x) => x.replace(/\./g, '\\.'))
          .join('.*')}$`,
      ),
  )
  const literalPrefixes = patterns.map((p) => p.split('*')[0] as string)
  return {
    full: (path) => regs.some((r, i) => r.test(path) || path.startsWith(`${patterns[i]}.`)),
    under: (path) =>
      literalPrefixes.some(
        (lp, i) => lp.startsWith(`${path}.`) || (patterns[i]?.includes('*') && `${path}.`.startsWith(lp)),
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
  if (includes.length === 0 && excludes.length === 0) return doc
  const inc = includes.length ? compile(includes) : null
  const exc = excludes.length ? compile(excludes) : null
  return (filterValue(doc, '', inc, exc, inc === null) as Record<string, unknown> | undefined) ?? {}
}
