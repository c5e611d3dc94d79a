/**
 * The filter panel's groups (the configured default filters) from a listing's aggregations, via
 * shared/domain filtersFromAggregations (merging agg_terms_<attr> and _options, 'min-max' price
 * ids), plus display titles and colour swatches. Used by the SSR page and the island alike.
 */
import { DEFAULT_FILTERS } from '../../config/catalog'
import { colorSwatch } from '../../config/content'
import {
  type Aggregations,
  filtersFromAggregations,
  type ListingState,
  PRICE_ATTRIBUTE,
} from '../../domain/filters'

export type AggregationMap = Aggregations

interface FilterOption {
  id: string
  label: string
  count: number
  /** CSS colour for colour swatches. */
  swatch?: string | null
}

export interface FilterGroup {
  attr: string
  label: string
  kind: 'list' | 'swatch' | 'price'
  options: FilterOption[]
}

/** Option labels per attribute (option id → label, in the admin's order) and display titles. */
export interface FacetLabels {
  titles: Record<string, string>
  options: Record<string, Record<string, string>>
}

/** Display titles when the attribute metadata has none. */
const DEFAULT_FILTER_TITLES: Record<string, string> = {
  rts: 'Ready to ship',
  gender: 'Gender',
  category_product: 'Product type',
  color: 'Colour',
  discount: 'Discount',
  size: 'Size',
  category: 'Category',
  price: 'Price',
}

/**
 * The listing state with only the choices the filter panel can show: ids of an attribute with an
 * option list (`labels.options`) that are none of its options are dropped, as the panel drops
 * unlabelled options. A URL naming hundreds of unknown values then renders no chip for them, and
 * no link of the panel carries them (each link carries every choice, so the page grew with the
 * product of choices and options: 1.8 MB for eight filters of 387 values). Price choices, and
 * attributes without an option list, are kept as they are. An unchanged state is returned as is.
 */
export function knownChoices(state: ListingState, labels: FacetLabels): ListingState {
  let dropped = false
  const chosen: ListingState['chosen'] = {}
  for (const [attr, values] of Object.entries(state.chosen)) {
    const options = attr === PRICE_ATTRIBUTE ? undefined : labels.options[attr]
    const kept = options ? values.filter((v) => Object.hasOwn(options, v.id)) : values
    if (kept.length !== values.length) dropped = true
    if (kept.length) chosen[attr] = kept
  }
  return dropped ? { ...state, chosen } : state
}

/**
 * Builds the filter groups (default filter order) from aggregations. A group is left out when it
 * cannot narrow the listing: no options, a single option (every product has it), or the same
 * options as a group shown before it (e.g. a product type that repeats the sub-categories). A
 * group the shopper has chosen from stays, so the choice can still be seen and undone there.
 */
export function buildFilterGroups(
  aggs: AggregationMap | null | undefined,
  labels: FacetLabels,
  currency: string,
  chosen: Readonly<Record<string, readonly unknown[]>> = {},
): FilterGroup[] {
  const attributes = Object.entries(labels.options).map(([code, opts]) => ({
    attribute_code: code,
    options: Object.entries(opts).map(([value, label]) => ({ value, label })),
  }))
  const available = filtersFromAggregations(aggs, attributes, currency, DEFAULT_FILTERS)
  const groups: FilterGroup[] = []
  const seen = new Set<string>()
  for (const attr of DEFAULT_FILTERS) {
    const options = available[attr]
    if (!options?.length) continue
    const inUse = (chosen[attr]?.length ?? 0) > 0
    const signature = options
      .map((o) => o.label.trim().toLowerCase())
      .sort()
      .join('\n')
    if (!inUse && (options.length < 2 || seen.has(signature))) continue
    seen.add(signature)
    const kind = attr === 'price' ? 'price' : attr === 'color' ? 'swatch' : 'list'
    groups.push({
      attr,
      label: labels.titles[attr] || DEFAULT_FILTER_TITLES[attr] || attr,
      kind,
      options: options.map((o) => (kind === 'swatch' ? { ...o, swatch: colorSwatch(o.label) } : { ...o })),
    })
  }
  return groups
}
