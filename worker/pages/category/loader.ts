/**
 * Category page data (listing constants in shared/config/catalog), through
 * the Commerce port only. Critical: the category and its first page (24) with aggregations; the
 * listing island gets the same query parameters so it can refetch / pull more with the same DSL.
 */

import { type FacetLabels, type FilterGroup, knownChoices } from '@shared/components/catalog/facets'
import { type ListingIslandProps, listingParams } from '@shared/components/catalog/listing-query'
import { hasFilters, type ListingState } from '@shared/components/catalog/listing-state'
import { listingTileContext } from '@shared/components/catalog/tile-data'
import { DEFAULT_FILTERS, PAGE_SIZE } from '@shared/config/catalog'
import { type Breadcrumb, breadcrumbs, descendantIds } from '@shared/domain/menu'
import type { Attribute, Category } from '@shared/schemas/catalog'
import type { Context } from 'hono'
import { type Commerce, getCommerce } from '../../commerce'
import { derivedFrom } from '../../commerce/derived'
import { markDegraded } from '../../platform/cache/output-cache'
import type { AppEnv } from '../../platform/env'
import type { KeptMarkup } from '../../platform/render/kept-bytes'
import { gridFilters, gridTiles } from '../layout/grid-tiles'
import { pagePricing, pageRules } from '../layout/pricing'

interface CategoryPageData {
  category: Category
  title: string
  description: string | null
  crumbs: Breadcrumb[]
  listing: ListingIslandProps
  /** The filter panel's content for `listing.groups` and its state, as the island renders it. */
  filterPanel: KeptMarkup
}

/** Finds the chain of categories from the tree's top down to `id` (empty when absent). */
export function categoryChain(tree: readonly Category[], id: number): Category[] {
  for (const cat of tree) {
    if (cat.id === id) return [cat]
    const below = categoryChain(cat.children_data ?? [], id)
    if (below.length) return [cat, ...below]
  }
  return []
}

/** Filter labels: attribute titles and option labels, and the descendant categories' names. */
export async function facetLabels(
  commerce: Commerce,
  category: Pick<Category, 'children_data'>,
): Promise<FacetLabels> {
  const codes = DEFAULT_FILTERS.filter((f) => f !== 'price' && f !== 'category')
  const attributes = await commerce.getAttributes([...codes])
  // Built once per (memoised) attributes and category object: both move with the reference data.
  const byCategory = derivedFrom(attributes, 'facet labels', () => new WeakMap<object, FacetLabels>())
  let labels = byCategory.get(category)
  if (!labels) {
    labels = buildFacetLabels(attributes, category)
    byCategory.set(category, labels)
  }
  return labels
}

function buildFacetLabels(attributes: Attribute[], category: Pick<Category, 'children_data'>): FacetLabels {
  const labels: FacetLabels = { titles: {}, options: {} }
  for (const a of attributes) {
    labels.titles[a.attribute_code] = a.frontend_label || a.default_frontend_label
    labels.options[a.attribute_code] = Object.fromEntries(
      a.options.filter((o) => o.value !== '').map((o) => [String(o.value), o.label]),
    )
  }
  const cats: Record<string, string> = {}
  const walk = (cat: Pick<Category, 'children_data'>) => {
    for (const ch of cat.children_data ?? []) {
      if (ch.is_active !== false) cats[String(ch.id)] = ch.name
      walk(ch)
    }
  }
  walk(category)
  labels.options.category = cats
  return labels
}

/** Loads everything the category page renders; `now` drives the price rules. */
export async function loadCategoryPage(
  c: Context<AppEnv>,
  category: Category,
  state: ListingState,
  now: number,
): Promise<CategoryPageData> {
  const commerce = getCommerce(c)
  const currency = c.var.store.currency
  const categoryIds = descendantIds(category)
  const labelsRead = facetLabels(commerce, category)
  // A URL naming filter values is searched with only the values a filter offers, so results and
  // filters agree. Values no filter offers (a stale link, or made up) never reach the search: each
  // spelling of them would be a search statement of its own, not one the isolate holds (at 10,029
  // products 20 to 140 ms each, against a held page's few). The labels are memoised, so waiting
  // for them first costs a round trip only in a cold isolate; a page without filters does not wait.
  // Without filters the search starts now, so its read joins this turn's round trip.
  const search = (s: ListingState) => commerce.searchProducts(listingParams(categoryIds, s, 0, PAGE_SIZE))
  const shownRead = hasFilters(state) ? labelsRead.then((l) => knownChoices(state, l)) : state
  const [listing, labels, tree, pricing, shown] = await Promise.all([
    shownRead instanceof Promise ? shownRead.then(search) : search(shownRead),
    labelsRead,
    commerce.getCategoryTree().catch(() => {
      markDegraded(c)
      return [] as Category[]
    }),
    pagePricing(c),
    shownRead,
  ])
  const chain = categoryChain(tree, category.id)
  const crumbs = breadcrumbs(chain.length ? chain : [category])
  const tiles = gridTiles(listing.items, now, pricing, listingTileContext(shown, labels), currency)
  // Frozen groups and the filter panel's markup (layout/grid-tiles.tsx); the browser gets their JSON.
  const filters = gridFilters(listing.aggregations, labels, currency, shown)
  return {
    category,
    title: category.meta_title || category.name,
    description: category.meta_description || null,
    crumbs,
    filterPanel: filters.panel,
    listing: {
      categoryId: category.id,
      categoryIds,
      currency,
      state: shown,
      tiles,
      total: listing.total,
      loaded: listing.items.length,
      groups: filters.groups as FilterGroup[],
      labels,
      pricing: {
        country: pricing.country ?? c.var.store.country,
        taxRules: pageRules(pricing.taxRules, pricing.country ?? c.var.store.country),
      },
    },
  }
}
