/**
 * Import transform and validation (pure): export records → typed catalogue documents, validated
 * with the shared schemas, plus the URL mappings they imply. Nothing is written here; the caller
 * writes a file's statements only when the whole file is valid (one transaction per file).
 */
import type { z } from 'zod'
import { decodeEntities } from '../../../shared/domain/sanitize-html'
import {
  AttributeSchema,
  type Category,
  CategorySchema,
  CmsBlockSchema,
  CmsPageSchema,
  type Product,
  ProductSchema,
  ReviewSchema,
  TaxRuleSchema,
} from '../../../shared/schemas/catalog'
import { type CoercionCounts, coerce, LOSSY_KINDS } from './coerce'
import { convertOlderProduct, stableIdOf } from './older-format'
import { MAX_RECORD_DEPTH, nestedDeeperThan, parseExport } from './parse'
import { foldStock, importedStock, isObject, note } from './stock'
import { issueInWords, productName } from './words'

/** Entity types the import understands (vue-storefront-api `_type` names). */
const IMPORT_TYPES = [
  'product',
  'category',
  'attribute',
  'taxrule',
  'cms_page',
  'cms_block',
  'review',
] as const
export type ImportType = (typeof IMPORT_TYPES)[number]

type ImportDoc =
  | { type: 'product'; doc: Product }
  | { type: 'category'; doc: Category }
  | { type: 'attribute'; doc: z.infer<typeof AttributeSchema> }
  | { type: 'taxrule'; doc: z.infer<typeof TaxRuleSchema> }
  | { type: 'cms_page'; doc: z.infer<typeof CmsPageSchema> }
  | { type: 'cms_block'; doc: z.infer<typeof CmsBlockSchema> }
  | { type: 'review'; doc: z.infer<typeof ReviewSchema> }

export interface ImportRecord {
  line: number
  entry: ImportDoc
}

export interface ImportError {
  file: string
  line: number
  /** The whole message ('invalid product: price: expected number'). */
  reason: string
  /** The message with positions in arrays left out, for grouping like issues of many records. */
  kind: string
}

/** A conversion that changed what a product says (the older format, several values → one). */
export interface ImportWarning {
  file: string
  line: number
  /** The product's SKU, else its id. */
  product: string
  /** What was converted, naming the field. */
  message: string
}

interface ParsedImport {
  file: string
  records: ImportRecord[]
  errors: ImportError[]
  warnings: ImportWarning[]
  counts: Partial<Record<ImportType, number>>
  /** Conversions made on the way in, '<kind> (<field>)' → how many. */
  coercions: CoercionCounts
}

interface ImportOptions {
  /** Entity type for records whose type neither `_type` nor `_index` names. */
  type?: string
  /** Called every few hundred records while validating (progress bars). */
  onProgress?: (done: number, total: number) => void
}

const SCHEMAS = {
  product: ProductSchema,
  category: CategorySchema,
  attribute: AttributeSchema,
  taxrule: TaxRuleSchema,
  cms_page: CmsPageSchema,
  cms_block: CmsBlockSchema,
  review: ReviewSchema,
} as const

/**
 * Type aliases seen in exports. A Map, not an object: a name from the file such as `constructor`
 * or `__proto__` must not find what every object inherits.
 */
const TYPE_ALIASES: ReadonlyMap<string, ImportType> = new Map([
  ['product', 'product'],
  ['category', 'category'],
  ['attribute', 'attribute'],
  ['taxrule', 'taxrule'],
  ['tax_rule', 'taxrule'],
  ['cms_page', 'cms_page'],
  ['cmspage', 'cms_page'],
  ['cms_block', 'cms_block'],
  ['cmsblock', 'cms_block'],
  ['review', 'review'],
])

/** Resolves a `_type`/--type name, or null when unsupported. */
function importType(name: unknown): ImportType | null {
  return typeof name === 'string' ? (TYPE_ALIASES.get(name.trim().toLowerCase()) ?? null) : null
}

/**
 * The entity an index name stands for: vue-storefront-api names one index per entity from
 * Elasticsearch 6 on ('vue_storefront_catalog_category_1587031505', 'vue_storefront_catalog_de_product'),
 * the type being the last name before an optional numeric suffix. A single shared index
 * ('vue_storefront_catalog') names none.
 */
