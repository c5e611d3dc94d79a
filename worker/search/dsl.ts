/**
 * Parses the Elasticsearch query DSL subset the vue-storefront clients send into a small AST that
 * both engine backends (SQL over the D1 index, and in-memory over loaded documents) evaluate with
 * the same semantics. Anything outside the subset is rejected with a SearchError naming the clause.
 */
import { fieldTokens, TEXT_FIELDS } from './facts'

/** A client error in a search request (answered as a 400 envelope). */
export class SearchError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SearchError'
  }
}

/**
 * Limits of one search request. Each keeps the work a request can cause bounded (the compiled
 * statement grows linearly with the clauses, the in-memory evaluation with clauses × documents);
 * going over one is a 400 whose message names the limit. docs/search-limits.md explains them.
 */
/** Deepest clause nesting accepted (bool inside bool inside ...). */
export const MAX_QUERY_DEPTH = 12
/** Most clauses in one query (every clause at every level, function_score functions included). */
export const MAX_QUERY_CLAUSES = 128
/** Most values in one terms clause. */
export const MAX_TERMS_VALUES = 1024
/** Most terms values in the whole query. */
export const MAX_QUERY_VALUES = 4096
/** Longest string value or range bound (indexed exact values are at most this long). */
export const MAX_VALUE_LENGTH = 512
/** Longest full-text query string (characters). */
export const MAX_TEXT_LENGTH = 500
/** Most full-text clauses (match, multi_match, match_phrase on a text field) in one query. */
export const MAX_TEXT_CLAUSES = 4
/**
 * Most distinct (word, text field) pairs over the full-text clauses: each is compared with the
 * field's whole vocabulary for typos (only the first MAX_WORDS_PER_TEXT distinct words of a text
 * take part).
 */
export const MAX_TEXT_WORD_FIELDS = 96
/** Words of one full-text query that take part in matching. */
export const MAX_WORDS_PER_TEXT = 16
/** Most fields one multi_match may list. */
export const MAX_MULTI_MATCH_FIELDS = 16
/** Most aggregations in one request. */
export const MAX_AGGREGATIONS = 32
/** Most ranges over all range aggregations of one request (each is counted over every match). */
export const MAX_RANGE_BUCKETS = 100
/** Largest terms aggregation size. */
export const MAX_TERMS_AGG_SIZE = 1000
/** Most sort fields. */
export const MAX_SORT_FIELDS = 5

export type Scalar = string | number | boolean

export interface FieldBoost {
  field: string
  boost: number
}

export interface TextOptions {
  operator: 'or' | 'and'
  /** Raw minimum_should_match (integer or 'N%'); resolved against the token count. */
  minimumShouldMatch: number | string | null
  /** Requested maximum edits (0, 1, 2), or 'auto'. */
  fuzziness: number | 'auto'
  prefixLength: number
  maxExpansions: number
  tieBreaker: number
}

export type QueryNode =
  | { kind: 'match_all'; boost: number }
  | { kind: 'match_none' }
  | { kind: 'terms'; field: string; values: Scalar[]; boost: number }
  | { kind: 'range'; field: string; gt?: Scalar; gte?: Scalar; lt?: Scalar; lte?: Scalar; boost: number }
  | { kind: 'exists'; field: string; boost: number }
  | { kind: 'match'; fields: FieldBoost[]; query: string; options: TextOptions; boost: number }
  | { kind: 'phrase'; field: string; query: string; boost: number }
  | {
      kind: 'bool'
      must: QueryNode[]
      should: QueryNode[]
      mustNot: QueryNode[]
      filter: QueryNode[]
      minimumShouldMatch: number
      boost: number
    }
  | {
      kind: 'function_score'
      query: QueryNode
      functions: { filter: QueryNode | null; weight: number }[]
      scoreMode: 'multiply' | 'sum' | 'avg' | 'first' | 'max' | 'min'
      boostMode: 'multiply' | 'replace' | 'sum' | 'avg' | 'max' | 'min'
      maxBoost: number
      minScore: number | null
      boost: number
    }

