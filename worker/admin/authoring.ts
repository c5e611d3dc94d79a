/**
 * Product authoring: an operator creates and edits a simple product or a configurable one (a
 * colour × size matrix). The rules:
 * - A configurable's variants follow the product's price unless a variant's own price is typed
 *   (an override); an override is never below the product's price, which stays its cheapest
 *   variant's price (the rule the catalogue screen's price changes rely on).
 * - Each variant has its own SKU (by default PRODUCT-COLOUR-SIZE) and its own counted stock.
 * - The description is written with the content pages' block editor and stored as the sanitised
 *   HTML the shop reads (./product-description.ts).
 * - A product is a draft (not on the shop: disabled, no URL) until published; publishing writes its
 *   URL (the primary category's path and the URL key) to the dispatcher's mapping.
 * - A product is listed in several categories; the primary one (the form's first choice) gives its
 *   address, breadcrumbs and canonical URL. Every category it enters or leaves is recounted and purged.
 * - Saving stores the product with the catalogue's one product writer (row, document, search rows
 *   and the catalogue version in one batch, with inventory rows and the audit row), then purges the
 *   cached pages that show it: it is on the shop on the next request.
 * - Concurrent edits: the form carries the revision it was opened at; the batch starts with a
 *   compare-and-set on it, so an edit from a page opened before another save is refused whole
 *   (409) instead of silently undoing that save.
 * Length: one product's way from the form's fields through its variants and document to the
 * guarded batch reads top to bottom; split, each part would need the others' rules.
 */

import { READY_TO_SHIP_DELIVERY } from '@shared/domain/availability'
import { finalPrice } from '@shared/domain/price-window'
import { type Product, ProductSchema } from '@shared/schemas/catalog'
import { z } from 'zod'
import { magentoDate } from '../api/user/repo'
import { productMapping, urlMappingKey } from '../catalog/url-map'
import { categoryCountStatement, writeProductStatements } from '../catalog/writer'
import { describeIssues, fail } from '../platform/http'
import { auditStatement } from './audit'
import { digits, refuseField, skuText, text } from './authoring-fields'
import { planSet, type SetPlan, withSetsRefreshed } from './authoring-sets'
import { purgeProduct } from './catalogue'
import { amountTyped } from './input'
import { addressTaken } from './product-address'
import { attributeValues, pickableAttributes } from './product-attributes'
import { type Described, productDescription } from './product-description'

/** The largest stock one sku is given from the form. */
const MAX_QTY = 1_000_000
/** The most categories one product is listed in (its search rows stay a bounded number). */
const MAX_CATEGORIES = 10
/** The most colours × sizes a configurable may have (its document stays a bounded size). */
const MAX_VARIANTS = 120

export const AuthoringSchema = z.looseObject({
  revision: digits('revision', 2_000_000_000).default(0),
  type_id: z.enum(['simple', 'configurable', 'virtual', 'grouped', 'bundle'], {
    error: 'type must be simple, configurable, virtual, grouped or bundle',
  }),
  sku: skuText('sku'),
  name: text('name', 200).min(1, 'name is required'),
  designer_name: text('designer', 100).optional(),
  // HTML from an API caller; the form sends the block editor's blocks (./product-description.ts).
  description: text('description', 20_000).optional(),
  fabric: text('fabric', 300).optional(),
  care: text('care', 300).optional(),
  hsn_code: z
    .string()
    .trim()
    .regex(/^(\d{4}|\d{6}|\d{8})$/, 'hsn_code must be 4, 6 or 8 digits')
    .optional(),
  url_key: z
    .string()
    .trim()
    .toLowerCase()
    .max(120, 'url_key is too long (at most 120 characters)')
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'url_key: lower-case letters, digits and single hyphens')
    .optional(),
  category_id: digits('category', 2_000_000_000).refine((n) => n > 0, 'category is required'),
  // The other categories it is listed in (an API caller's list; the form ticks `also_category_<id>`).
  category_ids: z
    .array(z.coerce.number().int('categories: whole numbers').positive('categories: category ids'))
    .max(MAX_CATEGORIES, `categories: at most ${MAX_CATEGORIES}`)
    .optional(),
  // A grouped or bundle product's price follows from its members (./authoring-sets.ts).
  price: amountTyped('price').optional(),
  qty: digits('qty', MAX_QTY).default(0),
  // The shipped weight in grams; a virtual product is not shipped and has none.
  weight: digits('weight', 1_000_000).optional(),
  // A virtual product (a service, an e-gift) may be sold without counting its stock.
  stock_unlimited: z.union([z.boolean(), z.string()]).optional(),
  delivery_days: digits('made-to-order lead time', 365).optional(),
  // A size chart of its own (its code), over its category's (./size-charts.ts).
  size_guide: z
    .string()
    .trim()
    .toLowerCase()
    .max(60, 'size chart code is too long')
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'size chart: a code from the size charts')
    .optional(),
  meta_title: text('SEO title', 200).optional(),
  meta_description: text('SEO description', 500).optional(),
  status: z.enum(['draft', 'published'], { error: 'status must be draft or published' }).default('draft'),
})
type AuthoringInput = z.infer<typeof AuthoringSchema>
export type AuthoringType = AuthoringInput['type_id']

