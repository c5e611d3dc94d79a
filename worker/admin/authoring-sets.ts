/**
 * The members of a grouped product and the options of a bundle, as the authoring form lists them,
 * turned into the document fields the shop, the cart and the importer read (`product_links` and
 * `bundle_options`, each link carrying its member's name, price and tax fields). The rules:
 * - A member is an existing simple or virtual product: a grouped, bundle or configurable product
 *   has no single stock row a set could sell from, so it is refused beside its field, as is a SKU
 *   that names no product, the set itself, or a SKU listed twice.
 * - A grouped product lists 1 to MAX_MEMBERS members in the order of the rows, each with the
 *   quantity the shop's form starts at (1 to MAX_SET_QTY).
 * - A bundle has 1 to MAX_BUNDLE_OPTIONS options; each names 1 to MAX_OPTION_CHOICES members, may
 *   be required, has a default (one of its members; blank: the first) and a quantity.
 * - The set's price is its members' prices: every member once for a grouped product, each option's
 *   default × its quantity for a bundle. It is in stock when a member is.
 * - A set shows its members as they are now: each link carries a copy of its member's name, price
 *   and tax fields (what the listing, the search index, the page and the cart price it from), and
 *   every back-office write of a product rewrites the sets that list it with their members' current
 *   copies and price (refreshSetsListing), so tile, page and bag follow a member's new price or name
 *   at once, with no extra read on any shop page.
 */
import { finalPrice } from '@shared/domain/price-window'
import type { BundleOption, Product, ProductLink } from '@shared/schemas/catalog'
import type { z } from 'zod'
import { productDocumentStatements } from '../catalog/writer'
import { digits, refuseField, skuText, text } from './authoring-fields'
import { purgeProduct } from './catalogue'

export const MAX_MEMBERS = 20
export const MAX_BUNDLE_OPTIONS = 6
const MAX_OPTION_CHOICES = 9
const MAX_SET_QTY = 99

/** The form's name of a grouped member's field (rows from 1, in the shop's order). */
export const memberField = (row: number, field: 'sku' | 'qty') => `member_${row}_${field}`
/** The form's name of a bundle option's field (rows from 1). */
export const optionField = (row: number, field: 'title' | 'required' | 'skus' | 'default' | 'qty') =>
  `opt_${row}_${field}`

type Input = Record<string, unknown>

function read<T>(input: Input, name: string, schema: z.ZodType<T>): T | undefined {
  const raw = input[name]
  if (raw === undefined || raw === '') return undefined
  const parsed = schema.safeParse(raw)
  if (!parsed.success) refuseField(400, name, parsed.error.issues[0]?.message ?? `${name} is not valid`)
  return parsed.data
}

const qtyOf = (input: Input, name: string, label: string) => {
  const qty = read(input, name, digits(label, MAX_SET_QTY)) ?? 1
  if (qty < 1) refuseField(400, name, `${label} must be at least 1`)
  return qty
}

/** What a link carries of its member: the shop prices and taxes the piece from it. */
const pieceOf = (d: Product) => ({
  name: d.name,
  price: d.price,
  special_price: d.special_price ?? null,
  special_from_date: d.special_from_date ?? null,
  special_to_date: d.special_to_date ?? null,
  tax_class_id: d.tax_class_id ?? null,
  hsn_code: d.hsn_code ?? null,
})

type Member = ReturnType<typeof pieceOf> & { sku: string; type_id: string; in_stock: boolean }

/** The products named by `skus` (any case), by upper-cased SKU. */
async function membersBySku(db: D1Database, skus: string[]): Promise<Map<string, Member>> {
  if (skus.length === 0) return new Map()
  const { results } = await db
    .prepare(
      `SELECT p.sku, p.type_id, p.doc, COALESCE(i.qty > 0 OR i.manage_stock = 0 OR i.backorders > 0, 0) AS live
       FROM products p LEFT JOIN inventory i ON i.sku = p.sku
       WHERE UPPER(p.sku) IN (SELECT UPPER(value) FROM json_each(?1))`,
    )
    .bind(JSON.stringify(skus))
    .all<{ sku: string; type_id: string; doc: string; live: number }>()
  return new Map(
    results.map((r) => {
      const d = JSON.parse(r.doc) as Product
      const member: Member = {
        ...pieceOf(d),
        sku: r.sku,
        type_id: r.type_id,
        in_stock: r.live === 1 && d.stock.is_in_stock !== false,
      }
      return [r.sku.toUpperCase(), member] as const
    }),
  )
}

/** The member `sku` names, or a refusal beside `field`. */
function memberOf(found: Map<string, Member>, sku: string, field: string, setSku: string): Member {
  if (sku.toUpperCase() === setSku.toUpperCase()) refuseField(400, field, 'a set cannot list itself')
  const m = found.get(sku.toUpperCase())
  if (!m) refuseField(400, field, `there is no product ${sku}`)
  if (m.type_id !== 'simple' && m.type_id !== 'virtual')
    refuseField(400, field, `${m.sku} is a ${m.type_id} product; a set lists simple or virtual products only`)
  return m
}