export type AggNode =
  | { name: string; kind: 'terms'; field: string; size: number }
  | { name: string; kind: 'range'; field: string; ranges: { key: string; from?: number; to?: number }[] }
  | { name: string; kind: 'min' | 'max'; field: string }

/** Field paths: letters, digits, underscores, dots (whitelisted before they go anywhere near SQL). */
const FIELD_RE = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*){0,3}$/

/** A plain JSON object (not null, not an array). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function isScalar(v: unknown): v is Scalar {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'
}

/** Validates a field path and strips the ES `.keyword` sub-field suffix. */
export function checkField(field: unknown, clause: string): string {
  if (typeof field !== 'string' || !FIELD_RE.test(field) || field.length > 100) {
    throw new SearchError(`Invalid field name in ${clause}: ${JSON.stringify(field)?.slice(0, 80)}`)
  }
  return field.endsWith('.keyword') ? field.slice(0, -'.keyword'.length) : field
}

function num(v: unknown, what: string, fallback: number): number {
  if (v === undefined || v === null) return fallback
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new SearchError(`${what} must be a number`)
  return n
}

/** Largest boost or weight (Elasticsearch reads them as 32-bit floats). */
export const MAX_FACTOR = 3.4028234663852886e38

/** A boost, weight or tie_breaker: a number within the float range, so products of two stay finite. */
function factor(v: unknown, what: string, fallback: number): number {
  const n = num(v, what, fallback)
  if (Math.abs(n) > MAX_FACTOR) throw new SearchError(`${what} must be a number between -3.4e38 and 3.4e38`)
  return n
}

function parseFuzziness(v: unknown): number | 'auto' {
  if (v === undefined || v === null) return 0
  if (typeof v === 'string' && v.toUpperCase().startsWith('AUTO')) return 'auto'
  const n = num(v, 'fuzziness', 0)
  if (n < 0 || n > 2 || !Number.isInteger(n)) throw new SearchError('fuzziness must be 0, 1, 2 or AUTO')
  return n
}

function parseMsm(v: unknown): number | string | null {
  if (v === undefined || v === null) return null
  if (typeof v === 'number' && Number.isInteger(v)) return v
  if (typeof v === 'string') {
    // The VSF client URL-encodes the '%' of minimum_should_match ("75%25") when it queries by GET.
    const s = v.replace(/%25$/, '%').trim()
    if (/^-?\d+%?$/.test(s)) return s.endsWith('%') ? s : Number(s)
  }
  throw new SearchError(`Unsupported minimum_should_match: ${JSON.stringify(v)?.slice(0, 40)}`)
}

