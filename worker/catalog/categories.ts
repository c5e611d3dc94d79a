/**
 * Categories from D1. Documents are stored without children_data; the tree is rebuilt from
 * parent_id and position (at most 4000 categories, sorted by position ascending).
 */

import { ROOT_CATEGORY_ID } from '@shared/config'
import type { Category } from '@shared/schemas/catalog'
import { parseDoc } from './db'

interface CategoryRow {
  id: number
  parent_id: number
  position: number
  doc: string
}

/** Every category document (without children), ordered by position then id. */
export async function getAllCategories(db: D1Database): Promise<Category[]> {
  const res = await db
    .prepare('SELECT id, parent_id, position, doc FROM categories ORDER BY position ASC, id ASC')
    .all<CategoryRow>()
  return res.results.map((r) => ({ ...parseDoc<Category>(r.doc), children_data: [] }))
}

/** The active categories only (what the storefront shows: VSF queries `is_active: true`). */
async function activeCategories(db: D1Database): Promise<Category[]> {
  return (await getAllCategories(db)).filter((c) => c.is_active !== false)
}

/** Builds children_data (recursively, ordered by position) for every category; returns them by id. */
export function buildTree(categories: readonly Category[]): Map<number, Category> {
  const byId = new Map<number, Category>()
  for (const c of categories) byId.set(c.id, { ...c, children_data: [] })
  for (const c of byId.values()) {
    const parent = byId.get(c.parent_id)
    if (parent && parent.id !== c.id) parent.children_data.push(c)
  }
  for (const c of byId.values()) {
    c.children_data.sort((a, b) => a.position - b.position || a.id - b.id)
    c.children_count = c.children_data.length
  }
  return byId
}

/** The category tree under the root (id 2): the root's direct children, each with children_data. */
export async function getCategoryTree(db: D1Database, rootId = ROOT_CATEGORY_ID): Promise<Category[]> {
  const tree = buildTree(await activeCategories(db))
  return tree.get(rootId)?.children_data ?? []
}

async function oneWithChildren(
  db: D1Database,
  where: 'id' | 'slug' | 'url_path',
  value: string | number,
): Promise<Category | null> {
  // One round trip: every category, flagged where the lookup matches an active row.
  const res = await db
    .prepare(
      `SELECT id, parent_id, position, doc, (${where} = ?1 AND is_active = 1) AS hit FROM categories ORDER BY position ASC, id ASC`,
    )
    .bind(value)
    .all<CategoryRow & { hit: number }>()
  let id: number | null = null
  for (const r of res.results) if (r.hit === 1 && (id === null || r.id < id)) id = r.id
  if (id === null) return null
  const active = res.results
    .map((r) => ({ ...parseDoc<Category>(r.doc), children_data: [] }) as Category)
    .filter((c) => c.is_active !== false)
  return buildTree(active).get(id) ?? null
}

/** One category (with its subtree) by id; null when absent. */
export function getCategoryById(db: D1Database, id: number): Promise<Category | null> {
  return oneWithChildren(db, 'id', id)
}

/** One category (with its subtree) by slug; null when absent. */
export function getCategoryBySlug(db: D1Database, slug: string): Promise<Category | null> {
  return oneWithChildren(db, 'slug', slug)
}

/** One category (with its subtree) by exact url_path (slashes at either end ignored). */
export function getCategoryByUrlPath(db: D1Database, urlPath: string): Promise<Category | null> {
  return oneWithChildren(db, 'url_path', urlPath.replace(/^\/+|\/+$/g, ''))
}