/** A member's piece fields (without its SKU, type and stock). */
const piece = ({ sku: _sku, type_id: _type, in_stock: _stock, ...fields }: Member) => fields

/** A sum of rupee amounts, to the paisa (no float residue in the stored price). */
const rupeeSum = (amounts: number[]) => amounts.reduce((n, a) => n + Math.round(a * 100), 0) / 100

/** A set's price from its links: every grouped member once, each bundle option's default × its quantity. */
function setPrice(links: readonly ProductLink[], options: readonly BundleOption[]): number {
  return rupeeSum([
    ...links.map((l) => l.product?.price ?? 0),
    ...options.map((o) => {
      const d = o.product_links.find((l) => l.is_default)
      return (d?.price ?? 0) * (d?.qty ?? 1)
    }),
  ])
}

export interface SetPlan {
  product_links: ProductLink[]
  bundle_options: BundleOption[]
  /** The set's price in rupees (the document's unit). */
  price: number
  inStock: boolean
}

/** The grouped product's members from the form's rows. */
async function groupedPlan(db: D1Database, input: Input, setSku: string): Promise<SetPlan> {
  const rows: { row: number; sku: string; qty: number }[] = []
  for (let row = 1; row <= MAX_MEMBERS; row++) {
    const sku = read(input, memberField(row, 'sku'), skuText(`product ${row}`))
    if (sku === undefined) continue
    rows.push({ row, sku, qty: qtyOf(input, memberField(row, 'qty'), `quantity of ${sku}`) })
  }
  if (rows.length === 0) refuseField(400, 'members', 'list at least one product in the set')
  const seen = new Set<string>()
  for (const r of rows) {
    if (seen.has(r.sku.toUpperCase())) refuseField(400, memberField(r.row, 'sku'), `${r.sku} is listed twice`)
    seen.add(r.sku.toUpperCase())
  }
  const found = await membersBySku(
    db,
    rows.map((r) => r.sku),
  )
  const members = rows.map((r) => ({ ...r, m: memberOf(found, r.sku, memberField(r.row, 'sku'), setSku) }))
  const product_links: ProductLink[] = members.map(({ m, qty }, position) => ({
    sku: setSku,
    link_type: 'associated',
    linked_product_sku: m.sku,
    linked_product_type: m.type_id,
    position,
    qty,
    product: { ...piece(m), sku: m.sku },
  }))
  return {
    product_links,
    bundle_options: [],
    price: setPrice(product_links, []),
    inStock: members.some(({ m }) => m.in_stock),
  }
}

/** The bundle's options from the form's rows; option and link ids are the product's id × 10 / × 100 plus their rows. */
async function bundlePlan(db: D1Database, input: Input, setSku: string, productId: number): Promise<SetPlan> {
  const rows: {
    row: number
    title: string
    required: boolean
    skus: string[]
    def: string | undefined
    qty: number
  }[] = []
  for (let row = 1; row <= MAX_BUNDLE_OPTIONS; row++) {
    const title = read(input, optionField(row, 'title'), text(`option ${row}'s name`, 100))
    const list = read(input, optionField(row, 'skus'), text(`products of option ${row}`, 2000))
    if (!title && !list) continue
    if (!title) refuseField(400, optionField(row, 'title'), `name option ${row} (e.g. Earrings)`)
    const skus = (list ?? '')
      .split(/[,;\n]+/)
      .map((s) => s.trim())
      .filter(Boolean)
    if (skus.length === 0) refuseField(400, optionField(row, 'skus'), `list the products of ${title}`)
    if (skus.length > MAX_OPTION_CHOICES)
      refuseField(400, optionField(row, 'skus'), `at most ${MAX_OPTION_CHOICES} products in one option`)
    const bad = skus.find((s) => !skuText('SKU').safeParse(s).success)
    if (bad) refuseField(400, optionField(row, 'skus'), `${bad.slice(0, 64)} is not a SKU`)
    const seen = new Set<string>()
    for (const s of skus) {
      if (seen.has(s.toUpperCase())) refuseField(400, optionField(row, 'skus'), `${s} is listed twice`)
      seen.add(s.toUpperCase())
    }
    const def = read(input, optionField(row, 'default'), skuText(`default of ${title}`))
    if (def && !seen.has(def.toUpperCase()))
      refuseField(400, optionField(row, 'default'), `the default must be one of the products of ${title}`)
    const flag = input[optionField(row, 'required')]
    rows.push({
      row,
      title,
      required: flag !== undefined && flag !== 'false' && flag !== false,
      skus,
      def,
      qty: qtyOf(input, optionField(row, 'qty'), `quantity of ${title}`),
    })
  }
  if (rows.length === 0) refuseField(400, 'options', 'add at least one option with its products')
  const found = await membersBySku(
    db,
    rows.flatMap((r) => r.skus),
  )
  const options: BundleOption[] = rows.map((r) => {
    const defIndex = r.def ? r.skus.findIndex((s) => s.toUpperCase() === r.def?.toUpperCase()) : 0
    return {
      option_id: productId * 10 + r.row,
      title: r.title,
      required: r.required,
      type: 'radio',
      sku: setSku,
      product_links: r.skus.map((s, k) => {
        const m = memberOf(found, s, optionField(r.row, 'skus'), setSku)
        return {
          id: productId * 100 + r.row * 10 + k + 1,
          sku: m.sku,
          qty: r.qty,
          is_default: k === defIndex,
          price: m.price,
          product: piece(m),
        }
      }),
    }
  })
  const price = setPrice([], options)
  const sellable = (o: BundleOption) => o.product_links.some((l) => found.get(l.sku.toUpperCase())?.in_stock)
  const required = options.filter((o) => o.required)
  const inStock = required.length ? required.every(sellable) : options.some(sellable)
  return { product_links: [], bundle_options: options, price, inStock }
}

