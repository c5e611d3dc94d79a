/**
 * Turns a catalogue document into the "facts" the search engine matches on: exact values per field
 * path, numeric values, and full-text tokens. The D1 index (builds/index-products.ts) stores exactly these
 * facts and the in-memory evaluator (memory/) computes them on the fly, so both backends share
 * one semantics.
 */
import type { Scalar } from '../dsl'

/** Fields analysed as full text (tokenised, fuzzy-matchable); everything else is a keyword. */
export const TEXT_FIELDS = new Set(['name', 'category.name', 'sku', 'title', 'content', 'description'])

/** Keyword-analysed text fields: the whole value is one token (vue-storefront-api maps sku as a keyword). */
const WHOLE_VALUE_TOKEN_FIELDS = new Set(['sku'])

/** Long free-text product fields that are not indexed as exact values. */
const UNINDEXED_PRODUCT_FIELDS = new Set([
  'description',
  'short_description',
  'meta_description',
  'meta_keyword',
  'meta_keywords',
  'custom_attributes',
])

/** Nested product fields that are indexed (parent path → leaf keys); objects like `stock` index every scalar leaf. */
const PRODUCT_NESTED_FIELDS: Record<string, Set<string> | 'all'> = {
  stock: 'all',
  category: new Set(['category_id', 'name', 'slug', 'position']),
  configurable_children: new Set([
    'sku',
    'id',
    'color',
    'size',
    'status',
    'price',
    'final_price',
    'special_price',
    'rts_qty',
  ]),
  configurable_options: new Set(['attribute_code', 'attribute_id', 'label']),
  product_links: new Set(['linked_product_sku', 'link_type', 'sku']),
  bundle_options: new Set(['option_id', 'title', 'sku']),
}

/** Longest string value indexed as an exact value (longer strings are treated as prose). */
const MAX_TERM_LENGTH = 512

export interface Facts {
  /** field path → canonical text values. */
  terms: Map<string, Set<string>>
  /** field path → numeric values. */
  numbers: Map<string, Set<number>>
  /** text field → token → first position. */
  tokens: Map<string, Map<string, number>>
}

export type EntityKind = 'product' | 'generic'

/** Canonical text form of a scalar (numbers as JS prints them, booleans as 'true'/'false'). */
function canonicalValue(v: unknown): string | null {
  if (typeof v === 'string') return v
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : null
  if (typeof v === 'boolean') return v ? 'true' : 'false'
  return null
}

/** The stored forms a query value may match: a numeric string also matches the number it spells. */
export function queryValueForms(v: unknown): string[] {
  const c = canonicalValue(v)
  if (c === null) return []
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v.trim())) {
    const n = String(Number(v.trim()))
    return n === c ? [c] : [c, n]
  }
  return [c]
}

/** Lower-cases, folds accents and splits on anything that is not a letter or digit. */
export function tokenize(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t.length > 0)
}

/** The tokens of `text` for a given text field (sku-like fields keep the whole value as one token). */
export function fieldTokens(field: string, text: string): string[] {
  if (WHOLE_VALUE_TOKEN_FIELDS.has(field)) {
    const t = text.trim().toLowerCase()
    return t ? [t] : []
  }
  return tokenize(text)
}

/** A string, number or boolean. */
export function isScalar(v: unknown): v is Scalar {
  return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'
}

function addFact(facts: Facts, path: string, v: string | number | boolean): void {
  if (typeof v === 'string' && TEXT_FIELDS.has(path)) addTokens(facts, path, v)
  const c = canonicalValue(v)
  if (c === null || c.length > MAX_TERM_LENGTH) return
  let terms = facts.terms.get(path)
  if (!terms) {
    terms = new Set()
    facts.terms.set(path, terms)
  }
  terms.add(c)
  if (typeof v === 'number') {
    let nums = facts.numbers.get(path)
    if (!nums) {
      nums = new Set()
      facts.numbers.set(path, nums)
    }
    nums.add(v)
  }
}

