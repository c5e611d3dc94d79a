/**
 * Categories from the back office: created, renamed, moved under another parent and ordered among
 * their siblings. The rules:
 * - A category's address is its parent's address and its URL key (a top-level category's is its
 *   key alone); its slug is its URL key, one per category.
 * - Moving a category moves its whole branch: each category of it gets its new level, path and
 *   address; each old address answers with a permanent redirect to the new one. A category cannot
 *   be moved under itself or under one of its own subcategories (that would cut the branch off
 *   the tree), nor under the tree's root parent.
 * - Order is the menu's: among siblings, "up" and "down" swap a category with its neighbour and
 *   number the siblings 1, 2, 3… (position and menu order alike).
 * - Every change is written through the catalogue's one writer with the catalogue version moved
 *   on in the same batch (every memoised category read is stale at once), the dispatcher's mapping
 *   follows, and every cached shop page is purged: each shows the menu.
 */
import { ROOT_CATEGORY_ID } from '@shared/config'
import type { Category } from '@shared/schemas/catalog'
import { HTTPException } from 'hono/http-exception'
import { z } from 'zod'
import { getAllCategories } from '../catalog/categories'
import { categoryMapping, urlMappingKey } from '../catalog/url-map'
import { categoryCountStatement, categoryStatement } from '../catalog/writer'
import { purgeCacheTags, purgedCount } from '../platform/cache/purge'
import { fail } from '../platform/http'
import { bumpIndexVersionStatement } from '../search'
import { auditStatement } from './audit'
import { requiredText } from './input'

/** Refused beside the field it concerns when the post came from a form (./replies.ts). */
function refuse(field: string, message: string, status: 400 | 409 = 400): never {
  throw new HTTPException(status, {
    message: `Invalid category: ${message}`,
    cause: { fields: { [field]: message } },
  })
}

const parentId = z.coerce.number({ error: 'choose a parent' }).int().positive('choose a parent')
export const CategorySaveSchema = z.object({
  name: requiredText('name', 100, 'name is too long (at most 100 characters)'),
  parent_id: parentId,
  url_key: z
    .string()
    .trim()
    .toLowerCase()
    .max(80, 'url_key is too long (at most 80 characters)')
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'url_key: lower-case letters, digits and single hyphens')
    .optional(),
  include_in_menu: z.enum(['on', 'true', 'false', '1', '0']).optional(),
})
export const CategoryOrderSchema = z.object({
  direction: z.enum(['up', 'down'], { error: 'direction must be up or down' }),
})

/** Every shop page carries one of these tags; each shows the menu. */
export const EVERY_PAGE = ['home', 'category', 'product', 'search', 'cms']

const keyOf = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')

/** The categories an operator manages (below the root), in tree order: each after its parent. */
export async function categoryTree(db: D1Database): Promise<Category[]> {
  const all = await getAllCategories(db)
  const out: Category[] = []
  const walk = (parent: number) => {
    for (const c of siblingsOf(all, parent)) {
      out.push(c)
      walk(c.id)
    }
  }
  walk(ROOT_CATEGORY_ID)
  return out
}

/** The children of `parent` in the menu's order (menu order, then position, then id). */
function siblingsOf(all: Category[], parent: number): Category[] {
  const order = (c: Category) => c.mp_new_attribute ?? 100_000
  return all
    .filter((c) => c.parent_id === parent && c.id !== parent)
    .sort((a, b) => order(a) - order(b) || a.position - b.position || a.id - b.id)
}

/** `c` placed under `parent` (its level, path and address follow). */
function placed(c: Category, parent: Category): Category {
  const top = parent.id === ROOT_CATEGORY_ID
  const url_path = top ? c.url_key : `${parent.url_path}/${c.url_key}`
  return {
    ...c,
    parent_id: parent.id,
    level: parent.level + 1,
    path: `${parent.path}/${c.id}`,
    url_path,
    route_link: `/${url_path}`,
  }
}

/** Writes changed categories: rows, counts, catalogue version and audit in one batch; mapping; purge. */
async function store(
  env: Env,
  changed: { before: Category | null; after: Category }[],
  audit: { actor: string; action: string; now: number },
) {
  const db = env.DB
  const first = changed[0] as { before: Category | null; after: Category }
  await db.batch([
    ...changed.map((c) => categoryStatement(db, c.after)),
    categoryCountStatement(
      db,
      changed.map((c) => c.after.id),
    ),
    bumpIndexVersionStatement(db),
    auditStatement(
      db,
      {
        actor: audit.actor,
        action: audit.action,
        target: `category:${first.after.id}`,
        before: first.before
          ? { name: first.before.name, parent_id: first.before.parent_id, url_path: first.before.url_path }
          : null,
        after: { name: first.after.name, parent_id: first.after.parent_id, url_path: first.after.url_path },
      },
      audit.now,
    ),
  ])
  for (const { before, after } of changed) {
    const [key, mapping] = categoryMapping(after)
    await env.URL_MAPPINGS.put(key, JSON.stringify(mapping))
    const old = before ? urlMappingKey(before.url_path) : null
    // The old address of a moved category sends its visitors (and search engines) to the new one.
    if (old && old !== key)
      await env.URL_MAPPINGS.put(old, JSON.stringify({ type: 'redirect', to: `/${key}`, status: 301 }), {
        metadata: { type: 'redirect' },
      })
  }
  return purgedCount(await purgeCacheTags(env, [...EVERY_PAGE, ...changed.map((c) => `C${c.after.id}`)]))
}

