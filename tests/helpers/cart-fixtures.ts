// Catalogue fixtures for cart and order tests: unique skus/ids, tax classes of their own (12 % and
// 10 % GST, 20 % UK VAT), a bundle and a grouped product over stocked simple products, custom
// options with prices; a guest's order of the scarf, placed or paid; product links; and the first
// stocked simple product, and the first listed product of a type, of the demo catalogue.
import { env } from 'cloudflare:test'
import { expect } from 'vitest'
import { inventoryStatement, taxRuleStatement } from '../../scripts/catalogue/seed/write'
import { transitionOrder } from '../../worker/api/order/lifecycle'
import { freshEmail, newOrderId, orderBody, testAddress } from './orders'
import { SIZE_S_M } from './product-fixtures'
import { api } from './user'

export const TAX_CLASS = 9901
const base = <T extends Record<string, unknown>>(over: T) => ({
  status: 1,
  visibility: 4,
  created_at: '2026-01-01 00:00:00',
  updated_at: '2026-01-01 00:00:00',
  tax_class_id: TAX_CLASS,
  configurable_children: [],
  configurable_options: [],
  custom_options: [],
  bundle_options: [],
  product_links: [],
  media_gallery: [],
  category: [],
  category_ids: [],
  tier_prices: [],
  stock: { is_in_stock: true, qty: 0 },
  ...over,
})

export const SCARF = base({ id: 990101, sku: 'FX-SCARF', name: 'Silk Scarf', type_id: 'simple', price: 1000 })
export const LEHENGA = base({
  id: 990130,
  sku: 'FX-LEHENGA',
  name: 'Bridal Lehenga',
  type_id: 'simple',
  price: 6000,
})
export const GIFT = base({
  id: 990120,
  sku: 'FX-GIFT',
  name: 'Gift Card',
  type_id: 'virtual',
  price: 500,
  tax_class_id: 0,
})
export const KURTA = base({
  id: 990110,
  sku: 'FX-KURTA',
  name: 'Linen Kurta',
  type_id: 'configurable',
  price: 2000,
  configurable_options: [SIZE_S_M],
  configurable_children: [
    {
      id: 990111,
      sku: 'FX-KURTA-S',
      name: 'Linen Kurta S',
      price: 2000,
      special_price: 1500,
      size: 1,
      status: 1,
      stock: { is_in_stock: true, qty: 3 },
    },
    {
      id: 990112,
      sku: 'FX-KURTA-M',
      name: 'Linen Kurta M',
      price: 2000,
      size: 2,
      status: 1,
      stock: { is_in_stock: false, qty: 0 },
    },
  ],
})

/** Linked products of the bundle and grouped fixtures (simple, stocked). */
export const EAR_A = base({ id: 990201, sku: 'FX-EAR-A', name: 'Jhumka A', type_id: 'simple', price: 2000 })
export const EAR_B = base({ id: 990202, sku: 'FX-EAR-B', name: 'Jhumka B', type_id: 'simple', price: 3000 })
export const BAG_A = base({ id: 990203, sku: 'FX-BAG-A', name: 'Potli A', type_id: 'simple', price: 1500 })
export const BAG_B = base({ id: 990204, sku: 'FX-BAG-B', name: 'Potli B', type_id: 'simple', price: 2500 })
const link = (id: number, p: { sku: string; name: string; price: number }, isDefault = false) => ({
  id,
  sku: p.sku,
  qty: 1,
  is_default: isDefault,
  price: p.price,
  product: { name: p.name, price: p.price },
})
/** Two required options (earrings, bag) and an optional one (scarf); default price 3500 excl. tax. */
export const BUNDLE = base({
  id: 990210,
  sku: 'FX-BUNDLE',
  name: 'Festive Bundle',
  type_id: 'bundle',
  price: 3500,
  stock: { is_in_stock: true, qty: 1 },
  bundle_options: [
    {
      option_id: 99021,
      title: 'Earrings',
      required: true,
      type: 'radio',
      sku: 'FX-BUNDLE',
      product_links: [link(9902101, EAR_A, true), link(9902102, EAR_B)],
    },
    {
      option_id: 99022,
      title: 'Bag',
      required: true,
      type: 'radio',
      sku: 'FX-BUNDLE',
      product_links: [link(9902201, BAG_A, true), link(9902202, BAG_B)],
    },
    {
      option_id: 99023,
      title: 'Scarf',
      required: false,
      type: 'radio',
      sku: 'FX-BUNDLE',
      product_links: [link(9902301, { sku: 'FX-SCARF', name: 'Silk Scarf', price: 1000 })],
    },
  ],
})
/** Associated products FX-EAR-A and FX-BAG-A, one of each: 3500 excl. tax. */
export const GROUPED = base({
  id: 990220,
  sku: 'FX-GROUPED',
  name: 'Gift Set',
  type_id: 'grouped',
  price: 3500,
  stock: { is_in_stock: true, qty: 1 },
  product_links: [EAR_A, BAG_A].map((p, i) => ({
    sku: 'FX-GROUPED',
    link_type: 'associated',
    linked_product_sku: p.sku,
    linked_product_type: 'simple',
    position: i,
    product: { name: p.name, price: p.price, sku: p.sku },
  })),
})
export const TAX_CLASS_10 = 9902
/** ₹1,000 at 10 % with a ₹100 engraving and a 10 %-of-price finish. */
export const ENGRAVED = base({
  id: 990230,
  sku: 'FX-ENGRAVED',
  name: 'Engraved Cuff',
  type_id: 'simple',
  price: 1000,
  tax_class_id: TAX_CLASS_10,
  custom_options: [
    {
      option_id: 99031,
      title: 'Engraving',
      type: 'field',
      is_require: false,
      price: 100,
      price_type: 'fixed',
      values: [],
    },
    {
      option_id: 99032,
      title: 'Finish',
      type: 'drop_down',
      is_require: false,
      price: null,
      price_type: null,
      values: [
        { option_type_id: 9903201, title: 'Matte', price: 0, price_type: 'fixed', sort_order: 0 },
        { option_type_id: 9903202, title: 'Gloss', price: 10, price_type: 'percent', sort_order: 1 },
      ],
    },
  ],
})