/** The authoring form's type for a product type (a `?type=` or a stored `type_id`); else simple. */
export function authoringType(type: string | undefined): AuthoringType {
  const parsed = AuthoringSchema.shape.type_id.safeParse(type)
  return parsed.success ? parsed.data : 'simple'
}

interface Option {
  id: number
  label: string
}

/** The colour and size options an operator picks from (the shop's filterable attributes). */
export async function matrixOptions(db: D1Database): Promise<{ colours: Option[]; sizes: Option[] }> {
  const { results } = await db
    .prepare(
      `SELECT attribute_code AS code, json_extract(o.value, '$.value') AS value, json_extract(o.value, '$.label') AS label
       FROM attributes, json_each(attributes.doc, '$.options') AS o
       WHERE attribute_code IN ('color', 'size') ORDER BY attribute_code, o.key`,
    )
    .all<{ code: string; value: string | number; label: string }>()
  const pick = (code: string) =>
    results
      .filter((r) => r.code === code && Number.isSafeInteger(Number(r.value)))
      .map((r) => ({ id: Number(r.value), label: String(r.label) }))
  return { colours: pick('color'), sizes: pick('size') }
}

/** The categories a product can be placed in (active, below the root), by path. */
export async function categoryChoices(db: D1Database) {
  const { results } = await db
    .prepare('SELECT id, name, url_path FROM categories WHERE level >= 2 ORDER BY url_path LIMIT 500')
    .all<{ id: number; name: string; url_path: string }>()
  return results
}

/** A product to edit: its document, its revision and the stock of each sellable sku. */
export async function authoringProduct(db: D1Database, id: number) {
  const [row, rev, stock] = await db.batch([
    db.prepare('SELECT doc FROM products WHERE id = ?1').bind(id),
    db.prepare('SELECT revision FROM product_revisions WHERE product_id = ?1').bind(id),
    db
      .prepare(
        'SELECT sku, qty FROM inventory WHERE product_id = ?1 OR parent_sku = (SELECT sku FROM products WHERE id = ?1)',
      )
      .bind(id),
  ])
  const doc = (row?.results[0] as { doc: string } | undefined)?.doc
  if (!doc) return fail(404, `Product ${id} does not exist.`)
  return {
    doc: JSON.parse(doc) as Product,
    revision: Number((rev?.results[0] as { revision: number } | undefined)?.revision ?? 0),
    stock: Object.fromEntries(
      ((stock?.results ?? []) as { sku: string; qty: number }[]).map((s) => [s.sku, s.qty]),
    ),
  }
}

/**
 * The document with the stock its skus have now (orders move stock without touching the
 * document): a save that does not set stock stores what there is, never what the page showed.
 */
export function withLiveStock(doc: Product, stock: Record<string, number>): Product {
  // Stock not counted (a service) stays so: its row's quantity says nothing about what can be sold.
  const live = (sku: string, was: Product['stock']) => {
    const qty = stock[sku]
    return qty === undefined || (was as { manage_stock?: boolean }).manage_stock === false
      ? was
      : { ...was, ...stockOf(qty) }
  }
  const children = doc.configurable_children.map((ch) => ({ ...ch, stock: live(ch.sku, ch.stock) }))
  const total = children.reduce((n, ch) => n + (ch.stock.qty ?? 0), 0)
  return children.length
    ? { ...doc, configurable_children: children, stock: { ...doc.stock, ...stockOf(total) } }
    : { ...doc, stock: live(doc.sku, doc.stock) }
}

