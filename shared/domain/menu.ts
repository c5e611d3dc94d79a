/**
 * Header menu and breadcrumbs of the category page, plus category/product URLs.
 * With the URL dispatcher on (it is) category and product links are `/{url_path}`; configurable
 * variants add `?childSku=` (what worker/platform/dispatcher reads).
 */
import { DEFAULT_CATEGORY_NAME } from '../config/catalog'
import { FLAGS } from '../config/flags'
import { categoryPath, productPath } from '../config/links'

/** Identical to client/islands/layout/header.tsx `MenuItem` (structural typing; shared may not import client). */
interface MenuItem {
  id: number
  name: string
  url: string
  children: MenuItem[]
}

export interface MenuCategory {
  id: number
  name: string
  slug: string
  url_path?: string | null
  is_active?: boolean | null
  include_in_menu?: boolean | number | string | null
  product_count?: number | null
  children_count?: number | null
  children_data?: readonly MenuCategory[] | null
  mp_new_attribute?: number | null
  position?: number | null
}

/** "ordered by mp_new_attribute, and a missing value counts as 100000" */
const MENU_ORDER_MISSING = 100_000

function isSet(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 'true'
}

/** `/{url_path}` with the URL dispatcher on (else `/c/{slug}`); url_path is used as stored, without leading '/'. */
export function categoryUrl(
  category: { slug: string; url_path?: string | null },
  useUrlDispatcher: boolean = FLAGS.useUrlDispatcher,
): string {
  const urlPath = category.url_path?.replace(/^\/+/, '')
  return useUrlDispatcher && urlPath ? `/${urlPath}` : categoryPath(category.slug)
}

/** A product link: `/{url_path}[?childSku=]` with the URL dispatcher on, else `/p/{parentSku}/{slug}/{childSku?}`. */
export function productUrl(
  product: {
    sku: string
    slug: string
    url_path?: string | null
    parentSku?: string | null
    parent_sku?: string | null
  },
  childSku?: string | null,
  useUrlDispatcher: boolean = FLAGS.useUrlDispatcher,
): string {
  const parentSku = product.parentSku ?? product.parent_sku ?? product.sku
  const urlPath = product.url_path?.replace(/^\/+/, '')
  const child = childSku && childSku !== parentSku ? childSku : null
  if (useUrlDispatcher && urlPath)
    return child ? `/${urlPath}?childSku=${encodeURIComponent(child)}` : `/${urlPath}`
  return productPath(parentSku, product.slug, child)
}

/** Shown in the menu: include_in_menu set, not inactive, and it has products or children. */
export function isMenuCategory(category: MenuCategory): boolean {
  if (!isSet(category.include_in_menu) || category.is_active === false) return false
  return (
    (category.product_count ?? 0) > 0 ||
    (category.children_data?.length ?? 0) > 0 ||
    (category.children_count ?? 0) > 0
  )
}

/** Sort key: mp_new_attribute, missing = 100000. */
function menuOrder(category: MenuCategory): number {
  return category.mp_new_attribute ?? MENU_ORDER_MISSING
}

/** The header menu: visible categories (recursively) ordered by mp_new_attribute (stable, then position). */
export function buildMenu(
  categories: readonly MenuCategory[] | null | undefined,
  useUrlDispatcher: boolean = FLAGS.useUrlDispatcher,
): MenuItem[] {
  return (categories ?? [])
    .map((category, index) => ({ category, index }))
    .filter(({ category }) => isMenuCategory(category))
    .sort(
      (a, b) =>
        menuOrder(a.category) - menuOrder(b.category) ||
        (a.category.position ?? 0) - (b.category.position ?? 0) ||
        a.index - b.index,
    )
    .map(({ category }) => ({
      id: category.id,
      name: category.name,
      url: categoryUrl(category, useUrlDispatcher),
      children: buildMenu(category.children_data, useUrlDispatcher),
    }))
}

export interface Breadcrumb {
  label: string
  /** null for the active (last) crumb, which is plain text. */
  href: string | null
}

interface CrumbCategory {
  id?: number
  name: string
  slug: string
  url_path?: string | null
  level?: number | null
}

/**
 * Breadcrumbs from a root-to-current category trail: 'Default Category' shown as 'Home' linking to /
 * (Home is added when the trail lacks it), level-0 roots skipped, then each category; the last crumb —
 * or `activeLabel` (e.g. the product name) appended after the trail — is plain text.
 */
export function breadcrumbs(
  trail: readonly CrumbCategory[],
  activeLabel?: string | null,
  useUrlDispatcher: boolean = FLAGS.useUrlDispatcher,
): Breadcrumb[] {
  const crumbs: Breadcrumb[] = [{ label: 'Home', href: '/' }]
  for (const category of trail) {
    if (category.level === 0) continue
    if (category.name === DEFAULT_CATEGORY_NAME) continue
    crumbs.push({ label: category.name, href: categoryUrl(category, useUrlDispatcher) })
  }
  if (activeLabel) crumbs.push({ label: activeLabel, href: null })
  const last = crumbs[crumbs.length - 1]
  if (last && crumbs.length > 1) last.href = null
  return crumbs
}

/** The root-to-category trail from a category's `path` ('1/2/20/21') and an id lookup; unknown ids are skipped. */
export function categoryTrail<C>(
  path: string | null | undefined,
  lookup: (id: number) => C | null | undefined,
): C[] {
  const trail: C[] = []
  for (const part of (path ?? '').split('/')) {
    const id = Number(part)
    if (!part || !Number.isInteger(id)) continue
    const found = lookup(id)
    if (found) trail.push(found)
  }
  return trail
}

/** Every id of a category and its descendants (for the listing's category_ids filter). */
export function descendantIds(category: {
  id: number
  children_data?: readonly { id: number; children_data?: unknown }[] | null
}): number[] {
  const ids: number[] = [category.id]
  for (const child of category.children_data ?? []) {
    ids.push(...descendantIds(child as { id: number; children_data?: readonly { id: number }[] | null }))
  }
  return ids
}