/** Resolves minimum_should_match against the number of optional clauses/tokens (ES rounding: down). */
export function resolveMinimumShouldMatch(
  msm: number | string | null,
  count: number,
  fallback: number,
): number {
  if (msm === null) return fallback
  let n: number
  if (typeof msm === 'number') n = msm
  else {
    const pct = Number(msm.slice(0, -1))
    n = Math.trunc((count * Math.abs(pct)) / 100)
    if (pct < 0) n = count - n
  }
  if (n < 0) n = count + n
  return Math.max(0, Math.min(count, n))
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

/** The one field and its body of a single-field clause (`{terms: {color: [..]}}`), ignoring `boost`. */
function singleField(body: unknown, clause: string, extra: string[] = []): [string, unknown, number] {
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

interface ParseState {
  clauses: number
  /** terms values so far. */
  values: number
  /** Full-text clauses so far. */
  text: number
  /** Distinct `field\u0000word` pairs the full-text clauses expand. */
  words: Set<string>
}

/** Checks one exact value (a terms value or range bound) against the length limit. */
function checkValue(v: Scalar, clause: string, field: string): void {
  if (typeof v === 'string' && v.length > MAX_VALUE_LENGTH)
    throw new SearchError(
      `${clause} on ${field}: a value is longer than ${MAX_VALUE_LENGTH} characters (the longest indexed value)`,
    )
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

function parseList(v: unknown, depth: number, st: ParseState, where: string): QueryNode[] {
  if (v === undefined || v === null) return []
  const items = Array.isArray(v) ? v : [v]
  return items.map((x) => parseNode(x, depth, st, where))
}

function parseNode(q: unknown, depth: number, st: ParseState, where = 'query'): QueryNode {
  if (depth > MAX_QUERY_DEPTH)
    throw new SearchError(`Query is nested too deeply (more than ${MAX_QUERY_DEPTH} levels)`)
  if (++st.clauses > MAX_QUERY_CLAUSES)
    throw new SearchError(`Query has too many clauses (more than ${MAX_QUERY_CLAUSES})`)
  if (!isObject(q)) throw new SearchError(`Malformed clause in ${where}: expected an object`)
  const keys = Object.keys(q)
  if (keys.length !== 1) {
    throw new SearchError(
      keys.length === 0
        ? `Empty clause in ${where}`
        : `A clause must have one key, got: ${keys.join(', ').slice(0, 80)}`,
    )
  }
  const type = keys[0] as string
  const body = q[type]
  switch (type) {
    case 'match_all':
      return { kind: 'match_all', boost: isObject(body) ? factor(body.boost, 'boost', 1) : 1 }
    case 'match_none':
      return { kind: 'match_none' }
    case 'terms': {
      const [field, values, boost] = singleField(body, 'terms')
      if (!Array.isArray(values)) throw new SearchError(`terms on ${field} needs an array of values`)
      if (values.length > MAX_TERMS_VALUES)
        throw new SearchError(`terms on ${field} has too many values (at most ${MAX_TERMS_VALUES})`)
      st.values += values.length
      if (st.values > MAX_QUERY_VALUES)
        throw new SearchError(`Query has too many terms values (more than ${MAX_QUERY_VALUES} in all)`)
      for (const v of values) {
        if (!isScalar(v))
          throw new SearchError(`terms on ${field} accepts only strings, numbers and booleans`)
        checkValue(v, 'terms', field)
      }
      return { kind: 'terms', field, values: values as Scalar[], boost }
    }
    case 'term': {
      let [field, value, boost] = singleField(body, 'term')
      if (isObject(value)) {
        for (const k of Object.keys(value)) {
          if (k !== 'value' && k !== 'boost') throw new SearchError(`Unsupported option in term: ${k}`)
        }
        boost = factor(value.boost, 'boost', boost)
        value = value.value
      }
      if (!isScalar(value)) throw new SearchError(`term on ${field} needs a string, number or boolean`)
      checkValue(value, 'term', field)
      return { kind: 'terms', field, values: [value], boost }
    }
    case 'range': {
      const [field, spec, boost] = singleField(body, 'range')
      if (!isObject(spec)) throw new SearchError(`range on ${field} needs bounds`)
      const node: Extract<QueryNode, { kind: 'range' }> = { kind: 'range', field, boost }
      for (const [k, v] of Object.entries(spec)) {
        if (k === 'boost') node.boost = factor(v, 'boost', 1)
        else if (k === 'format' || k === 'relation') continue
        else if (k === 'gt' || k === 'gte' || k === 'lt' || k === 'lte' || k === 'from' || k === 'to') {
          if (v === null || v === undefined) continue
          if (!isScalar(v) || typeof v === 'boolean')
            throw new SearchError(`range bound ${k} on ${field} must be a number or string`)
          checkValue(v, 'range', field)
          if (k === 'from') node.gte = v
          else if (k === 'to') node.lte = v
          else node[k] = v
        } else throw new SearchError(`Unsupported range option: ${k.slice(0, 40)}`)
      }
      return node
    }
    case 'exists': {
      if (!isObject(body)) throw new SearchError('Malformed exists clause')
      return {
        kind: 'exists',
        field: checkField(body.field, 'exists'),
        boost: factor(body.boost, 'boost', 1),
      }
    }
    case 'match': {
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
    case 'match_phrase': {
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
    case 'multi_match': {
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
    case 'bool': {
      if (!isObject(body)) throw new SearchError('Malformed bool clause')
      const node: Extract<QueryNode, { kind: 'bool' }> = {
        kind: 'bool',
        must: [],
        should: [],
        mustNot: [],
        filter: [],
        minimumShouldMatch: 0,
        boost: 1,
      }
      let msm: number | string | null = null
      for (const [k, v] of Object.entries(body)) {
        if (k === 'must') node.must = parseList(v, depth + 1, st, 'bool.must')
        else if (k === 'should') node.should = parseList(v, depth + 1, st, 'bool.should')
        else if (k === 'must_not') node.mustNot = parseList(v, depth + 1, st, 'bool.must_not')
        else if (k === 'filter') node.filter = parseList(v, depth + 1, st, 'bool.filter')
        else if (k === 'minimum_should_match') msm = parseMsm(v)
        else if (k === 'boost') node.boost = factor(v, 'boost', 1)
        else if (k === 'disable_coord' || k === 'adjust_pure_negative' || k === '_name') continue
        else throw new SearchError(`Unsupported bool option: ${k.slice(0, 40)}`)
      }
      // ES: without must/filter at least one should clause has to match; with them, none has to.
      const fallback = node.must.length === 0 && node.filter.length === 0 && node.should.length > 0 ? 1 : 0
      node.minimumShouldMatch = resolveMinimumShouldMatch(msm, node.should.length, fallback)
      return node
    }
    case 'constant_score': {
      if (!isObject(body) || body.filter === undefined) throw new SearchError('constant_score needs a filter')
      const boost = factor(body.boost, 'boost', 1)
      return {
        kind: 'bool',
        must: [{ kind: 'match_all', boost }],
        should: [],
        mustNot: [],
        filter: parseList(body.filter, depth + 1, st, 'constant_score.filter'),
        minimumShouldMatch: 0,
        boost: 1,
      }
    }
    case 'function_score':
      return parseFunctionScore(body, depth, st)
    default:
      throw new SearchError(`Unsupported query clause: ${type.slice(0, 60)}`)
  }
}

function parseFunctionScore(body: unknown, depth: number, st: ParseState): QueryNode {
  if (!isObject(body)) throw new SearchError('Malformed function_score clause')
  const node: Extract<QueryNode, { kind: 'function_score' }> = {
    kind: 'function_score',
    query: { kind: 'match_all', boost: 1 },
    functions: [],
    scoreMode: 'multiply',
    boostMode: 'multiply',
    maxBoost: Number.MAX_VALUE,
    minScore: null,
    boost: 1,
  }
  for (const [k, v] of Object.entries(body)) {
    if (k === 'query') node.query = parseNode(v, depth + 1, st, 'function_score.query')
    else if (k === 'functions') {
      if (!Array.isArray(v)) throw new SearchError('function_score functions must be an array')
      for (const fn of v) {
        if (!isObject(fn)) throw new SearchError('Malformed function_score function')
        if (++st.clauses > MAX_QUERY_CLAUSES)
          throw new SearchError(`Query has too many clauses (more than ${MAX_QUERY_CLAUSES})`)
        let filter: QueryNode | null = null
        let weight = 1
        for (const [fk, fv] of Object.entries(fn)) {
          if (fk === 'filter') filter = parseNode(fv, depth + 1, st, 'function_score.functions.filter')
          else if (fk === 'weight') weight = factor(fv, 'weight', 1)
          else throw new SearchError(`Unsupported function_score function: ${fk.slice(0, 40)}`)
        }
        node.functions.push({ filter, weight })
      }
    } else if (k === 'score_mode') {
      if (!['multiply', 'sum', 'avg', 'first', 'max', 'min'].includes(String(v)))
        throw new SearchError('Unsupported function_score score_mode')
      node.scoreMode = v as typeof node.scoreMode
    } else if (k === 'boost_mode') {
      if (!['multiply', 'replace', 'sum', 'avg', 'max', 'min'].includes(String(v)))
        throw new SearchError('Unsupported function_score boost_mode')
      node.boostMode = v as typeof node.boostMode
    } else if (k === 'max_boost') node.maxBoost = num(v, 'max_boost', Number.MAX_VALUE)
    else if (k === 'min_score') node.minScore = num(v, 'min_score', 0)
    else if (k === 'boost') node.boost = factor(v, 'boost', 1)
    else if (k === 'weight' && node.functions.length === 0)
      node.functions.push({ filter: null, weight: factor(v, 'weight', 1) })
    else throw new SearchError(`Unsupported function_score option: ${k.slice(0, 40)}`)
  }
  return node
}

/** Parses one query clause (the value of a request's `query`). */
export function parseQuery(q: unknown): QueryNode {
  if (q === undefined || q === null) return { kind: 'match_all', boost: 1 }
  return parseNode(q, 0, { clauses: 0, values: 0, text: 0, words: new Set() })
}

function rangeKey(from?: number, to?: number): string {
  const f = (n?: number) => (n === undefined ? '*' : Number.isInteger(n) ? n.toFixed(1) : String(n))
  return `${f(from)}-${f(to)}`
}

/** Parses `aggs`/`aggregations` (terms, range, min, max; no sub-aggregations). */
export function parseAggs(a: unknown, maxTermsSize = MAX_TERMS_AGG_SIZE): AggNode[] {
  if (a === undefined || a === null) return []
  if (!isObject(a)) throw new SearchError('aggregations must be an object')
  const out: AggNode[] = []
  let rangeBuckets = 0
  for (const [name, spec] of Object.entries(a)) {
    if (out.length >= MAX_AGGREGATIONS)
      throw new SearchError(`Too many aggregations (at most ${MAX_AGGREGATIONS})`)
    if (!/^[A-Za-z0-9_.\-#]{1,100}$/.test(name))
      throw new SearchError(`Invalid aggregation name: ${name.slice(0, 40)}`)
    if (!isObject(spec)) throw new SearchError(`Malformed aggregation ${name}`)
    const types = Object.keys(spec).filter((k) => k !== 'meta')
    if (types.length !== 1) {
      throw new SearchError(
        `Aggregation ${name} must have exactly one type (sub-aggregations are not supported)`,
      )
    }
    const type = types[0] as string
    const body = spec[type]
    if (!isObject(body)) throw new SearchError(`Malformed aggregation ${name}`)
    const field = checkField(body.field, `aggregation ${name}`)
    if (type === 'terms') {
      for (const k of Object.keys(body)) {
        if (!['field', 'size', 'order', 'min_doc_count', 'shard_size'].includes(k))
          throw new SearchError(`Unsupported terms aggregation option: ${k.slice(0, 40)}`)
      }
      const size = Math.trunc(num(body.size, 'aggregation size', 10))
      if (size < 1 || size > maxTermsSize)
        throw new SearchError(`Aggregation size must be between 1 and ${maxTermsSize}`)
      out.push({ name, kind: 'terms', field, size })
    } else if (type === 'range') {
      if (!Array.isArray(body.ranges)) throw new SearchError(`range aggregation ${name} needs ranges`)
      rangeBuckets += body.ranges.length
      if (rangeBuckets > MAX_RANGE_BUCKETS)
        throw new SearchError(
          `Too many range buckets (at most ${MAX_RANGE_BUCKETS} ranges over all range aggregations)`,
        )
      for (const k of Object.keys(body)) {
        if (!['field', 'ranges', 'keyed'].includes(k))
          throw new SearchError(`Unsupported range aggregation option: ${k.slice(0, 40)}`)
      }
      const ranges = body.ranges.map((r) => {
        if (!isObject(r)) throw new SearchError(`Malformed range in aggregation ${name}`)
        const from = r.from === undefined || r.from === null ? undefined : num(r.from, 'range from', 0)
        const to = r.to === undefined || r.to === null ? undefined : num(r.to, 'range to', 0)
        if (typeof r.key === 'string' && r.key.length > MAX_VALUE_LENGTH)
          throw new SearchError(
            `A range key in aggregation ${name} is longer than ${MAX_VALUE_LENGTH} characters`,
          )
        return { key: typeof r.key === 'string' ? r.key : rangeKey(from, to), from, to }
      })
      out.push({ name, kind: 'range', field, ranges })
    } else if (type === 'min' || type === 'max') {
      out.push({ name, kind: type, field })
    } else throw new SearchError(`Unsupported aggregation type: ${type.slice(0, 40)}`)
  }
  return out
}

export interface SortSpec {
  field: string
  order: 'asc' | 'desc'
}

/** Parses a URI sort (`updated_at:desc,position`) or a body sort (`[{price:{order:'asc'}}, 'name']`). */
export function parseSort(sort: unknown): SortSpec[] {
  if (sort === undefined || sort === null || sort === '') return []
  const out: SortSpec[] = []
  const tooMany = () => {
    if (out.length > MAX_SORT_FIELDS)
      throw new SearchError(`Too many sort fields (at most ${MAX_SORT_FIELDS})`)
  }
  const push = (field: unknown, order: unknown) => {
    const o = String(order ?? 'asc').toLowerCase()
    if (o !== 'asc' && o !== 'desc')
      throw new SearchError(`Sort order must be asc or desc, got ${String(order).slice(0, 20)}`)
    const f = checkField(field, 'sort')
    out.push({ field: f, order: o })
    tooMany()
  }
  if (typeof sort === 'string') {
    for (const part of sort.split(',')) {
      const s = part.trim()
      if (!s) continue
      const [field, order, ...rest] = s.split(':')
      if (rest.length > 0) throw new SearchError(`Malformed sort: ${s.slice(0, 60)}`)
      if (field === '_score') {
        out.push({ field: '_score', order: order === 'asc' ? 'asc' : 'desc' })
        tooMany()
      } else push(field, order)
    }
  } else {
    const items = Array.isArray(sort) ? sort : [sort]
    for (const item of items) {
      if (typeof item === 'string') {
        if (item === '_score') out.push({ field: '_score', order: 'desc' })
        else push(item, 'asc')
      } else if (isObject(item)) {
        for (const [field, spec] of Object.entries(item)) {
          if (field === '_score') {
            out.push({
              field: '_score',
              order: isObject(spec) && spec.order === 'asc' ? 'asc' : spec === 'asc' ? 'asc' : 'desc',
            })
          } else if (typeof spec === 'string') push(field, spec)
          else if (isObject(spec)) {
            for (const k of Object.keys(spec)) {
              if (!['order', 'mode', 'unmapped_type', 'missing'].includes(k))
                throw new SearchError(`Unsupported sort option: ${k.slice(0, 40)}`)
            }
            push(field, spec.order)
          } else throw new SearchError(`Malformed sort on ${field.slice(0, 60)}`)
        }
      } else throw new SearchError('Malformed sort')
    }
  }
  tooMany()
  return out
}

/** Collects every field path a query references (for per-entity field checks). */
export function queryFields(node: QueryNode, out: Set<string> = new Set()): Set<string> {
  switch (node.kind) {
    case 'terms':
    case 'range':
    case 'exists':
    case 'phrase':
      out.add(node.field)
      break
    case 'match':
      for (const f of node.fields) out.add(f.field)
      break
    case 'bool':
      for (const c of [...node.must, ...node.should, ...node.mustNot, ...node.filter]) queryFields(c, out)
      break
    case 'function_score':
      queryFields(node.query, out)
      for (const f of node.functions) if (f.filter) queryFields(f.filter, out)
      break
  }
  return out
}

/** A range's bounds in one comparison mode: numbers (numeric values) or strings (e.g. ISO dates). */
export function rangeBounds(node: Extract<QueryNode, { kind: 'range' }>): {
  mode: 'number' | 'string'
  gt?: number | string
  gte?: number | string
  lt?: number | string
  lte?: number | string
} {
  const raw = { gt: node.gt, gte: node.gte, lt: node.lt, lte: node.lte }
  const present = Object.values(raw).filter((v) => v !== undefined)
  const numeric = present.every(
    (v) => typeof v === 'number' || (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim())),
  )
  if (numeric) {
    const conv = (v: Scalar | undefined) => (v === undefined ? undefined : Number(v))
    return { mode: 'number', gt: conv(raw.gt), gte: conv(raw.gte), lt: conv(raw.lt), lte: conv(raw.lte) }
  }
  if (present.some((v) => typeof v !== 'string'))
    throw new SearchError(`range on ${node.field} mixes numbers and strings`)
  return { mode: 'string', ...(raw as { gt?: string; gte?: string; lt?: string; lte?: string }) }
}

/** A parsed search request: what both backends execute. */
export interface SearchPlan {
  query: QueryNode
  aggs: AggNode[]
  sort: SortSpec[]
  from: number
  size: number
  minScore: number | null
}