/** The form's name of a variant's field: v_<colour>_<size>_<field>. */
export const variantField = (colour: number, size: number, field: 'sku' | 'price' | 'qty') =>
  `v_${colour}_${size}_${field}`

/** The ids of the options ticked in the form (fields named `<prefix>_<id>`), in the shop's order. */
function ticked(input: Record<string, unknown>, prefix: string, options: Option[]): Option[] {
  return options.filter(
    (o) => input[`${prefix}_${o.id}`] !== undefined && input[`${prefix}_${o.id}`] !== 'false',
  )
}

const skuPart = (label: string) => label.toUpperCase().replace(/[^A-Z0-9]+/g, '')

interface VariantPlan {
  colour: Option
  size: Option
  sku: string
  price: number
  ownPrice: boolean
  qty: number | null
}

/** The variants the form asks for, each with its SKU, price and stock (the rules in the header). */
function planVariants(
  input: AuthoringInput & Record<string, unknown>,
  options: { colours: Option[]; sizes: Option[] },
  priceMinor: number,
): VariantPlan[] {
  const colours = ticked(input, 'colour', options.colours)
  const sizes = ticked(input, 'size', options.sizes)
  if (colours.length === 0) refuseField(400, 'colours', 'tick at least one colour')
  if (sizes.length === 0) refuseField(400, 'sizes', 'tick at least one size')
  if (colours.length * sizes.length > MAX_VARIANTS)
    refuseField(400, 'sizes', `at most ${MAX_VARIANTS} variants (colours × sizes)`)
  const plans: VariantPlan[] = []
  for (const colour of colours)
    for (const size of sizes) {
      const read = <T>(field: 'sku' | 'price' | 'qty', schema: z.ZodType<T>): T | undefined => {
        const name = variantField(colour.id, size.id, field)
        const raw = input[name]
        if (raw === undefined || raw === '') return undefined
        const parsed = schema.safeParse(raw)
        if (!parsed.success) refuseField(400, name, parsed.error.issues[0]?.message ?? `${name} is not valid`)
        return parsed.data
      }
      const label = `${colour.label} / ${size.label}`
      const sku =
        read('sku', skuText(`SKU of ${label}`)) ??
        `${input.sku}-${skuPart(colour.label)}-${skuPart(size.label)}`
      const own = read('price', amountTyped(`price of ${label}`))
      if (own !== undefined && own < priceMinor)
        refuseField(
          400,
          variantField(colour.id, size.id, 'price'),
          `price of ${label} must not be below the product's price`,
        )
      plans.push({
        colour,
        size,
        sku,
        price: own ?? priceMinor,
        ownPrice: own !== undefined && own !== priceMinor,
        qty: read('qty', digits(`stock of ${label}`, MAX_QTY)) ?? null,
      })
    }
  const seen = new Set<string>([input.sku.toUpperCase()])
  for (const p of plans) {
    if (seen.has(p.sku.toUpperCase()))
      refuseField(400, variantField(p.colour.id, p.size.id, 'sku'), `SKU ${p.sku} is used twice`)
    seen.add(p.sku.toUpperCase())
  }
  return plans
}

const rupees = (minor: number) => minor / 100
const stockOf = (qty: number) => ({
  qty,
  is_in_stock: qty > 0,
  stock_status: qty > 0 ? 1 : 0,
  manage_stock: true,
  backorders: 0,
})