/** Creates (id null) or renames / moves a category; answers its id and address. */
export async function saveCategory(
  env: Env,
  id: number | null,
  input: z.infer<typeof CategorySaveSchema>,
  actor: string,
  now: number,
) {
  const all = await getAllCategories(env.DB)
  const byId = new Map(all.map((c) => [c.id, c]))
  const before = id === null ? null : byId.get(id)
  if (id !== null && !before) fail(404, `Category ${id} does not exist.`)
  const parent = byId.get(input.parent_id)
  if (!parent || parent.level < 1) refuse('parent_id', 'choose a parent from the list')
  // The branch of the category: itself and every category below it.
  const branch = new Set<number>()
  if (before) {
    const add = (c: number) => {
      branch.add(c)
      for (const k of all) if (k.parent_id === c && k.id !== c) add(k.id)
    }
    add(before.id)
    if (branch.has(parent.id))
      refuse(
        'parent_id',
        parent.id === before.id
          ? `${before.name} cannot be moved under itself`
          : `${before.name} cannot be moved under ${parent.name}, one of its own subcategories`,
      )
  }
  const urlKey = input.url_key ?? before?.url_key ?? keyOf(input.name)
  if (!urlKey) refuse('url_key', 'type a URL key (the name gives none)')
  const taken = all.find((c) => c.slug === urlKey && c.id !== before?.id)
  if (taken) refuse('url_key', `the URL key ${urlKey} is already the category ${taken.name}'s`)
  const newId = before?.id ?? Math.max(ROOT_CATEGORY_ID, ...all.map((c) => c.id)) + 1
  const last = siblingsOf(all, parent.id).length + 1
  const base: Category = before
    ? { ...before }
    : {
        id: newId,
        name: input.name,
        slug: urlKey,
        url_key: urlKey,
        url_path: urlKey,
        parent_id: parent.id,
        level: parent.level + 1,
        path: `${parent.path}/${newId}`,
        position: last,
        mp_new_attribute: last,
        children_data: [],
        children_count: 0,
        product_count: 0,
        is_active: true,
        include_in_menu: 1,
        display_name: input.name,
      }
  const moved = !before || before.parent_id !== parent.id
  const self = placed(
    {
      ...base,
      name: input.name,
      display_name: input.name,
      url_key: urlKey,
      slug: urlKey,
      include_in_menu:
        input.include_in_menu === undefined
          ? base.include_in_menu
          : /^(on|true|1)$/.test(input.include_in_menu)
            ? 1
            : 0,
      ...(before && moved ? { position: last, mp_new_attribute: last } : {}),
    },
    parent,
  )
  const address = urlMappingKey(self.url_path)
  const mapped = await env.URL_MAPPINGS.get<{ type: string; id?: number }>(address, 'json')
  if (
    mapped &&
    !(mapped.type === 'category' && mapped.id === self.id) &&
    address !== urlMappingKey(before?.url_path ?? '')
  )
    refuse('url_key', `the address /${address} is already taken`)
  // The branch below follows its moved or re-keyed top: new levels, paths and addresses.
  const changed = [{ before: before ?? null, after: self }]
  const placedById = new Map([[self.id, self]])
  const follow = (c: Category) => {
    for (const k of all.filter((x) => x.parent_id === c.id && x.id !== c.id)) {
      const next = placed(k, placedById.get(c.id) as Category)
      placedById.set(k.id, next)
      changed.push({ before: k, after: next })
      follow(k)
    }
  }
  if (before && self.url_path !== before.url_path) follow(before)
  const purged = await store(env, changed, {
    actor,
    action: before ? 'category.edit' : 'category.create',
    now,
  })
  return { id: self.id, url_path: self.url_path, moved: changed.length, purged }
}

/** Moves a category one place up or down among its siblings (the menu's order). */
export async function orderCategory(
  env: Env,
  id: number,
  direction: 'up' | 'down',
  actor: string,
  now: number,
) {
  const all = await getAllCategories(env.DB)
  const self = all.find((c) => c.id === id) ?? fail(404, `Category ${id} does not exist.`)
  const siblings = siblingsOf(all, self.parent_id)
  const at = siblings.findIndex((c) => c.id === id)
  const to = direction === 'up' ? at - 1 : at + 1
  if (to < 0 || to >= siblings.length)
    fail(409, `${self.name} is already ${direction === 'up' ? 'first' : 'last'} among its siblings`)
  ;[siblings[at], siblings[to]] = [siblings[to] as Category, siblings[at] as Category]
  const changed = siblings
    .map((c, i) => ({ before: c, after: { ...c, position: i + 1, mp_new_attribute: i + 1 } }))
    .filter(
      (c) => c.before.position !== c.after.position || c.before.mp_new_attribute !== c.after.mp_new_attribute,
    )
  // The moved one first: its audit row names it.
  changed.sort((a, b) => (a.after.id === id ? -1 : b.after.id === id ? 1 : 0))
  const purged = await store(env, changed, { actor, action: 'category.order', now })
  return { id, position: to + 1, purged }
}
