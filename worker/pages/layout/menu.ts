/**
 * The header menu (catalogue §2): `buildMenu` (include_in_menu and
 * products or children; ordered by mp_new_attribute, missing = 100000) over the Commerce port's
 * category tree, cached per isolate and store for 60 s. Importing this module installs the menu
 * loader into the default layout (setMenuLoader).
 */
import type { Context } from 'hono'
import { buildMenu } from '../../../shared/domain/menu'
import type { Category } from '../../../shared/schemas/catalog'
import { getCommerce } from '../../commerce'
import type { AppEnv } from '../../platform/env'
import { createMemo } from '../../platform/memo'
import { setMenuLoader } from './loader'

/** How long an isolate reuses the category tree. */
export const TREE_TTL_MS = 60_000

const treeCache = createMemo<Category[]>({ name: 'category tree', ttlMs: TREE_TTL_MS, maxEntries: 16 })

/** The category tree (children of the root), cached per isolate and store for 60 s. */
export function getCategoryTreeCached(c: Context<AppEnv>, now: number = Date.now()): Promise<Category[]> {
  const key = `${c.var.store.storeCode}|${c.var.config.API_UPSTREAM}`
  return treeCache.get(key, () => getCommerce(c).getCategoryTree(), now)
}

/** Drops the cached tree (tests, invalidation). */
export function clearMenuCache(): void {
  treeCache.clear()
}

setMenuLoader(async (c) => buildMenu(await getCategoryTreeCached(c)))