/** The product document the form describes, on top of the stored one when editing. */
function buildDocument(
  id: number,
  input: AuthoringInput & Record<string, unknown>,
  categories: PlacedCategory[],
  options: { colours: Option[]; sizes: Option[] },
  before: { doc: Product; stock: Record<string, number> } | null,
  set: SetPlan | null,
  described: Described,
  attributes: Record<string, string | number | null>,
  now: number,
): Product {
  const priceMinor = set
    ? Math.round(set.price * 100)
    : (input.price ?? refuseField(400, 'price', 'price is required'))
  const urlKey =
    input.url_key ??
    `${input.name}-${input.sku}`
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
  if (!urlKey) refuseField(400, 'url_key', 'url_key is required (the name gives none)')
  const published = input.status === 'published'
  const primary = categories[0] as PlacedCategory
  const at = magentoDate(now)
  const base = (before?.doc ?? {}) as Record<string, unknown>
  const doc: Record<string, unknown> = {
    ...base,
    // Picked attributes come before the fields the form sets itself, which an attribute of the same code cannot override.
    ...attributes,
    id,
    sku: input.sku,
    name: input.name,
    type_id: input.type_id,
    designer_name: input.designer_name ?? null,
    description: described.description,
    description_blocks: described.blocks,
    fabric: input.fabric ?? null,
    care: input.care ?? null,
    hsn_code: input.hsn_code ?? null,
    price: rupees(priceMinor),
    special_price: null,
    special_from_date: null,
    special_to_date: null,
    tax_class_id: base.tax_class_id ?? 2,
    status: published ? 1 : 2,
    visibility: 4,
    // An edit keeps the creation date, even none (an undated import does not become new).
    created_at: before ? before.doc.created_at : at,
    updated_at: at,
    url_key: urlKey,
    // The address, breadcrumbs and canonical URL follow the primary category, listed first.
    url_path: `${primary.url_path}/${urlKey}`,
    slug: urlKey,
    meta_title: input.meta_title ?? null,
    meta_description: input.meta_description ?? null,
    category: categories.map((k) => ({ category_id: k.id, name: k.name, slug: k.slug })),
    category_ids: categories.map((k) => k.id),
    delivery_days: input.delivery_days ?? null,
    size_guide: input.size_guide ?? null,
    media_gallery: base.media_gallery ?? [],
    product_links: [],
    bundle_options: [],
    // Stored in kilograms, as the catalogue's documents hold it; none for what is not shipped.
    weight: input.weight && input.type_id !== 'virtual' ? input.weight / 1000 : null,
  }
  if (input.type_id === 'configurable') {
    const plans = planVariants(input, options, priceMinor as number)
    const old = new Map(
      (before?.doc.configurable_children ?? []).map((c) => [`${c.color}_${c.size}`, c] as const),
    )
    let next = Math.max(id * 100, ...[...old.values()].map((c) => c.id))
    const children = plans.map((p) => {
      const was = old.get(`${p.colour.id}_${p.size.id}`)
      const qty = p.qty ?? (was ? (before?.stock[was.sku] ?? 0) : input.qty)
      const child = {
        ...(was ?? {}),
        sku: p.sku,
        id: was?.id ?? ++next,
        name: `${input.name} - ${p.colour.label} / ${p.size.label}`,
        price: rupees(p.price),
        own_price: p.ownPrice,
        special_price: null,
        special_from_date: null,
        special_to_date: null,
        color: p.colour.id,
        size: p.size.id,
        status: 1,
        stock: stockOf(qty),
      }
      return { ...child, final_price: finalPrice(child, now) }
    })
    const total = children.reduce((n, c) => n + c.stock.qty, 0)
    const colours = [...new Map(plans.map((p) => [p.colour.id, p.colour])).values()]
    const sizes = [...new Map(plans.map((p) => [p.size.id, p.size])).values()]
    Object.assign(doc, {
      configurable_children: children,
      configurable_options: [
        {
          attribute_code: 'color',
          attribute_id: 93,
          label: 'Color',
          position: 0,
          values: colours.map((c) => ({ value_index: c.id, label: c.label })),
        },
        {
          attribute_code: 'size',
          attribute_id: 142,
          label: 'Size',
          position: 1,
          values: sizes.map((s) => ({ value_index: s.id, label: s.label })),
        },
      ],
      color_options: colours.map((c) => c.id),
      size_options: sizes.map((s) => s.id),
      color: null,
      size: null,
      stock: { ...stockOf(total), manage_stock: true },
    })
  } else if (set) {
    Object.assign(doc, {
      configurable_children: [],
      configurable_options: [],
      color_options: null,
      size_options: null,
      product_links: set.product_links,
      bundle_options: set.bundle_options,
      weight: null,
      stock: { qty: set.inStock ? 1 : 0, is_in_stock: set.inStock, stock_status: set.inStock ? 1 : 0 },
    })
  } else {
    const qty =
      before && input.qty === 0 && before.stock[input.sku] !== undefined
        ? (before.stock[input.sku] ?? 0)
        : input.qty
    Object.assign(doc, {
      configurable_children: [],
      configurable_options: [],
      color_options: null,
      size_options: null,
      stock: unlimited(input)
        ? { ...stockOf(0), is_in_stock: true, stock_status: 1, manage_stock: false }
        : stockOf(qty),
    })
  }
  Object.assign(doc, readyToShip(doc, input, set))
  doc.final_price = finalPrice(doc, now)
  const parsed = ProductSchema.safeParse(doc)
  if (!parsed.success) fail(400, `Invalid product: ${describeIssues(parsed.error)}`)
  return parsed.data
}