/** A cart line's product option choosing pieces of a bundle (of BUNDLE: 99021 earrings, 99022 bags). */
export const bundleOption = (
  choices: { option_id: unknown; option_qty?: unknown; option_selections?: unknown[] }[],
) => ({
  extension_attributes: { configurable_item_options: [], custom_options: [], bundle_options: choices },
})

/** BUNDLE with one pair of earrings and one bag, chosen by their selection ids. */
export const onePieceEach = (earrings: number, bag: number) =>
  bundleOption([
    { option_id: 99021, option_qty: 1, option_selections: [earrings] },
    { option_id: 99022, option_qty: 1, option_selections: [bag] },
  ])

const INVENTORY: [string, number, string | null, number, number][] = [
  ['FX-SCARF', 990101, null, 5, 1],
  ['FX-LEHENGA', 990130, null, 10, 1],
  ['FX-GIFT', 990120, null, 100, 1],
  ['FX-KURTA-S', 990111, 'FX-KURTA', 3, 1],
  ['FX-KURTA-M', 990112, 'FX-KURTA', 0, 0],
  ['FX-EAR-A', 990201, null, 5, 1],
  ['FX-EAR-B', 990202, null, 2, 1],
  ['FX-BAG-A', 990203, null, 6, 1],
  ['FX-BAG-B', 990204, null, 0, 0],
  ['FX-ENGRAVED', 990230, null, 50, 1],
]

/**
 * A statement that inserts (or resets) a fixture product's row. The document carries its address
 * like every stored product (the writer rewrites it).
 */
export function fixtureProductStatement(
  db: D1Database,
  p: { id: number; sku: string; type_id: string; name: string; price: number },
) {
  const path = p.sku.toLowerCase()
  return db
    .prepare(
      `INSERT OR REPLACE INTO products (id, sku, type_id, name, price, created_at, updated_at, url_path, slug, doc)
       VALUES (?, ?, ?, ?, ?, '2026-01-01 00:00:00', '2026-01-01 00:00:00', ?, ?, ?)`,
    )
    .bind(
      p.id,
      p.sku,
      p.type_id,
      p.name,
      p.price,
      path,
      path,
      JSON.stringify({ url_path: path, slug: path, ...p }),
    )
}

/** Inserts (or resets) the fixture products, their stock and the fixture tax rule. */
export async function seedCartFixtures() {
  const db = env.DB
  const statements = [SCARF, LEHENGA, GIFT, KURTA, EAR_A, EAR_B, BAG_A, BAG_B, BUNDLE, GROUPED, ENGRAVED].map(
    (p) => fixtureProductStatement(db, p),
  )
  for (const [sku, product_id, parent_sku, qty, inStock] of INVENTORY)
    statements.push(inventoryStatement(db, { sku, product_id, parent_sku, qty, is_in_stock: inStock === 1 }))
  // The fixture classes' rules: GST at their own rate at home, 20 % VAT in the UK.
  for (const [id, taxClass, rate] of [
    [9901, TAX_CLASS, 12],
    [9902, TAX_CLASS_10, 10],
  ] as const) {
    statements.push(
      taxRuleStatement(db, {
        id,
        code: `FX-GST${rate}`,
        priority: 0,
        product_tax_class_ids: [taxClass],
        customer_tax_class_ids: [3],
        rates: [
          { rate, code: `IN-GST-${rate}`, tax_country_id: 'IN' },
          { rate: 20, code: 'GB-VAT-20', tax_country_id: 'GB' },
        ],
      }),
    )
  }
  await db.batch(statements)
}

