/**
 * What one cart or order line is, decided by the catalogue alone. A client names a sku and item
 * options; this module checks every option id, value id, bundle selection id and bundle quantity
 * against the product document and rebuilds the item options from the catalogue, so nothing a
 * client adds (prices, labels, extra fields) is ever stored or used for money. It also says which
 * stocked skus a line consumes: a simple-like product or configurable child takes itself, a bundle
 * takes each selected linked product times its option quantity, a grouped product takes one of
 * each associated product.
 *
 * The stored option keeps the shape and value types the product page sends (the three arrays in
 * the same order, ids as the page writes them), so the cart sync's comparison of a client line's
 * options with the server's finds the same line.
 */
import type { BundleSelection, CustomOptionSelection } from '@shared/domain/price-parts'
import { MAX_BUNDLE_OPTION_QTY } from '@shared/schemas/cart'
import type { BundleOption, ConfigurableChild, Product } from '@shared/schemas/catalog'

/** Why a line cannot be configured: `options` = bad or missing options; `needs-variant` = no child chosen. */
export class LineProblem extends Error {
  constructor(
    readonly kind: 'options' | 'needs-variant',
    message: string,
  ) {
    super(message)
  }
}

/** The longest text a custom 'field' option may carry. */
export const MAX_CUSTOM_TEXT = 255

interface StoredConfigurableOption {
  option_id: string
  option_value: string
  label: string
  value: string
}
interface StoredCustomOption {
  option_id: number
  option_value: string
}
interface StoredBundleOption {
  option_id: number
  option_qty: number
  option_selections: number[]
}
/** The item options as stored on a cart line and an order item (rebuilt from the catalogue). */
interface StoredProductOption {
  extension_attributes: {
    configurable_item_options: StoredConfigurableOption[]
    custom_options: StoredCustomOption[]
    bundle_options: StoredBundleOption[]
  }
}

/** A stocked sku a line consumes, per unit of the line. */
interface LineComponent {
  sku: string
  units: number
}

export interface LineConfig {
  /** The sku the line is stored under: the configurable child's, else the product's own. */
  sku: string
  /** The configurable parent's sku when `sku` is a child, else null. */
  parentSku: string | null
  productId: number
  child: ConfigurableChild | undefined
  option: StoredProductOption | null
  customOptions: CustomOptionSelection | undefined
  bundleSelection: BundleSelection | undefined
  /** The stocked skus one unit of this line takes (composites: their linked products). */
  components: LineComponent[]
}

interface RawOptions {
  configurable_item_options?: { option_id?: unknown; option_value?: unknown }[]
  custom_options?: { option_id?: unknown; option_value?: unknown }[]
  bundle_options?: { option_id?: unknown; option_qty?: unknown; option_selections?: unknown[] }[]
}

const DIGITS_RE = /^[0-9]{1,15}$/

/** A decimal id: an integer number or a string of digits; anything else is null. */
function decimalId(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : null
  if (typeof value === 'string' && DIGITS_RE.test(value)) return Number(value)
  return null
}

const show = (value: unknown) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value)
  return (text ?? String(value)).slice(0, 40)
}

function extensionOf(raw: unknown): RawOptions | null {
  if (!raw || typeof raw !== 'object') return null
  const ext = (raw as { extension_attributes?: unknown }).extension_attributes
  return ext && typeof ext === 'object' ? (ext as RawOptions) : null
}

