/**
 * Import transform and validation (pure): export records → typed catalogue documents, validated
 * with the shared schemas, plus the URL mappings they imply. Nothing is written here; the caller
 * writes a file's statements only when the whole file is valid (one transaction per file).
 */
import type { z } from 'zod'
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
import { describeIssues } from '../../../worker/platform/http'
import { parseExport } from './parse'

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
  reason: string
}

interface ParsedImport {
  file: string
  records: ImportRecord[]
  errors: ImportError[]
  counts: Partial<Record<ImportType, number>>
}

interface ImportOptions {
  /** Entity type for records that carry no `_type` (plain documents). */
  type?: string
  /** Fallback created_at/updated_at for products without them ('YYYY-MM-DD HH:MM:SS'). */
  now: string
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

/** Type aliases seen in exports. */
const TYPE_ALIASES: Record<string, ImportType> = {
  product: 'product',
  category: 'category',
  attribute: 'attribute',
  taxrule: 'taxrule',
  tax_rule: 'taxrule',
  cms_page: 'cms_page',
  cmspage: 'cms_page',
  cms_block: 'cms_block',
  cmsblock: 'cms_block',
  review: 'review',
}

/** Resolves a `_type`/--type name, or null when unsupported. */
function importType(name: unknown): ImportType | null {
  return typeof name === 'string' ? (TYPE_ALIASES[name.trim().toLowerCase()] ?? null) : null
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/** Fills the fields VSF exports commonly omit but the storefront needs (before validation). */
function normalise(
  type: ImportType,
  doc: Record<string, unknown>,
  id: unknown,
  now: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...doc }
  if (out.id === undefined && id !== undefined && type !== 'attribute') {
    const n = Number(id)
    out.id = Number.isFinite(n) ? n : id
  }
  if (type === 'product') {
    if (typeof out.slug !== 'string' && typeof out.url_key === 'string') out.slug = out.url_key
    if (typeof out.url_key !== 'string' && typeof out.slug === 'string') out.url_key = out.slug
    if (typeof out.url_path !== 'string' && typeof out.url_key === 'string') out.url_path = out.url_key
    if (typeof out.url_path === 'string') out.url_path = out.url_path.replace(/^\/+|\/+$/g, '')
    if (typeof out.created_at !== 'string') out.created_at = now
    if (typeof out.updated_at !== 'string') out.updated_at = out.created_at
    if (!isObject(out.stock)) out.stock = { qty: 0, is_in_stock: false }
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

function keyOf(entry: ImportDoc): string {
  switch (entry.type) {
    case 'attribute':
      return `attribute:${entry.doc.attribute_id}`
    default:
      return `${entry.type}:${(entry.doc as { id: number }).id}`
  }
}

/** Parses and validates one export file; `errors` lists every bad record (file, line, reason). */
export function parseImportFile(text: string, file: string, opts: ImportOptions): ParsedImport {
  const records: ImportRecord[] = []
  const errors: ImportError[] = []
  const counts: Partial<Record<ImportType, number>> = {}
  const seen = new Map<string, number>()
  const fallbackType = opts.type === undefined ? null : importType(opts.type)
  if (opts.type !== undefined && !fallbackType) {
    errors.push({
      file,
      line: 0,
      reason: `unknown --type '${opts.type}' (expected one of ${IMPORT_TYPES.join(', ')})`,
    })
    return { file, records, errors, counts }
  }
  const raws = parseExport(text)
  let done = 0
  for (const raw of raws) {
    if (opts.onProgress && ++done % 250 === 0) opts.onProgress(done, raws.length)
    const fail = (reason: string) => errors.push({ file, line: raw.line, reason })
    if (raw.error) {
      fail(raw.error)
      continue
    }
    if (!isObject(raw.value)) {
      fail('a record must be a JSON object')
      continue
    }
    const hit = raw.value
    const isHit = isObject(hit._source)
    const typeName = isHit ? (hit._type ?? opts.type) : (hit._type ?? opts.type)
    const type = isHit || hit._type !== undefined ? importType(typeName) : fallbackType
    if (!type) {
      fail(
        typeName === undefined
          ? 'record has no _type; pass --type product|category|attribute|taxrule|cms_page|cms_block|review'
          : `unsupported entity type '${String(typeName)}'`,
      )
      continue
    }
    const source = isHit ? (hit._source as Record<string, unknown>) : hit
    const { _type: _t, _index: _i, _id: _d, _score: _s, ...plain } = source
    const parsed = SCHEMAS[type].safeParse(normalise(type, plain, isHit ? hit._id : undefined, opts.now))
    if (!parsed.success) {
      fail(`invalid ${type}: ${describeIssues(parsed.error)}`)
      continue
    }
    const entry = { type, doc: parsed.data } as ImportDoc
    if (entry.type === 'product' && !/^[^\s]{1,128}$/.test(entry.doc.sku)) {
      fail(`invalid product: sku '${entry.doc.sku}' must be 1-128 characters without spaces`)
      continue
    }
    const key = keyOf(entry)
    const first = seen.get(key)
    if (first !== undefined) {
      fail(`duplicate ${key.replace(':', ' id ')} (first on line ${first})`)
      continue
    }
    seen.set(key, raw.line)
    records.push({ line: raw.line, entry })
    counts[type] = (counts[type] ?? 0) + 1
  }
  opts.onProgress?.(raws.length, raws.length)
  return { file, records: errors.length ? [] : records, errors, counts: errors.length ? {} : counts }
}
