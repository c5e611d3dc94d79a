/** Parsing of a request's query: the clause tree, within the per-request limits. */
import {
  MAX_QUERY_CLAUSES,
  MAX_QUERY_DEPTH,
  MAX_QUERY_VALUES,
  MAX_TERMS_VALUES,
  type QueryNode,
  type Scalar,
  SearchError,
} from '../dsl'
import { hotColumn, isScalar } from '../semantics/facts'
import { resolveMinimumShouldMatch } from '../semantics/text'
import { parseMatch, parseMatchPhrase, parseMsm, parseMultiMatch } from './parse-text'
import { checkField, checkValue, factor, isObject, num, type ParseState, singleField } from './parse-values'

function parseList(v: unknown, depth: number, st: ParseState, where: string): QueryNode[] {
  if (v === undefined || v === null) return []
  const items = Array.isArray(v) ? v : [v]
  return items.map((x) => parseNode(x, depth, st, where))
}

/** The clauses of a filter: bools among them (at any depth) are in filter context. */
function parseFilterList(v: unknown, depth: number, st: ParseState, where: string): QueryNode[] {
  st.filterDepth = (st.filterDepth ?? 0) + 1
  try {
    return parseList(v, depth, st, where)
  } finally {
    st.filterDepth -= 1
  }
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
  const parse = CLAUSES.get(type)
  if (!parse) throw new SearchError(`Unsupported query clause: ${type.slice(0, 60)}`)
  return parse(q[type], depth, st)
}

/** A clause's parser: the clause's body, the depth it stands at, the request's running counts. */
type ClauseParser = (body: unknown, depth: number, st: ParseState) => QueryNode

/** The parser of every query clause the engine supports, by the clause's key; any other is refused. */
const CLAUSES = new Map<string, ClauseParser>([
  [
    'match_all',
    (body) => ({ kind: 'match_all', boost: isObject(body) ? factor(body.boost, 'boost', 1) : 1 }),
  ],
  ['match_none', () => ({ kind: 'match_none' })],
  ['terms', (body, _, st) => parseTerms(body, st)],
  ['term', parseTerm],
  ['range', parseRange],
  ['exists', parseExists],
  ['prefix', parsePrefix],
  ['match', (body, _, st) => parseMatch(body, st)],
  ['match_phrase', (body, _, st) => parseMatchPhrase(body, st)],
  ['multi_match', (body, _, st) => parseMultiMatch(body, st)],
  ['bool', parseBool],
  ['constant_score', parseConstantScore],
  ['function_score', parseFunctionScore],
])

/** A terms clause: one field, a list of exact values. */
function parseTerms(body: unknown, st: ParseState): QueryNode {
  const [field, values, boost] = singleField(body, 'terms')
  if (!Array.isArray(values)) throw new SearchError(`terms on ${field} needs an array of values`)
  if (values.length > MAX_TERMS_VALUES)
    throw new SearchError(`terms on ${field} has too many values (at most ${MAX_TERMS_VALUES})`)
  st.values += values.length
  if (st.values > MAX_QUERY_VALUES)
    throw new SearchError(`Query has too many terms values (more than ${MAX_QUERY_VALUES} in all)`)
  for (const v of values) {
    if (!isScalar(v)) throw new SearchError(`terms on ${field} accepts only strings, numbers and booleans`)
    checkValue(v, 'terms', field)
  }
  return { kind: 'terms', field, values: values as Scalar[], boost }
}

/** A term clause: one exact value (a terms clause of one). */
function parseTerm(body: unknown): QueryNode {
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

/** A range clause (from/to read as gte/lte). */
function parseRange(body: unknown): QueryNode {
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

/** Longest prefix of a prefix clause (characters). */
const MAX_PREFIX_CHARS = 128

/** A prefix clause: {prefix: {field: 'ki'}} or {prefix: {field: {value: 'ki', boost}}}. */
function parsePrefix(body: unknown): QueryNode {
  let [field, value, boost] = singleField(body, 'prefix')
  if (isObject(value)) {
    for (const k of Object.keys(value)) {
      if (k !== 'value' && k !== 'boost' && k !== 'rewrite')
        throw new SearchError(`Unsupported option in prefix: ${k.slice(0, 40)}`)
    }
    boost = factor(value.boost, 'boost', boost)
    value = value.value
  }
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_PREFIX_CHARS)
    throw new SearchError(`prefix on ${field} needs a string of 1 to ${MAX_PREFIX_CHARS} characters`)
  if (hotColumn(field)?.kind === 'number')
    throw new SearchError(`prefix on ${field}: a number field has no prefixes`)
  return { kind: 'prefix', field, prefix: value, boost }
}

/** An exists clause. */
function parseExists(body: unknown): QueryNode {
  if (!isObject(body)) throw new SearchError('Malformed exists clause')
  return {
    kind: 'exists',
    field: checkField(body.field, 'exists'),
    boost: factor(body.boost, 'boost', 1),
  }
}

/** A bool clause; its minimum_should_match resolved against its should clauses. */
function parseBool(body: unknown, depth: number, st: ParseState): QueryNode {
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
    else if (k === 'filter') node.filter = parseFilterList(v, depth + 1, st, 'bool.filter')
    else if (k === 'minimum_should_match') msm = parseMsm(v)
    else if (k === 'boost') node.boost = factor(v, 'boost', 1)
    else if (k === 'disable_coord' || k === 'adjust_pure_negative' || k === '_name') continue
    else throw new SearchError(`Unsupported bool option: ${k.slice(0, 40)}`)
  }
  // Without must/filter at least one should clause has to match. Inside a filter, one has to match
  // as well: the rule of Elasticsearch 5 and 6, which vue-storefront-api runs on, and which its query
  // builder relies on for `or`, `nor` and `orRange` filters next to other filters.
  const inFilter = (st.filterDepth ?? 0) > 0
  const fallback =
    node.should.length > 0 && (inFilter || (node.must.length === 0 && node.filter.length === 0)) ? 1 : 0
  node.minimumShouldMatch = resolveMinimumShouldMatch(msm, node.should.length, fallback)
  return node
}

/** A constant_score clause, as a bool of its filter with a constant score. */
function parseConstantScore(body: unknown, depth: number, st: ParseState): QueryNode {
  if (!isObject(body) || body.filter === undefined) throw new SearchError('constant_score needs a filter')
  const boost = factor(body.boost, 'boost', 1)
  return {
    kind: 'bool',
    must: [{ kind: 'match_all', boost }],
    should: [],
    mustNot: [],
    filter: parseFilterList(body.filter, depth + 1, st, 'constant_score.filter'),
    minimumShouldMatch: 0,
    boost: 1,
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