export async function stockOf(sku: string): Promise<number | undefined> {
  const row = await env.DB.prepare('SELECT qty FROM inventory WHERE sku = ?')
    .bind(sku)
    .first<{ qty: number }>()
  return row?.qty
}

/** A guest's order through POST /api/order/get (the access key travels in the body only). */
export function guestOrder(orderId: string, accessKey: string) {
  return api('/order/get', { body: { orderId, accessKey } })
}

/** How `placeScarves` places its order: how many scarves, the payment, the shopper's e-mail and phone. */
type ScarfOrder = { qty?: number; payment?: string; email?: string; telephone?: string }

/**
 * A guest's order of scarves (one, cash on delivery, a fresh e-mail unless told) delivered to
 * Bengaluru, checked placed: its client id, e-mail, order number and total (paise).
 */
export async function placeScarves({
  qty = 1,
  payment,
  email = freshEmail('scarves'),
  telephone,
}: ScarfOrder = {}) {
  const orderId = newOrderId('scarves')
  const address = testAddress(email, telephone ? { telephone } : {})
  const res = await api('/order', {
    body: orderBody(orderId, [{ sku: 'FX-SCARF', qty, price: 1 }], address, { payment }),
  })
  expect(res.status, JSON.stringify(res.json)).toBe(200)
  const row = await env.DB.prepare(
    'SELECT increment_id, grand_total_minor FROM orders WHERE client_order_id = ?',
  )
    .bind(orderId)
    .first<{ increment_id: string; grand_total_minor: number }>()
  return { orderId, email, number: row?.increment_id as string, total: row?.grand_total_minor as number }
}

/** A card order of scarves whose payment arrived (what the payment provider's confirmation does). */
export async function paidScarves(order: Omit<ScarfOrder, 'payment'> = {}) {
  const o = await placeScarves({ ...order, payment: 'card' })
  const paid = await transitionOrder(
    env.DB,
    {
      orderId: o.orderId,
      to: 'processing',
      actor: 'provider:test',
      paymentState: 'paid',
      paidMinor: o.total,
    },
    Date.now(),
  )
  expect(paid.changed).toBe(true)
  return o
}

/** A product link (related, upsell, crosssell) from `sku` to `target`, as the catalogue stores it. */
export const productLink = (
  sku: string,
  target: string,
  type: string,
  position: number,
  targetType = 'simple',
) => ({
  sku,
  link_type: type,
  linked_product_sku: target,
  linked_product_type: targetType,
  position,
})

/** Replaces a stored product's links and bumps the catalogue version, so no memo keeps the old ones. */
export async function setProductLinks(sku: string, links: unknown[]) {
  await env.DB.batch([
    env.DB.prepare(`UPDATE products SET doc = json_set(doc, '$.product_links', json(?)) WHERE sku = ?`).bind(
      JSON.stringify(links),
      sku,
    ),
    env.DB.prepare(`UPDATE search_meta SET value = value + 1 WHERE key = 'version'`),
  ])
}

/** The first listed simple product of the demo catalogue with more than five in stock. */
export async function stockedDemoProduct() {
  const row = await env.DB.prepare(
    `SELECT p.id, p.sku, p.slug, p.url_path FROM products p JOIN inventory i ON i.sku = p.sku
     WHERE p.status = 1 AND p.visibility = 4 AND p.type_id = 'simple' AND i.qty > 5 AND i.is_in_stock = 1
     ORDER BY p.id LIMIT 1`,
  ).first<{ id: number; sku: string; slug: string; url_path: string }>()
  if (!row) throw new Error('the demo catalogue has a listed simple product in stock')
  return row
}

/** The stored document of the first listed (enabled, visible) product of `type` in the demo catalogue. */
export async function firstListedDemoProduct<T>(
  type: 'simple' | 'configurable' | 'grouped' | 'bundle',
): Promise<T> {
  const row = await env.DB.prepare(
    'SELECT doc FROM products WHERE type_id = ? AND status = 1 AND visibility = 4 ORDER BY id LIMIT 1',
  )
    .bind(type)
    .first<{ doc: string }>()
  if (!row) throw new Error(`the demo catalogue has a listed ${type} product`)
  return JSON.parse(row.doc) as T
}