function configurableOptions(
  product: Product,
  given: RawOptions['configurable_item_options'],
  chosenChild: ConfigurableChild | undefined,
): { child: ConfigurableChild | undefined; stored: StoredConfigurableOption[] } {
  const list = given ?? []
  if (product.type_id !== 'configurable') {
    if (list.length) throw new LineProblem('options', `${product.sku} has no configurable options`)
    return { child: undefined, stored: [] }
  }
  const wanted = new Map<string, number>()
  for (const o of list) {
    const attrId = decimalId(o.option_id)
    const attr =
      attrId === null
        ? undefined
        : product.configurable_options.find((a) => String(a.attribute_id) === String(attrId))
    if (!attr) throw new LineProblem('options', `unknown configurable option ${show(o.option_id)}`)
    if (wanted.has(attr.attribute_code))
      throw new LineProblem('options', `configurable option ${attrId} is given twice`)
    const valueId = decimalId(o.option_value)
    const value = valueId === null ? undefined : attr.values.find((v) => v.value_index === valueId)
    if (!value || valueId === null)
      throw new LineProblem(
        'options',
        `unknown value ${show(o.option_value)} for configurable option ${attrId} (${attr.label})`,
      )
    wanted.set(attr.attribute_code, valueId)
  }
  const attrValue = (child: ConfigurableChild, code: string) =>
    Number((child as Record<string, unknown>)[code])
  let child = chosenChild
  if (child) {
    for (const [code, valueId] of wanted)
      if (attrValue(child, code) !== valueId)
        throw new LineProblem('options', `the configurable options do not match ${child.sku}`)
  } else {
    const missing = product.configurable_options.filter((a) => !wanted.has(a.attribute_code))
    if (missing.length)
      throw new LineProblem('needs-variant', `${product.sku} needs its configurable options`)
    child = product.configurable_children.find((ch) =>
      [...wanted].every(([code, valueId]) => attrValue(ch, code) === valueId),
    )
    if (!child) throw new LineProblem('options', `${product.sku} has no variant with these options`)
  }
  const picked = child
  const stored = product.configurable_options.flatMap((attr) => {
    const valueId = attrValue(picked, attr.attribute_code)
    const value = attr.values.find((v) => v.value_index === valueId)
    if (!value) return []
    return [
      {
        option_id: String(attr.attribute_id),
        option_value: String(valueId),
        label: attr.label,
        value: value.label,
      },
    ]
  })
  return { child: picked, stored }
}

function customOptions(
  product: Product,
  given: RawOptions['custom_options'],
): { stored: StoredCustomOption[]; selection: CustomOptionSelection | undefined } {
  const stored: StoredCustomOption[] = []
  const selection: CustomOptionSelection = {}
  for (const o of given ?? []) {
    const id = decimalId(o.option_id)
    const option = id === null ? undefined : product.custom_options.find((c) => c.option_id === id)
    if (!option || id === null) throw new LineProblem('options', `unknown custom option ${show(o.option_id)}`)
    if (id in selection) throw new LineProblem('options', `custom option ${id} is given twice`)
    const raw = o.option_value
    if (raw == null || raw === '' || (Array.isArray(raw) && raw.length === 0)) continue
    if (option.type === 'field') {
      if (typeof raw !== 'string' && typeof raw !== 'number')
        throw new LineProblem('options', `custom option ${id} (${option.title}) takes text`)
      const text = String(raw)
      if (text.length > MAX_CUSTOM_TEXT)
        throw new LineProblem(
          'options',
          `custom option ${id} (${option.title}) is limited to ${MAX_CUSTOM_TEXT} characters`,
        )
      if (text.trim() === '') continue
      stored.push({ option_id: id, option_value: text })
      selection[id] = text
      continue
    }
    const parts = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [raw]
    const ids: number[] = []
    for (const part of parts) {
      const valueId = decimalId(typeof part === 'string' ? part.trim() : part)
      if (valueId === null || !option.values.some((v) => v.option_type_id === valueId))
        throw new LineProblem(
          'options',
          `unknown value ${show(part)} for custom option ${id} (${option.title})`,
        )
      if (!ids.includes(valueId)) ids.push(valueId)
    }
    if (ids.length > 1 && option.type !== 'checkbox')
      throw new LineProblem('options', `custom option ${id} (${option.title}) takes one value`)
    stored.push({ option_id: id, option_value: ids.join(',') })
    selection[id] = option.type === 'checkbox' ? ids : ids[0]
  }
  for (const option of product.custom_options) {
    if (option.is_require && !(option.option_id in selection))
      throw new LineProblem('options', `custom option ${option.option_id} (${option.title}) is required`)
  }
  return { stored, selection: stored.length ? selection : undefined }
}

