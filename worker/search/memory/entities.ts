/**
 * The small entity types (categories, attributes, tax rules, reviews, CMS): their documents are
 * loaded whole and searched in memory with the same semantics as products.
 */
import { REVIEW_STATUS_APPROVED } from '@shared/config'
import type { Category } from '@shared/schemas/catalog'
import { buildTree, getAllCategories } from '../../catalog/categories'
import type { QueryNode, Scalar, SearchPlan } from '../dsl'

/** Entity types the catalogue endpoint serves (vue-storefront-api's registered entity types). */
export const ENTITY_TYPES = [
  'product',
  'category',
  'attribute',
  'taxrule',
  'review',
  'cms_block',
  'cms_page',
] as const
type EntityType = (typeof ENTITY_TYPES)[number]

const ENTITY_TABLES: Record<Exclude<EntityType, 'product' | 'category'>, string> = {
  attribute: 'SELECT doc FROM attributes ORDER BY attribute_id',
  taxrule: 'SELECT doc FROM tax_rules ORDER BY id',
  // The public review search sees approved reviews only (pending and rejected ones stay private).
  review: `SELECT doc FROM reviews WHERE review_status = ${REVIEW_STATUS_APPROVED} ORDER BY id`,
  cms_block: 'SELECT doc FROM cms_blocks ORDER BY id',
  cms_page: 'SELECT doc FROM cms_pages ORDER BY id',
}

/** Loads every document of a small entity type (categories get their children_data tree). */
export async function loadEntityDocs(
  db: D1Database,
  type: Exclude<EntityType, 'product'>,
  plan?: SearchPlan,
): Promise<Record<string, unknown>[]> {
  if (type === 'category') {
    const all: Category[] = await getAllCategories(db)
    const tree = buildTree(all)
    return all.map((c) => (tree.get(c.id) ?? c) as unknown as Record<string, unknown>)
  }
  const productIds = type === 'review' && plan ? requiredValues(plan.query, 'product_id') : null
  const { results } = productIds
    ? // Reviews are read per product: pre-select the candidates (the plan still decides).
      await db
        .prepare(
          'SELECT doc FROM reviews WHERE product_id IN (SELECT value FROM json_each(?1)) AND review_status = ?2 ORDER BY id',
        )
        .bind(
          JSON.stringify(productIds.map((v) => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v))),
          REVIEW_STATUS_APPROVED,
        )
        .all<{ doc: string }>()
    : await db.prepare(ENTITY_TABLES[type]).all<{ doc: string }>()
  const docs = results.map((r) => JSON.parse(r.doc) as Record<string, unknown>)
  return type === 'review' ? docs.map(publicReview) : docs
}

/** Keys that identify a review's author (ids, e-mails): never searchable nor returned publicly. */
const PRIVATE_REVIEW_KEY = /customer|e-?mail/i

/**
 * A review as the public sees it: without the author's customer id, e-mail or other customer
 * fields, at any depth. They are removed before the query runs, so no query can test them either.
 */
function publicReview(doc: Record<string, unknown>): Record<string, unknown> {
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip)
    if (v === null || typeof v !== 'object') return v
    const out: Record<string, unknown> = {}
    for (const [k, child] of Object.entries(v as Record<string, unknown>))
      if (!PRIVATE_REVIEW_KEY.test(k)) out[k] = strip(child)
    return out
  }
  return strip(doc) as Record<string, unknown>
}

/** Values `field` must take for `node` to match (from terms in must/filter chains), or null if unconstrained. */
function requiredValues(node: QueryNode, field: string): Scalar[] | null {
  if (node.kind === 'terms' && node.field === field) return node.values
  if (node.kind === 'function_score') return requiredValues(node.query, field)
  if (node.kind === 'bool') {
    for (const child of [...node.filter, ...node.must]) {
      const v = requiredValues(child, field)
      if (v) return v
    }
  }
  return null
}

export function isEntityType(t: string): t is EntityType {
  return (ENTITY_TYPES as readonly string[]).includes(t)
}