/**
 * A shipped piece without a made-to-order lead time ships from its counted stock: its ready units
 * are its stock (each variant's own), and its delivery estimate is the shop's ready-to-ship time.
 * A piece with a lead time is made to order (estimated from the lead time); a virtual product is
 * not shipped, and a set's delivery is its pieces'.
 */
function readyToShip(doc: Record<string, unknown>, input: AuthoringInput, set: SetPlan | null) {
  const fromStock = input.type_id !== 'virtual' && !set && input.delivery_days == null
  const ready = (stock: unknown) => {
    const qty = (stock as { qty?: number } | undefined)?.qty ?? 0
    return fromStock && qty > 0 ? qty : null
  }
  const children = doc.configurable_children as { stock: unknown }[]
  return {
    configurable_children: children.map((c) => ({ ...c, rts_qty: ready(c.stock) })),
    rts_qty: ready(doc.stock),
    rts_delivery_time: fromStock ? READY_TO_SHIP_DELIVERY : null,
  }
}

/** Stock not counted: asked for a virtual product (a service, an e-gift) only. */
const unlimited = (input: AuthoringInput) =>
  input.type_id === 'virtual' &&
  input.stock_unlimited !== undefined &&
  String(input.stock_unlimited) !== 'false'

/** A virtual product is not shipped: it has no weight and no sizes (so no size chart). */
function refuseUnshipped(input: AuthoringInput) {
  if (input.type_id !== 'virtual') return
  if (input.weight) refuseField(400, 'weight', 'a virtual product is not shipped: leave its weight empty')
  if (input.size_guide)
    refuseField(400, 'size_guide', 'a virtual product has no sizes: leave its size chart empty')
}

interface PlacedCategory {
  id: number
  name: string
  slug: string
  url_path: string
}

/**
 * The categories a product is listed in: the primary one (`category_id`: its address, breadcrumbs
 * and canonical URL) first, then the others ticked or listed, each once; every one must exist.
 */
async function placedCategories(
  db: D1Database,
  input: AuthoringInput & Record<string, unknown>,
): Promise<PlacedCategory[]> {
  const ticked = Object.keys(input)
    .map((k) => /^also_category_(\d{1,10})$/.exec(k))
    .filter((m) => m !== null && input[m[0]] !== 'false')
    .map((m) => Number((m as RegExpExecArray)[1]))
  const ids = [...new Set([input.category_id, ...(input.category_ids ?? []), ...ticked])]
  if (ids.length > MAX_CATEGORIES) refuseField(400, 'category_ids', `at most ${MAX_CATEGORIES} categories`)
  const { results } = await db
    .prepare('SELECT id, name, slug, url_path FROM categories WHERE id IN (SELECT value FROM json_each(?1))')
    .bind(JSON.stringify(ids))
    .all<PlacedCategory>()
  const found = new Map(results.map((k) => [k.id, k]))
  if (!found.has(input.category_id))
    refuseField(400, 'category_id', `there is no category ${input.category_id}`)
  const missing = ids.find((id) => !found.has(id))
  if (missing !== undefined) refuseField(400, 'category_ids', `there is no category ${missing}`)
  return ids.map((id) => found.get(id) as PlacedCategory)
}

/** The statement that refuses the batch when the product moved past `revision`, or its SKU was taken (compare-and-set). */
export function revisionGuard(db: D1Database, id: number, revision: number, sku: string) {
  return db
    .prepare(
      `INSERT OR REPLACE INTO product_revisions (product_id, revision)
       SELECT ?1, -1 WHERE COALESCE((SELECT revision FROM product_revisions WHERE product_id = ?1), 0) <> ?2
         OR EXISTS (SELECT 1 FROM products WHERE sku = ?3 AND id <> ?1)`,
    )
    .bind(id, revision, sku)
}

export const STALE =
  'this product was saved by someone else after you opened it; open it again to see their changes, then make yours'

/**
 * Creates (id null) or edits a product from the authoring form; answers its id, SKU, revision and
 * URL. Refusals name the field; a stale edit is a 409 and writes nothing.
 */
