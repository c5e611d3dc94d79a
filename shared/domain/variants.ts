/**
 * Configurable product variants: choose a child from colour/size
 * options, options still available given the other choices, the default variant, and the variant
 * URL rule. A selection maps attribute_code → value_index (e.g. { color: 49, size: 167 }).
 */
import { productPath } from '../config/links'
import { MSG } from '../i18n/messages'
import {
  type AvailabilityOptions,
  isChildInStock,
  isVariantAvailable,
  type VariantFields,
} from './availability'
import { discountPercent, finalPrice, type Now, type PriceFields } from './price-window'

export type VariantSelection = Record<string, number | null | undefined>

interface VariantChild extends VariantFields, PriceFields {
  [attribute: string]: unknown
}

interface ConfigurableOptionLike {
  attribute_code: string
  label?: string
  values: readonly { value_index: number; label: string }[]
}

interface ConfigurableLike<C extends VariantChild = VariantChild> {
  sku: string
  type_id?: string
  configurable_options?: readonly ConfigurableOptionLike[] | null
  configurable_children?: readonly C[] | null
}

function attrValue(child: VariantChild, attribute: string): number | null {
  const v = child[attribute]
  if (v == null || v === '') return null
  const n = Number(v)
  return Number.isFinite(n) ? n : null
}

function attributeCodes(product: ConfigurableLike): string[] {
  return (product.configurable_options ?? []).map((o) => o.attribute_code)
}

function matches(child: VariantChild, selection: VariantSelection, skip?: string): boolean {
  for (const [attribute, value] of Object.entries(selection)) {
    if (attribute === skip || value == null) continue
    if (attrValue(child, attribute) !== Number(value)) return false
  }
  return true
}

/** The child's option values for the product's configurable attributes, e.g. { color: 49, size: 167 }. */
export function selectionFromChild(product: ConfigurableLike, child: VariantChild): VariantSelection {
  const selection: VariantSelection = {}
  for (const code of attributeCodes(product)) selection[code] = attrValue(child, code)
  return selection
}

/** The first child matching every non-null chosen value (available children first); null when none matches. */
export function findVariant<C extends VariantChild>(
  product: ConfigurableLike<C>,
  selection: VariantSelection,
  opts?: AvailabilityOptions,
): C | null {
  const candidates = (product.configurable_children ?? []).filter((c) => matches(c, selection))
  if (opts) {
    const available = candidates.find((c) => isVariantAvailable(c, opts))
    if (available) return available
  }
  return candidates[0] ?? null
}

interface ConfigureResult<C extends VariantChild> {
  selection: VariantSelection
  variant: C | null
  /** The wrong-attributes notice when no variant matched (the previous selection is kept). */
  notice: string | null
}

/**
 * Applies one option choice: the matching child and new selection, or — when no variant matches —
 * the previous selection restored with the wrong-attributes notice.
 */
export function configureVariant<C extends VariantChild>(
  product: ConfigurableLike<C>,
  previous: VariantSelection,
  attribute: string,
  value: number | null,
  opts?: AvailabilityOptions,
): ConfigureResult<C> {
  const next = { ...previous, [attribute]: value }
  const variant = findVariant(product, next, opts)
  if (variant) return { selection: next, variant, notice: null }
  return {
    selection: { ...previous },
    variant: findVariant(product, previous, opts),
    notice: MSG.wrongAttributes,
  }
}

/** Value indexes of `attribute` that some available child offers given the OTHER chosen values. */
export function availableOptionValues(
  product: ConfigurableLike,
  selection: VariantSelection,
  attribute: string,
  opts: AvailabilityOptions,
): number[] {
  const values = new Set<number>()
  for (const child of product.configurable_children ?? []) {
    if (!isVariantAvailable(child, opts) || !matches(child, selection, attribute)) continue
    const v = attrValue(child, attribute)
    if (v != null) values.add(v)
  }
  const order = product.configurable_options?.find((o) => o.attribute_code === attribute)?.values ?? []
  const ordered = order.map((v) => v.value_index).filter((v) => values.has(v))
  for (const v of values) if (!ordered.includes(v)) ordered.push(v)
  return ordered
}

/** True once a size is chosen ("Selecting a size sets isSizeSelected"). */
export function isSizeSelected(selection: VariantSelection): boolean {
  return selection.size != null
}

/** The label of an option value (e.g. color 49 → 'Red'), or null when unknown. */
export function optionLabel(
  product: ConfigurableLike,
  attribute: string,
  valueIndex: number | null | undefined,
): string | null {
  if (valueIndex == null) return null
  const option = product.configurable_options?.find((o) => o.attribute_code === attribute)
  return option?.values.find((v) => v.value_index === Number(valueIndex))?.label ?? null
}

/**
 * The default variant: the child whose sku is `currentSku` (or, failing that, the first child with
 * the current sku's size); otherwise the in-stock child with the best discount, else the lowest
 * final price (in-stock children first; all children when none is in stock).
 */
export function defaultVariant<C extends VariantChild>(
  product: ConfigurableLike<C>,
  now: Now,
  currentSku?: string | null,
  opts: AvailabilityOptions = { listOutOfStock: true },
): C | null {
  const children = product.configurable_children ?? []
  if (children.length === 0) return null
  if (currentSku) {
    const exact = children.find((c) => c.sku === currentSku)
    if (exact) return exact
  }
  const enabled = children.filter((c) => isVariantAvailable(c, opts))
  const inStock = enabled.filter(isChildInStock)
  const pool = inStock.length ? inStock : enabled.length ? enabled : children
  let best: C | null = null
  let bestDiscount = 0
  for (const c of pool) {
    const d = discountPercent(c.price ?? 0, finalPrice(c, now))
    if (d > bestDiscount) {
      best = c
      bestDiscount = d
    }
  }
  if (best) return best
  let cheapest: C | null = null
  for (const c of pool) {
    if (!cheapest || finalPrice(c, now) < finalPrice(cheapest, now)) cheapest = c
  }
  return cheapest
}

/** The default variant for a size (the current sku's size): the best child of that size, else null. */
export function defaultVariantForSize<C extends VariantChild>(
  product: ConfigurableLike<C>,
  size: number | null | undefined,
  now: Now,
  opts: AvailabilityOptions = { listOutOfStock: true },
): C | null {
  if (size == null) return null
  const children = (product.configurable_children ?? []).filter((c) => attrValue(c, 'size') === Number(size))
  return defaultVariant({ ...product, configurable_children: children }, now, null, opts)
}

interface VariantRoute {
  parentSku: string
  slug: string
  childSku: string | null
}

/**
 * The variant-URL rule: a loaded product that is a variant of a configurable parent is addressed as
 * the parent's sku + the variant's sku as childSku + the parent's slug; null when no change is needed.
 */
export function variantRedirect(
  loaded: { sku: string; parent_sku?: string | null; parentSku?: string | null },
  parent: { sku: string; slug: string; type_id?: string } | null | undefined,
  current: VariantRoute,
): (VariantRoute & { path: string }) | null {
  const parentSku = loaded.parent_sku ?? loaded.parentSku
  if (!parent || !parentSku || parentSku === loaded.sku || parent.sku !== parentSku) return null
  if (parent.type_id && parent.type_id !== 'configurable') return null
  const target = { parentSku: parent.sku, slug: parent.slug, childSku: loaded.sku }
  if (
    target.parentSku === current.parentSku &&
    target.slug === current.slug &&
    target.childSku === current.childSku
  ) {
    return null
  }
  return { ...target, path: productPath(target.parentSku, target.slug, target.childSku) }
}
