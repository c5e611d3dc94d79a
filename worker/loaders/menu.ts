/**
 * The header menu (catalogue §2): B's shared/domain/menu `buildMenu` (include_in_menu and
 * products or children; ordered by mp_new_attribute, missing = 100000) over the Commerce port's
 * category tree, cached per isolate and store for 60 s. Importing this module installs the menu
 * loader into the default layout (setMenuLoader).
 */
import type { Context } from 'hono'
import { buildMenu } from '../../shared/domain/menu'
import type { Category } from '../../shared/schemas/catalog'
import type { AppEnv } from '../env'
import { getCommerce } from './commerce'
import { setMenuLoader } from './layout'

/** How long an isolate reuses the category tree. */
export const TREE_TTL_MS = 60_000

const treeCache = new Map<string, { at: number; tree: Promise<Category[]> }>()

/** The category tree (children of the root), cached per isolate and store for 60 s. */
export function getCategoryTreeCached(c: Context<AppEnv>, now: number = Date.now()): Promise<Category[]> {
  const key = `${c.var.store.storeCode}|${c.var.config.API_UPSTREAM}`
  const hit = treeCache.get(key)
  if (hit && now - hit.at < TREE_TTL_MS) return hit.tree
  const tree = getCommerce(c).getCategoryTree()
  treeCache.set(key, { at: now, tree })
  // A failed load must not be cached.
  tree.catch(() => {
    if (treeCache.get(key)?.tree === tree) treeCache.delete(key)
  })
  return tree
}

/** Drops the cached tree (tests, invalidation). */
export function clearMenuCache(): void {
  treeCache.clear()
}

setMenuLoader(async (c) => buildMenu(await getCategoryTreeCached(c)))