export async function saveAuthoredProduct(
  env: Env,
  id: number | null,
  input: AuthoringInput & Record<string, unknown>,
  actor: string,
  now: number,
) {
  const db = env.DB
  const before = id === null ? null : await authoringProduct(db, id)
  if (before && before.doc.sku !== input.sku)
    refuseField(400, 'sku', 'the SKU of a product cannot change once created')
  if (before && before.doc.type_id !== input.type_id)
    refuseField(400, 'type_id', 'the type of a product cannot change once created')
  if (before && input.revision !== before.revision) refuseField(409, 'revision', STALE)
  refuseUnshipped(input)
  const categories = await placedCategories(db, input)
  const productId =
    id ??
    Number(
      (await db.prepare('SELECT COALESCE(MAX(id), 0) + 1 AS id FROM products').first<{ id: number }>())?.id ??
        1,
    )
  if (
    input.size_guide &&
    !(await db.prepare('SELECT 1 FROM size_guides WHERE code = ?1').bind(input.size_guide).first())
  )
    refuseField(400, 'size_guide', `there is no size chart ${input.size_guide}`)
  const options = input.type_id === 'configurable' ? await matrixOptions(db) : { colours: [], sizes: [] }
  const set =
    input.type_id === 'grouped' || input.type_id === 'bundle'
      ? await planSet(db, input.type_id, input, input.sku, productId)
      : null
  const described = await productDescription(
    db,
    input,
    (before?.doc as Record<string, unknown> | undefined) ?? null,
  )
  const attributes = attributeValues(input, await pickableAttributes(db))
  const doc = buildDocument(productId, input, categories, options, before, set, described, attributes, now)
  // A SKU (the product's or a variant's) and a URL belong to one product.
  const skus = [doc.sku, ...doc.configurable_children.map((c) => c.sku)]
  const taken = await db
    .prepare(
      `SELECT sku FROM products WHERE sku IN (SELECT value FROM json_each(?1)) AND id <> ?2
       UNION SELECT sku FROM inventory WHERE sku IN (SELECT value FROM json_each(?1)) AND product_id <> ?2
         AND COALESCE(parent_sku, '') <> ?3`,
    )
    .bind(JSON.stringify(skus), productId, doc.sku)
    .first<{ sku: string }>()
  if (taken) {
    const child = doc.configurable_children.find((c) => c.sku === taken.sku)
    refuseField(
      400,
      child ? variantField(Number(child.color), Number(child.size), 'sku') : 'sku',
      `SKU ${taken.sku} is already another product's`,
    )
  }
  const [key, mapping] = productMapping(doc)
  const addressRefusal = await addressTaken(env, key, productId)
  if (addressRefusal) refuseField(400, 'url_key', addressRefusal)
  try {
    await db.batch([
      revisionGuard(db, productId, before?.revision ?? 0, doc.sku),
      ...writeProductStatements(db, doc),
      // Every category it enters or leaves counts its listed products again (the menu shows by it).
      categoryCountStatement(db, [...new Set([...(before?.doc.category_ids ?? []), ...doc.category_ids])]),
      auditStatement(
        db,
        {
          actor,
          action: before ? 'product.edit' : 'product.create',
          target: `product:${doc.sku}`,
          before: before
            ? { status: before.doc.status, price: before.doc.price, url_path: before.doc.url_path }
            : null,
          after: { status: doc.status, price: doc.price, url_path: doc.url_path, variants: skus.length - 1 },
        },
        now,
      ),
    ])
  } catch (err) {
    if (/stale_edit|UNIQUE constraint failed: product_revisions/.test(String(err)))
      refuseField(409, 'revision', STALE)
    throw err
  }
  // The dispatcher's address: written when published, removed for a draft or a moved product.
  const oldKey = before ? urlMappingKey(before.doc.url_path) : null
  if (oldKey && (oldKey !== key || doc.status !== 1) && before?.doc.status === 1)
    await env.URL_MAPPINGS.delete(oldKey)
  if (doc.status === 1) await env.URL_MAPPINGS.put(key, JSON.stringify(mapping))
  if (before) await purgeProduct(env, before.doc as unknown as Record<string, unknown>)
  const purged = await purgeProduct(env, doc as unknown as Record<string, unknown>)
  const saved = {
    id: productId,
    sku: doc.sku,
    revision: (before?.revision ?? 0) + 1,
    url_path: doc.url_path,
    status: doc.status,
    purged,
  }
  return withSetsRefreshed(env, [doc.sku], saved, now)
}
