/** Parsing of the full-text clauses (match, match_phrase, multi_match) and their options. */
import type { TextOptions } from '../dsl'
import {
  MAX_MULTI_MATCH_FIELDS,
  MAX_TEXT_CLAUSES,
  MAX_TEXT_LENGTH,
  MAX_TEXT_WORD_FIELDS,
  MAX_WORDS_PER_TEXT,
  type QueryNode,
  SearchError,
} from '../dsl'
import { fieldTokens, isScalar, TEXT_FIELDS } from '../semantics/facts'
import { checkField, factor, isObject, num, type ParseState, singleField } from './parse-values'

function parseFuzziness(v: unknown): number | 'auto' {
  if (v === undefined || v === null) return 0
  if (typeof v === 'string' && v.toUpperCase().startsWith('AUTO')) return 'auto'
  const n = num(v, 'fuzziness', 0)
  if (n < 0 || n > 2 || !Number.isInteger(n)) throw new SearchError('fuzziness must be 0, 1, 2 or AUTO')
  return n
}

/** A minimum_should_match as given (a count or a percentage), null when absent. */
export function parseMsm(v: unknown): number | string | null {
  if (v === undefined || v === null) return null
  if (typeof v === 'number' && Number.isInteger(v)) return v
  if (typeof v === 'string') {
    // The VSF client URL-encodes the '%' of minimum_should_match ("75%25") when it queries by GET.
    const s = v.replace(/%25$/, '%').trim()
    if (/^-?\d+%?$/.test(s)) return s.endsWith('%') ? s : Number(s)
  }
  throw new SearchError(`Unsupported minimum_should_match: ${JSON.stringify(v)?.slice(0, 40)}`)
}

const TEXT_OPTION_KEYS = new Set([
  'query',
  'operator',
  'minimum_should_match',
  'fuzziness',
  'prefix_length',
  'max_expansions',
  'tie_breaker',
  'boost',
  'analyzer',
  'cutoff_frequency',
  'lenient',
  'zero_terms_query',
  'fuzzy_transpositions',
  'auto_generate_synonyms_phrase_query',
  'type',
  'fields',
  'slop',
])

function parseTextOptions(o: Record<string, unknown>, clause: string): TextOptions {
  for (const k of Object.keys(o)) {
    if (!TEXT_OPTION_KEYS.has(k)) throw new SearchError(`Unsupported option in ${clause}: ${k}`)
  }
  if (o.type !== undefined && o.type !== 'best_fields' && o.type !== 'most_fields') {
    throw new SearchError(`Unsupported ${clause} type: ${String(o.type).slice(0, 40)}`)
  }
  const operator = String(o.operator ?? 'or').toLowerCase()
  if (operator !== 'or' && operator !== 'and') throw new SearchError(`Unsupported operator in ${clause}`)
  return {
    operator,
    minimumShouldMatch: parseMsm(o.minimum_should_match),
    fuzziness: parseFuzziness(o.fuzziness),
    prefixLength: Math.max(0, Math.trunc(num(o.prefix_length, 'prefix_length', 0))),
    maxExpansions: Math.max(1, Math.min(50, Math.trunc(num(o.max_expansions, 'max_expansions', 50)))),
    tieBreaker: o.type === 'most_fields' ? 1 : factor(o.tie_breaker, 'tie_breaker', 0),
  }
}

function queryText(v: unknown, clause: string): string {
  if (isScalar(v)) {
    const s = String(v)
    if (s.length > MAX_TEXT_LENGTH)
      throw new SearchError(`${clause} query text is too long (at most ${MAX_TEXT_LENGTH} characters)`)
    return s
  }
  throw new SearchError(`${clause} needs a text query`)
}

/**
 * Counts a full-text clause when it reads a text field, and (for match/multi_match, which expand
 * words against the vocabulary) the distinct word/field pairs it expands.
 */
function countText(st: ParseState, fields: string[], text: string | null): void {
  const textFields = fields.filter((f) => TEXT_FIELDS.has(f))
  if (textFields.length === 0) return
  if (++st.text > MAX_TEXT_CLAUSES)
    throw new SearchError(`Query has too many full-text clauses (more than ${MAX_TEXT_CLAUSES})`)
  if (text === null) return
  for (const f of new Set(textFields)) {
    for (const w of [...new Set(fieldTokens(f, text))].slice(0, MAX_WORDS_PER_TEXT))
      st.words.add(`${f}\u0000${w}`)
  }
  if (st.words.size > MAX_TEXT_WORD_FIELDS)
    throw new SearchError(
      `Full-text clauses compare too many words (more than ${MAX_TEXT_WORD_FIELDS} distinct word/field pairs)`,
    )
}

/** A match clause (one field). */
export function parseMatch(body: unknown, st: ParseState): QueryNode {
  const [field, spec, boost] = singleField(body, 'match')
  if (isObject(spec)) {
    const options = parseTextOptions(spec, 'match')
    const query = queryText(spec.query, 'match')
    countText(st, [field], query)
    return {
      kind: 'match',
      fields: [{ field, boost: 1 }],
      query,
      options,
      boost: factor(spec.boost, 'boost', boost),
    }
  }
  const query = queryText(spec, 'match')
  countText(st, [field], query)
  return {
    kind: 'match',
    fields: [{ field, boost: 1 }],
    query,
    options: parseTextOptions({}, 'match'),
    boost,
  }
}

/** A match_phrase clause (no slop). */
export function parseMatchPhrase(body: unknown, st: ParseState): QueryNode {
  const [field, spec, boost] = singleField(body, 'match_phrase')
  countText(st, [field], null)
  if (isObject(spec)) {
    for (const k of Object.keys(spec)) {
      if (!['query', 'boost', 'slop', 'analyzer'].includes(k))
        throw new SearchError(`Unsupported option in match_phrase: ${k.slice(0, 40)}`)
    }
    if (spec.slop !== undefined && num(spec.slop, 'slop', 0) !== 0)
      throw new SearchError('Unsupported option in match_phrase: slop')
    return {
      kind: 'phrase',
      field,
      query: queryText(spec.query, 'match_phrase'),
      boost: factor(spec.boost, 'boost', boost),
    }
  }
  return { kind: 'phrase', field, query: queryText(spec, 'match_phrase'), boost }
}

/** A multi_match clause (fields with optional ^boost). */
export function parseMultiMatch(body: unknown, st: ParseState): QueryNode {
  if (!isObject(body)) throw new SearchError('Malformed multi_match clause')
  const options = parseTextOptions(body, 'multi_match')
  if (!Array.isArray(body.fields) || body.fields.length === 0)
    throw new SearchError('multi_match needs fields')
  if (body.fields.length > MAX_MULTI_MATCH_FIELDS)
    throw new SearchError(`multi_match lists too many fields (at most ${MAX_MULTI_MATCH_FIELDS})`)
  const fields = body.fields.map((f) => {
    if (typeof f !== 'string' || f.length > 120)
      throw new SearchError(
        typeof f === 'string'
          ? `Invalid field name in multi_match: ${JSON.stringify(f.slice(0, 80))}`
          : 'multi_match fields must be strings',
      )
    const m = /^(.*?)(?:\^([0-9]+(?:\.[0-9]+)?))?$/.exec(f)
    return {
      field: checkField(m?.[1], 'multi_match'),
      boost: m?.[2] ? factor(m[2], 'field boost', 1) : 1,
    }
  })
  const query = queryText(body.query, 'multi_match')
  countText(
    st,
    fields.map((f) => f.field),
    query,
  )
  return {
    kind: 'match',
    fields,
    query,
    options,
    boost: factor(body.boost, 'boost', 1),
  }
}