function walkGeneric(facts: Facts, path: string, v: unknown, depth: number): void {
  if (v === null || v === undefined) return
  if (isScalar(v)) {
    addFact(facts, path, v)
    return
  }
  if (depth > 3) return
  if (Array.isArray(v)) {
    for (const item of v) walkGeneric(facts, path, item, depth + 1)
    return
  }
  if (typeof v === 'object') {
    for (const [k, child] of Object.entries(v as Record<string, unknown>)) {
      if (k === 'children_data') continue
      walkGeneric(facts, path ? `${path}.${k}` : k, child, depth + 1)
    }
  }
}

function walkProduct(facts: Facts, doc: Record<string, unknown>): void {
  for (const [key, v] of Object.entries(doc)) {
    if (v === null || v === undefined) continue
    if (isScalar(v)) {
      if (UNINDEXED_PRODUCT_FIELDS.has(key) && !TEXT_FIELDS.has(key)) continue
      if (UNINDEXED_PRODUCT_FIELDS.has(key)) {
        // Prose text fields contribute tokens only.
        if (typeof v === 'string') addTokens(facts, key, v)
        continue
      }
      addFact(facts, key, v)
      continue
    }
    const nested = PRODUCT_NESTED_FIELDS[key]
    const items = Array.isArray(v) ? v : [v]
    for (const item of items) {
      if (isScalar(item)) {
        if (!UNINDEXED_PRODUCT_FIELDS.has(key)) addFact(facts, key, item)
        continue
      }
      if (!nested || item === null || typeof item !== 'object' || Array.isArray(item)) continue
      for (const [leaf, lv] of Object.entries(item as Record<string, unknown>)) {
        if (nested !== 'all' && !nested.has(leaf)) continue
        const lvs = Array.isArray(lv) ? lv : [lv]
        for (const x of lvs) if (isScalar(x)) addFact(facts, `${key}.${leaf}`, x)
      }
    }
  }
}

/** The tokens of a text field's value, each kept at the first position it stands in. */
function addTokens(facts: Facts, path: string, text: string): void {
  let tokens = facts.tokens.get(path)
  if (!tokens) {
    tokens = new Map()
    facts.tokens.set(path, tokens)
  }
  const list = fieldTokens(path, text)
  for (let i = 0; i < list.length; i++) {
    const t = list[i] as string
    if (!tokens.has(t)) tokens.set(t, i)
  }
}

/** Extracts the searchable facts of a document (products use the product field rules). */
export function extractFacts(doc: Record<string, unknown>, kind: EntityKind): Facts {
  const facts: Facts = { terms: new Map(), numbers: new Map(), tokens: new Map() }
  if (kind === 'product') walkProduct(facts, doc)
  else walkGeneric(facts, '', doc, 0)
  return facts
}

/**
 * Hot columns of `search_docs` (migration 0003): single-scalar copies of the fields every listing
 * filters or sorts on. `term` columns hold the canonical text (terms filters, keyword match),
 * `number` columns the number (numeric range, sort), `text` columns the string (string range, sort).
 */
export const HOT_COLUMNS = [
  { field: 'visibility', column: 'h_visibility', kind: 'term' },
  { field: 'status', column: 'h_status', kind: 'term' },
  { field: 'type_id', column: 'h_type_id', kind: 'term' },
  { field: 'price', column: 'h_price', kind: 'number' },
  { field: 'final_price', column: 'h_final_price', kind: 'number' },
  { field: 'created_at', column: 'h_created_at', kind: 'text' },
  { field: 'updated_at', column: 'h_updated_at', kind: 'text' },
] as const
type HotColumn = (typeof HOT_COLUMNS)[number]

/** The hot column of a field, if it has one. */
export function hotColumn(field: string): HotColumn | undefined {
  return HOT_COLUMNS.find((h) => h.field === field)
}

/** A product's hot column values (NULL unless the field is one scalar of the column's kind). */
export function hotValues(doc: Record<string, unknown>): (string | number | null)[] {
  return HOT_COLUMNS.map((h) => {
    const v = doc[h.field]
    if (h.kind === 'number') return typeof v === 'number' && Number.isFinite(v) ? v : null
    if (h.kind === 'text') return typeof v === 'string' && v.length <= 512 ? v : null
    const c = canonicalValue(v)
    return c !== null && c.length <= 512 ? c : null
  })
}

/** The in-stock field: filtered on live stock, never on the stock stored in the document. */
export const IN_STOCK_FIELD = 'stock.is_in_stock'
