/**
 * The `q=` parameter of a catalogue search: the common part of Elasticsearch's URI query syntax,
 * read into a query clause of our DSL (which then answers within the engine's own limits).
 *
 *   kurta silk              either word in the searchable fields (name, sku, category name)
 *   sku:WS01                a field equal to a value (a full-text field: the value's words)
 *   name:"silk kurta"       a quoted value (a phrase on a full-text field)
 *   sku:WS0*                a value prefix (a trailing `*`)
 *   +status:1 -color:49     `+` must match, `-` must not
 *   a AND b, a OR b, NOT a  AND makes both sides required, NOT excludes the next part
 *
 * Parts are ORed unless marked (Elasticsearch's default operator); with a required part, the others
 * only add to the score. Other syntax (parentheses, ranges, `?` and inner wildcards, fuzzy `~`,
 * boosts `^`, regular expressions) answers 400 naming it; so does a q over MAX_Q_CHARS characters
 * or with more than MAX_Q_PARTS parts.
 */
import { SEARCH_BOOSTS } from '@shared/config/catalog'
import { SearchError } from '../dsl'

const MAX_Q_CHARS = 512
const MAX_Q_PARTS = 16

type Clause = Record<string, unknown>
type Occur = 'must' | 'should' | 'must_not'

const SEARCH_FIELDS = Object.entries(SEARCH_BOOSTS).map(([f, b]) => `${f}^${b}`)

/** Words and quoted strings, with their `+`/`-` marks and `field:` parts kept together. */
function lex(q: string): string[] {
  const out: string[] = []
  const re = /\s*((?:[+-])?(?:[^\s":]+:)?(?:"[^"]*"|[^\s"]+))/y
  let at = 0
  while (at < q.length) {
    if (/^\s*$/.test(q.slice(at))) break
    re.lastIndex = at
    const m = re.exec(q)
    if (!m) throw new SearchError('Unsupported q syntax: an unclosed quote')
    out.push(m[1] as string)
    at = re.lastIndex
  }
  return out
}

function unsupported(what: string): never {
  throw new SearchError(
    `Unsupported q syntax: ${what} (supported: words, field:value, "phrases", prefix*, +, -, AND, OR, NOT)`,
  )
}

/** One part of q as a clause. */
function partClause(part: string): Clause {
  const colon = part.startsWith('"') ? -1 : part.indexOf(':')
  const field = colon > 0 ? part.slice(0, colon) : null
  let value = colon > 0 ? part.slice(colon + 1) : part
  const quoted = value.length >= 2 && value.startsWith('"') && value.endsWith('"')
  if (quoted) value = value.slice(1, -1)
  else {
    if (/[()[\]{}]/.test(value)) unsupported('parentheses and ranges')
    if (/[~^]/.test(value)) unsupported('fuzzy ~ and boost ^')
    if (value.startsWith('/')) unsupported('regular expressions')
    if (/[?*]/.test(value.slice(0, -1)) || value.endsWith('?'))
      unsupported('wildcards other than a trailing *')
  }
  if (value === '' || value === '*') unsupported('an empty value')
  if (!quoted && value.endsWith('*')) {
    if (!field) unsupported('a prefix without a field')
    return { prefix: { [field as string]: value.slice(0, -1) } }
  }
  if (!field) return { multi_match: { query: value, fields: SEARCH_FIELDS } }
  return quoted ? { match_phrase: { [field]: value } } : { match: { [field]: value } }
}

/** The query clause of a q parameter. */
export function queryStringToDsl(q: string): Clause {
  if (q.length > MAX_Q_CHARS) throw new SearchError(`q is longer than ${MAX_Q_CHARS} characters`)
  const words = lex(q)
  const parts: { occur: Occur; clause: Clause }[] = []
  let pendingNot = false
  let andWithPrevious = false
  for (const word of words) {
    if (word === 'AND' || word === '&&') {
      andWithPrevious = true
      continue
    }
    if (word === 'OR' || word === '||') continue
    if (word === 'NOT' || word === '!') {
      pendingNot = true
      continue
    }
    let occur: Occur = 'should'
    let text = word
    if (text.startsWith('+')) {
      occur = 'must'
      text = text.slice(1)
    } else if (text.startsWith('-')) {
      occur = 'must_not'
      text = text.slice(1)
    }
    if (pendingNot) occur = 'must_not'
    if (andWithPrevious) {
      if (occur === 'should') occur = 'must'
      const previous = parts.at(-1)
      if (previous && previous.occur === 'should') previous.occur = 'must'
    }
    pendingNot = false
    andWithPrevious = false
    parts.push({ occur, clause: partClause(text) })
    if (parts.length > MAX_Q_PARTS) throw new SearchError(`q has more than ${MAX_Q_PARTS} parts`)
  }
  if (parts.length === 0) return { match_all: {} }
  if (parts.length === 1 && parts[0]?.occur === 'should') return parts[0].clause
  const bool: Record<Occur, Clause[]> = { must: [], should: [], must_not: [] }
  for (const p of parts) bool[p.occur].push(p.clause)
  const out: Clause = {}
  for (const k of ['must', 'should', 'must_not'] as const) if (bool[k].length) out[k] = bool[k]
  // Only exclusions: everything else matches.
  if (!bool.must.length && !bool.should.length) out.must = [{ match_all: {} }]
  return { bool: out }
}
