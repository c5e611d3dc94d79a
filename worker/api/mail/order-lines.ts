/**
 * The lines of an order as a mail shows them: quantity, name, and what the shopper chose — the
 * configurable options (their labels are stored on the order), the custom options and bundle
 * pieces (named from the product as the catalogue has it now; ids the catalogue no longer knows
 * are left out rather than guessed), and the pieces of a grouped product.
 */
import type { Product } from '@shared/schemas/catalog'
import type { OrderDocumentItem } from '../order/document'

type OrderItem = Pick<
  OrderDocumentItem,
  | 'name'
  | 'sku'
  | 'product_id'
  | 'parent_sku'
  | 'product_type'
  | 'qty_ordered'
  | 'row_total_incl_tax'
  | 'product_option'
>

export interface MailLine {
  qty: number
  name: string
  /** Line total incl. tax in the order's charge currency, when the order stored it. */
  rowTotal: number | null
  /** What was chosen; `typed` marks text the shopper wrote (a free-text custom option). */
  chosen: { label: string; value: string; typed?: boolean }[]
  /** The product's picture as a catalogue image path (the HTML mail shows it), or null. */
  image: string | null
}

/** What a mail shows instead of text the shopper wrote, while the order is not paid or confirmed. */
const ON_ORDER_PAGE = '(as you wrote it: see your order page)'

/** The lines without the text the shopper wrote (each such value points to the order page). */
export function withoutTypedText(lines: readonly MailLine[]): MailLine[] {
  return lines.map((l) => ({
    ...l,
    chosen: l.chosen.map((o) => (o.typed ? { ...o, value: ON_ORDER_PAGE } : o)),
  }))
}

/** Longest option text a mail repeats (a custom engraving text is the shopper's own words). */
const MAX_VALUE_CHARS = 120

/** C0/C1 control characters and the Unicode line and paragraph separators. */
export function isControl(ch: string): boolean {
  const code = ch.codePointAt(0) ?? 0
  return code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029
}

/** One line of plain text: control characters (newlines included) become spaces, then trimmed to `max`. */
export function oneLine(value: unknown, max = MAX_VALUE_CHARS): string {
  let out = ''
  for (const ch of String(value ?? '')) out += isControl(ch) ? ' ' : ch
  return out.replace(/ {2,}/g, ' ').trim().slice(0, max)
}

function chosenOf(item: OrderItem, product: Product | undefined): MailLine['chosen'] {
  const ext = item.product_option?.extension_attributes
  const out: MailLine['chosen'] = []
  for (const o of ext?.configurable_item_options ?? []) {
    if (typeof o.label === 'string') out.push({ label: oneLine(o.label), value: oneLine(o.value) })
  }
  for (const o of ext?.custom_options ?? []) {
    const option = product?.custom_options.find((c) => String(c.option_id) === String(o.option_id))
    if (!option) continue
    const ids = Array.isArray(o.option_value) ? o.option_value : String(o.option_value ?? '').split(',')
    const value =
      option.type === 'field'
        ? oneLine(o.option_value)
        : ids
            .map((id) => option.values.find((v) => String(v.option_type_id) === String(id).trim())?.title)
            .filter((t): t is string => Boolean(t))
            .join(', ')
    if (value)
      out.push({ label: oneLine(option.title), value, ...(option.type === 'field' ? { typed: true } : {}) })
  }
  for (const o of ext?.bundle_options ?? []) {
    const option = product?.bundle_options.find((b) => String(b.option_id) === String(o.option_id))
    if (!option) continue
    const names = (o.option_selections ?? [])
      .map((id) => option.product_links.find((l) => String(l.id) === String(id)))
      .filter((l) => l !== undefined)
      .map((l) => l.product?.name ?? l.sku)
    const qty = Number(o.option_qty) > 1 ? ` × ${Number(o.option_qty)}` : ''
    if (names.length) out.push({ label: oneLine(option.title), value: `${oneLine(names.join(', '))}${qty}` })
  }
  if (item.product_type === 'grouped' && product) {
    const pieces = (product.product_links ?? [])
      .filter((l) => l.link_type === 'associated')
      .map((l) => l.product?.name ?? l.linked_product_sku)
    if (pieces.length) out.push({ label: 'Includes', value: oneLine(pieces.join(', '), 400) })
  }
  return out
}

/**
 * The mail lines of an order's stored items (one D1 query for the products they name: each
 * item's own product, and a variant's configurable parent, whose picture it shows).
 */
export async function mailLines(db: D1Database, items: readonly OrderItem[]): Promise<MailLine[]> {
  const ids = [
    ...new Set(items.map((i) => i.product_id).filter((id): id is number => Number.isSafeInteger(id))),
  ]
  const parents = [...new Set(items.map((i) => i.parent_sku).filter((s): s is string => Boolean(s)))]
  const byId = new Map<number, Product>()
  const bySku = new Map<string, Product>()
  if (ids.length || parents.length) {
    // Only non-empty lists: SQLite answers `… OR sku IN ()` by scanning the whole catalogue.
    const where = [
      ...(ids.length ? [`id IN (${ids.map(() => '?').join(',')})`] : []),
      ...(parents.length ? [`sku IN (${parents.map(() => '?').join(',')})`] : []),
    ]
    const { results } = await db
      .prepare(`SELECT id, doc FROM products WHERE ${where.join(' OR ')}`)
      .bind(...ids, ...parents)
      .all<{ id: number; doc: string }>()
    for (const r of results) {
      const product = JSON.parse(r.doc) as Product
      byId.set(r.id, product)
      bySku.set(product.sku, product)
    }
  }
  return items.map((item) => {
    const own = item.product_id === undefined ? undefined : byId.get(item.product_id)
    const pictured = own ?? (item.parent_sku ? bySku.get(item.parent_sku) : undefined)
    return {
      qty: item.qty_ordered ?? 1,
      name: oneLine(item.name ?? item.sku, 200),
      rowTotal: typeof item.row_total_incl_tax === 'number' ? item.row_total_incl_tax : null,
      chosen: chosenOf(item, own),
      image: pictured?.thumbnail || pictured?.small_image || pictured?.image || null,
    }
  })
}