function bundleOptions(
  product: Product,
  given: RawOptions['bundle_options'],
): { stored: StoredBundleOption[]; selection: BundleSelection | undefined; components: LineComponent[] } {
  const list = given ?? []
  if (product.type_id !== 'bundle') {
    if (list.length) throw new LineProblem('options', `${product.sku} has no bundle options`)
    return { stored: [], selection: undefined, components: [] }
  }
  const stored: StoredBundleOption[] = []
  const selection: BundleSelection = {}
  const units = new Map<string, number>()
  const seen = new Set<number>()
  const required = (option: BundleOption) =>
    `bundle option ${option.option_id} (${option.title}) is required: choose one of its products with a quantity of at least 1`
  for (const o of list) {
    const id = decimalId(o.option_id)
    const option = id === null ? undefined : product.bundle_options.find((b) => b.option_id === id)
    if (!option || id === null) throw new LineProblem('options', `unknown bundle option ${show(o.option_id)}`)
    if (seen.has(id)) throw new LineProblem('options', `bundle option ${id} is given twice`)
    seen.add(id)
    const selections = o.option_selections ?? []
    if (selections.length > 1)
      throw new LineProblem('options', `bundle option ${id} (${option.title}) takes one selection`)
    const selectionId = selections.length ? decimalId(selections[0]) : null
    const link = selectionId === null ? undefined : option.product_links.find((l) => l.id === selectionId)
    if (selections.length && !link)
      throw new LineProblem(
        'options',
        `unknown selection ${show(selections[0])} for bundle option ${id} (${option.title})`,
      )
    const qty = o.option_qty === undefined ? (link?.qty ?? 1) : decimalId(o.option_qty)
    if (qty === null || qty > MAX_BUNDLE_OPTION_QTY)
      throw new LineProblem(
        'options',
        `bundle option ${id} (${option.title}): option_qty must be a whole number from 1 to ${MAX_BUNDLE_OPTION_QTY}`,
      )
    if (!link || qty === 0) {
      if (option.required) throw new LineProblem('options', required(option))
      continue
    }
    stored.push({ option_id: id, option_qty: qty, option_selections: [link.id] })
    selection[id] = { linkId: link.id, qty }
    units.set(link.sku, (units.get(link.sku) ?? 0) + qty)
  }
  for (const option of product.bundle_options)
    if (option.required && !(option.option_id in selection))
      throw new LineProblem('options', required(option))
  if (stored.length === 0)
    throw new LineProblem('options', `${product.sku} needs at least one bundle selection`)
  return {
    stored,
    selection,
    components: [...units].map(([sku, n]) => ({ sku, units: n })),
  }
}

/** The associated products of a grouped product, one unit each. */
function groupedComponents(product: Product): LineComponent[] {
  const units = new Map<string, number>()
  for (const link of product.product_links) {
    if (link.link_type && link.link_type !== 'associated') continue
    units.set(link.linked_product_sku, (units.get(link.linked_product_sku) ?? 0) + 1)
  }
  if (units.size === 0) throw new LineProblem('options', `${product.sku} has no products to order`)
  return [...units].map(([sku, n]) => ({ sku, units: n }))
}

/**
 * Configures a line of `product` (with `child` when the client named a configurable child's sku)
 * from the client's item options; throws LineProblem naming what is wrong.
 */
export function configureLine(
  product: Product,
  child: ConfigurableChild | undefined,
  rawOption: unknown,
): LineConfig {
  const ext = extensionOf(rawOption)
  const conf = configurableOptions(product, ext?.configurable_item_options, child)
  const custom = customOptions(product, ext?.custom_options)
  const bundle = bundleOptions(product, ext?.bundle_options)
  const sellable = conf.child ?? product
  const components =
    product.type_id === 'bundle'
      ? bundle.components
      : product.type_id === 'grouped'
        ? groupedComponents(product)
        : [{ sku: sellable.sku, units: 1 }]
  return {
    sku: sellable.sku,
    parentSku: conf.child ? product.sku : null,
    productId: sellable.id,
    child: conf.child,
    option:
      rawOption != null
        ? {
            extension_attributes: {
              configurable_item_options: conf.stored,
              custom_options: custom.stored,
              bundle_options: bundle.stored,
            },
          }
        : null,
    customOptions: custom.selection,
    bundleSelection: bundle.selection,
    components,
  }
}

/** Parses a stored option column (server-built JSON, or a client's JSON from before it was rebuilt). */
export function parseStoredOption(text: string | null): unknown {
  if (!text) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