function typeFromIndex(index: unknown): ImportType | null {
  if (typeof index !== 'string') return null
  const m = /(?:^|_)(cms_page|cms_block|tax_rule|taxrule|product|category|attribute|review)(?:_\d+)?$/i.exec(
    index.trim(),
  )
  return m ? importType(m[1]) : null
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Fills the fields exports commonly omit, folds stock arrays and coerces types (before validation). */
function normalise(
  type: ImportType,
  doc: Record<string, unknown>,
  id: unknown,
  counts: CoercionCounts,
): Record<string, unknown> {
  const raw: Record<string, unknown> = { ...doc }
  const fill = (key: string, value: unknown) => {
    raw[key] = value
    note(counts, `missing → ${JSON.stringify(value)} (${key})`)
  }
  if (raw.id === undefined && id !== undefined && type !== 'attribute') {
    const n = Number(id)
    raw.id = Number.isFinite(n) ? n : id
  }
  // A GUID id (exports of shops keyed by GUIDs) becomes a stable whole number; the GUID is kept.
  if (typeof raw.id === 'string' && GUID.test(raw.id.trim())) {
    raw.guid = raw.id.trim().toLowerCase()
    raw.id = stableIdOf(raw.guid as string)
    note(counts, 'GUID → stable number (id)')
  }
  // Names are text: character references an export left in them (EverCool&trade;) are decoded.
  for (const key of ['name', 'meta_title', 'title'] as const) {
    const v = raw[key]
    if (typeof v === 'string' && /&(#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);/i.test(v)) {
      raw[key] = decodeEntities(v)
      note(counts, `HTML entities decoded (${key})`)
    }
  }
  if (type === 'product') {
    raw.stock = foldStock(raw.stock, counts, 'stock')
    if (Array.isArray(raw.configurable_children))
      raw.configurable_children = raw.configurable_children.map((c) =>
        isObject(c) ? { ...c, stock: foldStock(c.stock, counts, 'configurable_children[].stock') } : c,
      )
  }
  if (type === 'attribute') {
    if (raw.attribute_id === undefined || raw.attribute_id === null || raw.attribute_id === '') {
      const fromId = raw.id ?? id
      const n = Number(fromId)
      if (fromId !== undefined && fromId !== null && Number.isSafeInteger(n)) {
        raw.attribute_id = n
        note(counts, 'missing → id (attribute_id)')
      } else if (typeof raw.attribute_code === 'string') fill('attribute_id', stableIdOf(raw.attribute_code))
    }
    if (typeof raw.default_frontend_label !== 'string') {
      const label = typeof raw.frontend_label === 'string' ? raw.frontend_label : raw.attribute_code
      if (typeof label === 'string') {
        raw.default_frontend_label = label
        note(counts, 'missing → label or code (default_frontend_label)')
      }
    }
    if (raw.frontend_input === undefined || raw.frontend_input === null) fill('frontend_input', 'text')
  }
  if (type === 'category' && raw.include_in_menu === undefined) fill('include_in_menu', true)
  const out = coerce(SCHEMAS[type] as z.ZodType, raw, counts) as Record<string, unknown>
  if (type === 'product') {
    if (typeof out.sku === 'string' && out.sku !== out.sku.trim()) {
      out.sku = out.sku.trim()
      note(counts, 'surrounding spaces removed (sku)')
    }
    if (typeof out.slug !== 'string' && typeof out.url_key === 'string') out.slug = out.url_key
    if (typeof out.url_key !== 'string' && typeof out.slug === 'string') out.url_key = out.slug
    if (typeof out.url_path !== 'string' && typeof out.url_key === 'string') out.url_path = out.url_key
    if (typeof out.url_path === 'string') out.url_path = out.url_path.replace(/^\/+|\/+$/g, '')
    // A date the export does not give stays empty (null), never the moment of the import: an
    // undated product is not "new". A product created but never changed was last changed then.
    if (typeof out.created_at !== 'string' || out.created_at.trim() === '') {
      out.created_at = null
      note(counts, 'missing → null (created_at)')
    }
    if (typeof out.updated_at !== 'string' || out.updated_at.trim() === '') {
      out.updated_at = out.created_at
      note(counts, 'missing → created_at (updated_at)')
    }
    const stock = importedStock(out.stock, counts, 'stock')
    if (stock) out.stock = stock
    else if (out.stock === undefined || out.stock === null) {
      out.stock = { qty: 0, is_in_stock: false, stock_status: 0, manage_stock: true, backorders: 0 }
      note(counts, 'missing → out of stock (stock)')
    }
    if (Array.isArray(out.configurable_children)) {
      const parentStock = stock
      out.configurable_children = out.configurable_children.map((c) => {
        if (!isObject(c)) return c
        if (c.stock === undefined || c.stock === null) {
          if (!parentStock) return c
          note(counts, "missing → the parent's stock (configurable_children[].stock)")
          return { ...c, stock: { ...parentStock } }
        }
        const childStock = importedStock(c.stock, counts, 'configurable_children[].stock')
        return childStock ? { ...c, stock: childStock } : c
      })
    }
  }
  if (type === 'category') {
    if (typeof out.url_key !== 'string' && typeof out.slug === 'string') out.url_key = out.slug
    if (typeof out.slug !== 'string' && typeof out.url_key === 'string') out.slug = out.url_key
    if (typeof out.url_path !== 'string' && typeof out.url_key === 'string') out.url_path = out.url_key
    if (typeof out.url_path === 'string') out.url_path = out.url_path.replace(/^\/+|\/+$/g, '')
    // The tree is rebuilt from parent_id; nested children (separate documents in an export) are dropped.
    out.children_data = []
  }
  return out
}

/** Every issue of a failed validation, each as its own message and its grouping kind. */
function issuesOf(
  type: ImportType,
  error: { issues: ReadonlyArray<{ path: readonly PropertyKey[]; message: string }> },
  product: string,
) {
  // A product is named by its SKU in every message; the kind leaves it out, to group like issues.
  const named = type === 'product' ? `product '${product}'` : type
  return error.issues.map((issue) => {
    const at = issue.path.map(String).join('.')
    const folded = issue.path
      .map((k) => (typeof k === 'number' ? '[]' : String(k)))
      .join('.')
      .replace(/\.\[\]/g, '[]')
    const words = issueInWords(issue.message)
    return {
      reason: `invalid ${named}: ${at ? `${at}: ` : ''}${words}`,
      kind: `invalid ${type}: ${folded ? `${folded}: ` : ''}${words}`,
    }
  })
}

/** A record's identity in an import: its type and id (an attribute's attribute_id). */
export function recordKey(entry: ImportDoc): string {
  switch (entry.type) {
    case 'attribute':
      return `attribute:${entry.doc.attribute_id}`
    default:
      return `${entry.type}:${(entry.doc as { id: number }).id}`
  }
}

/** Longest SKU accepted (what carts accept); inner spaces are allowed, control characters are not. */
const MAX_SKU = 128

/** Parses, coerces and validates one export file; `errors` lists every issue of every bad record. */
export function parseImportFile(text: string, file: string, opts: ImportOptions): ParsedImport {
  const records: ImportRecord[] = []
  const errors: ImportError[] = []
  const warnings: ImportWarning[] = []
  const counts: Partial<Record<ImportType, number>> = {}
  const coercions: CoercionCounts = new Map()
  const seen = new Map<string, number>()
  const fallbackType = opts.type === undefined ? null : importType(opts.type)
  if (opts.type !== undefined && !fallbackType) {
    const reason = `unknown --type '${opts.type}' (expected one of ${IMPORT_TYPES.join(', ')})`
    errors.push({ file, line: 0, reason, kind: reason })
    return { file, records, errors, warnings, counts, coercions }
  }
  const raws = parseExport(text)
  let done = 0
  for (const raw of raws) {
    if (opts.onProgress && ++done % 250 === 0) opts.onProgress(done, raws.length)
    const fail = (reason: string, kind = reason) => errors.push({ file, line: raw.line, reason, kind })
    if (raw.error) {
      fail(raw.error, 'malformed JSON')
      continue
    }
    if (!isObject(raw.value)) {
      fail('a record must be a JSON object')
      continue
    }
    if (nestedDeeperThan(raw.value, MAX_RECORD_DEPTH)) {
      fail(`a record may nest objects and arrays at most ${MAX_RECORD_DEPTH} levels deep`)
      continue
    }
    const hit = raw.value
    const isHit = isObject(hit._source)
    // The entity: a known `_type`, else the one the `_index` names, else --type.
    const type = importType(hit._type) ?? typeFromIndex(hit._index) ?? fallbackType
    if (!type) {
      const named =
        hit._type !== undefined && hit._type !== '_doc'
          ? `unsupported entity type '${String(hit._type)}'; `
          : ''
      fail(
        `${named}neither _type nor _index names the entity; pass --type ${IMPORT_TYPES.join('|')}`,
        `${named}entity type unknown (pass --type)`,
      )
      continue
    }
    const source = isHit ? (hit._source as Record<string, unknown>) : hit
    const { _type: _t, _index: _i, _id: _d, _score: _s, ...plain } = source
    const product = productName(plain, isHit ? hit._id : undefined)
    let parsed: ReturnType<(typeof SCHEMAS)[ImportType]['safeParse']>
    const converted: string[] = []
    const recordCounts: CoercionCounts = new Map()
    try {
      let doc = plain
      if (type === 'product') {
        // vue-storefront-api's older product format is converted; what cannot be is refused in words.
        const older = convertOlderProduct(plain)
        for (const [field, why] of older.problems)
          fail(
            `invalid product '${product}': ${field} ${why}`,
            `invalid product: ${field.replace(/\[\d+\]/g, '[]')} ${why}`,
          )
        if (older.problems.length) continue
        doc = older.doc
        converted.push(...older.converted)
      }
      parsed = SCHEMAS[type].safeParse(normalise(type, doc, isHit ? hit._id : undefined, recordCounts))
    } catch (err) {
      // Whatever a record does to the reader, it is an issue of that record, never the end of the run.
      fail(
        `invalid ${type}: could not be read (${String((err as Error)?.message ?? err).slice(0, 200)})`,
        `invalid ${type}: could not be read`,
      )
      continue
    }
    for (const [k, n] of recordCounts) {
      coercions.set(k, (coercions.get(k) ?? 0) + n)
      // '<kind> (<field>)' → '<field>: <kind>'.
      const lossy = LOSSY_KINDS.find((kind) => k.startsWith(`${kind} (`))
      if (lossy) converted.push(`${k.slice(lossy.length + 2, -1)}: ${lossy}`)
    }
    if (!parsed.success) {
      for (const issue of issuesOf(type, parsed.error, product)) fail(issue.reason, issue.kind)
      continue
    }
    for (const message of converted) warnings.push({ file, line: raw.line, product, message })
    const entry = { type, doc: parsed.data } as ImportDoc
    if (entry.type === 'product') {
      const bad = skuProblem(entry.doc.sku)
      const badChild = entry.doc.configurable_children.map((c) => skuProblem(c.sku)).find(Boolean)
      if (bad || badChild) {
        fail(
          `invalid product: sku '${entry.doc.sku}' ${bad ?? `has a variant whose sku ${badChild}`}`,
          `invalid product: sku ${bad ?? badChild}`,
        )
        continue
      }
    }
    const key = recordKey(entry)
    const first = seen.get(key)
    if (first !== undefined) {
      fail(`duplicate ${key.replace(':', ' id ')} (first on line ${first})`, `duplicate ${entry.type} id`)
      continue
    }
    seen.set(key, raw.line)
    records.push({ line: raw.line, entry })
    counts[type] = (counts[type] ?? 0) + 1
  }
  opts.onProgress?.(raws.length, raws.length)
  const ok = errors.length === 0
  return { file, records: ok ? records : [], errors, warnings, counts: ok ? counts : {}, coercions }
}

/** Why a SKU cannot be sold through the cart (empty, too long, control characters), or null. */
function skuProblem(sku: string): string | null {
  if (sku.length === 0) return 'is empty'
  if (sku.length > MAX_SKU) return `is longer than ${MAX_SKU} characters`
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\u0000-\u001f\u007f]/.test(sku)) return 'contains control characters'
  return null
}
