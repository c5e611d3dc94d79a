/**
 * vue-storefront-api's older product format (the one its documentation shows, indexed from
 * Magento 2 in 2017), converted to the current one before validation. Every conversion is named,
 * so the import can warn per product; what cannot be converted is a problem naming the field.
 *
 * The older format differs in:
 * - variants (`configurable_children`) carry Magento's `custom_attributes` list
 *   (`[{attribute_code, value}]`) instead of fields, and no `id`;
 * - `configurable_options` name their attribute by `attribute_id` and `label` only, without
 *   `attribute_code`, and their values by `value_index` only, without a `label`;
 * - a simple product may carry another product's variants and options (the sample does);
 * - `custom_attributes: null`, `extension_attributes: []` and the indexer's `tsk` ride along
 *   (kept as they are; the shop reads none of them).
 */
import { isObject } from './stock'

/**
 * A stable positive id from a text (an attribute's code, a GUID, a variant's SKU): the same text,
 * the same id. D1 keys products, categories, attributes and stock rows by whole numbers.
 */
export function stableIdOf(code: string): number {
  let h = 0
  for (const ch of code) h = (Math.imul(h, 31) + (ch.codePointAt(0) ?? 0)) >>> 0
  return 1_000_000 + (h % 1_000_000_000)
}

interface Converted {
  doc: Record<string, unknown>
  /** What was converted, in words ('configurable_children: 15 variants without an id …'). */
  converted: string[]
  /** What could not be converted: [field, why]. */
  problems: Array<[string, string]>
}

/**
 * Magento's `custom_attributes` list folded into fields: each value is copied where the document
 * has no field of that name (a field the document has wins). Null when `list` is not such a list.
 */
function foldCustomAttributes(
  target: Record<string, unknown>,
  list: unknown,
): { out: Record<string, unknown>; copied: number } | null {
  if (!Array.isArray(list)) return null
  const out: Record<string, unknown> = { ...target }
  delete out.custom_attributes
  let copied = 0
  for (const entry of list) {
    if (!isObject(entry) || typeof entry.attribute_code !== 'string' || entry.attribute_code === '')
      return null
    if (out[entry.attribute_code] === undefined) {
      out[entry.attribute_code] = entry.value
      copied++
    }
  }
  return { out, copied }
}

/** An attribute code from an option's label ('Color' → 'color', 'Sleeve Length' → 'sleeve_length'). */
const codeOfLabel = (label: string) =>
  label
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')

/** Converts one product document of the older format; a current document comes back unchanged. */
export function convertOlderProduct(source: Record<string, unknown>): Converted {
  let doc = source
  const converted: string[] = []
  const problems: Array<[string, string]> = []

  if (Array.isArray(doc.custom_attributes)) {
    const folded = foldCustomAttributes(doc, doc.custom_attributes)
    if (folded) {
      doc = folded.out
      converted.push(`custom_attributes: ${folded.copied} Magento attribute value(s) read as fields`)
    } else problems.push(['custom_attributes', 'is not a list of {attribute_code, value} entries'])
  }

  const children = doc.configurable_children
  const options = doc.configurable_options
  const hasVariants = Array.isArray(children) && children.length > 0
  const hasOptions = Array.isArray(options) && options.length > 0
  if (doc.type_id === 'simple' && (hasVariants || hasOptions)) {
    // A simple product sells its own SKU: variants and options on it belong to another product.
    doc = { ...doc, configurable_children: [], configurable_options: [] }
    converted.push(
      `configurable_children, configurable_options: a simple product has no variants; ${hasVariants ? (children as unknown[]).length : 0} variant(s) and ${hasOptions ? (options as unknown[]).length : 0} option(s) dropped`,
    )
    return { doc, converted, problems }
  }

  if (Array.isArray(children)) {
    let folded = 0
    let ids = 0
    const next = children.map((child, i) => {
      if (!isObject(child)) return child
      let c = child
      if (Array.isArray(c.custom_attributes)) {
        const f = foldCustomAttributes(c, c.custom_attributes)
        if (!f) {
          problems.push([
            `configurable_children[${i}].custom_attributes`,
            'is not a list of {attribute_code, value} entries',
          ])
          return c
        }
        c = f.out
        folded++
      }
      if (c.id === undefined || c.id === null || c.id === '') {
        if (typeof c.sku !== 'string' || c.sku.trim() === '') {
          problems.push([
            `configurable_children[${i}]`,
            'has neither an id nor a sku, so it cannot be told apart',
          ])
          return c
        }
        c = { ...c, id: stableIdOf(c.sku.trim()) }
        ids++
      }
      return c
    })
    doc = { ...doc, configurable_children: next }
    if (folded)
      converted.push(`configurable_children: ${folded} variant(s) had custom_attributes, read as fields`)
    if (ids)
      converted.push(
        `configurable_children: ${ids} variant(s) without an id given a stable id from their sku`,
      )
  }

  if (Array.isArray(options)) {
    let codes = 0
    let labels = 0
    const next = options.map((option, i) => {
      if (!isObject(option)) return option
      let o = option
      if (typeof o.attribute_code !== 'string' || o.attribute_code === '') {
        const code = typeof o.label === 'string' ? codeOfLabel(o.label) : ''
        if (!code) {
          problems.push([
            `configurable_options[${i}].attribute_code`,
            'is missing and the option has no label to derive it from',
          ])
          return o
        }
        o = { ...o, attribute_code: code }
        codes++
      }
      if (Array.isArray(o.values))
        o = {
          ...o,
          values: o.values.map((v) => {
            if (!isObject(v) || typeof v.label === 'string' || v.value_index === undefined) return v
            labels++
            return { ...v, label: String(v.value_index) }
          }),
        }
      return o
    })
    doc = { ...doc, configurable_options: next }
    if (codes)
      converted.push(`configurable_options: ${codes} option(s) without attribute_code named from their label`)
    if (labels)
      converted.push(
        `configurable_options: ${labels} value(s) without a label shown by their option id until the product is exported again with labels`,
      )
  }
  return { doc, converted, problems }
}