/** The set the form describes for a grouped or bundle product (refusals beside the fields). */
export function planSet(
  db: D1Database,
  type: 'grouped' | 'bundle',
  input: Input,
  setSku: string,
  productId: number,
): Promise<SetPlan> {
  return type === 'grouped' ? groupedPlan(db, input, setSku) : bundlePlan(db, input, setSku, productId)
}

/** The products a set may list (simple and virtual, by SKU), offered as the form's choices; none for other types. */
export async function setMemberChoices(
  db: D1Database,
  type: string,
): Promise<{ sku: string; name: string }[]> {
  if (type !== 'grouped' && type !== 'bundle') return []
  const { results } = await db
    .prepare("SELECT sku, name FROM products WHERE type_id IN ('simple', 'virtual') ORDER BY sku LIMIT 1000")
    .all<{ sku: string; name: string }>()
  return results
}

/** At most this many sets are rewritten after one write (a member is rarely in more than a few). */
const MAX_SETS_REFRESHED = 200

/** The grouped and bundle products that list one of `skus`. */
async function setsListing(db: D1Database, skus: readonly string[]): Promise<Product[]> {
  const { results } = await db
    .prepare(
      `SELECT p.doc FROM products p WHERE p.type_id IN ('grouped', 'bundle') AND (
         EXISTS (SELECT 1 FROM json_each(p.doc, '$.product_links') l
                 WHERE json_extract(l.value, '$.linked_product_sku') IN (SELECT value FROM json_each(?1)))
         OR EXISTS (SELECT 1 FROM json_each(p.doc, '$.bundle_options') o, json_each(o.value, '$.product_links') l
                 WHERE json_extract(l.value, '$.sku') IN (SELECT value FROM json_each(?1))))
       ORDER BY p.id LIMIT ${MAX_SETS_REFRESHED}`,
    )
    .bind(JSON.stringify(skus))
    .all<{ doc: string }>()
  return results.map((r) => JSON.parse(r.doc) as Product)
}

/** `set` with each link's copy of its member as the member is now; null when nothing changed. */
function withCurrentMembers(set: Product, members: Map<string, Member>, now: number): Product | null {
  const current = (sku: string) => {
    const m = members.get(sku.toUpperCase())
    return m ? piece(m) : null
  }
  const product_links = set.product_links.map((l) => {
    const m = current(l.linked_product_sku)
    return m && l.product ? { ...l, product: { ...l.product, ...m } } : l
  })
  const bundle_options = set.bundle_options.map((o) => ({
    ...o,
    product_links: o.product_links.map((l) => {
      const m = current(l.sku)
      return m ? { ...l, price: m.price, product: { ...l.product, ...m } } : l
    }),
  }))
  const next = { ...set, product_links, bundle_options, price: setPrice(product_links, bundle_options) }
  next.final_price = finalPrice(next, now)
  return JSON.stringify(next) === JSON.stringify(set) ? null : next
}

/**
 * After products `skus` were written: rewrites every set listing one of them with its members'
 * current name, price and tax fields (read now, after the write, so the last write's figures win)
 * and purges the sets' pages. Answers how many cached pages were purged.
 */
async function refreshSetsListing(env: Env, skus: readonly string[], now: number): Promise<number> {
  if (skus.length === 0) return 0
  const sets = await setsListing(env.DB, skus)
  if (sets.length === 0) return 0
  const memberSkus = sets.flatMap((s) => [
    ...s.product_links.map((l) => l.linked_product_sku),
    ...s.bundle_options.flatMap((o) => o.product_links.map((l) => l.sku)),
  ])
  const members = await membersBySku(env.DB, [...new Set(memberSkus)])
  const changed = sets.flatMap((s) => withCurrentMembers(s, members, now) ?? [])
  if (changed.length === 0) return 0
  await env.DB.batch(changed.flatMap((s) => productDocumentStatements(env.DB, s)))
  let purged = 0
  for (const s of changed) purged += await purgeProduct(env, s as unknown as Record<string, unknown>)
  return purged
}

/**
 * The answer of a write of products `skus` once the sets listing them have followed them (the
 * sets' purged pages added to its `purged`).
 */
export async function withSetsRefreshed<T extends { purged: number }>(
  env: Env,
  skus: readonly string[],
  saved: T,
  now: number,
): Promise<T> {
  return { ...saved, purged: saved.purged + (await refreshSetsListing(env, skus, now)) }
}
