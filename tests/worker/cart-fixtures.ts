// Catalogue fixtures for cart and order tests: unique skus/ids, a 12% tax class of their own.
import { env } from 'cloudflare:test'

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
  configurable_options: [
    {
      attribute_code: 'size',
      attribute_id: 142,
      label: 'Size',
      values: [
        { value_index: 1, label: 'S' },
        { value_index: 2, label: 'M' },
      ],
    },
  ],
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

const INVENTORY: [string, number, string | null, number, number][] = [
  ['FX-SCARF', 990101, null, 5, 1],
  ['FX-LEHENGA', 990130, null, 10, 1],
  ['FX-GIFT', 990120, null, 100, 1],
  ['FX-KURTA-S', 990111, 'FX-KURTA', 3, 1],
  ['FX-KURTA-M', 990112, 'FX-KURTA', 0, 0],
]

/** Inserts (or resets) the fixture products, their stock and the fixture tax rule. */
export async function seedCartFixtures() {
  const db = env.DB
  const statements = [SCARF, LEHENGA, GIFT, KURTA].map((p) =>
    db
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
        String(p.sku).toLowerCase(),
        String(p.sku).toLowerCase(),
        JSON.stringify(p),
      ),
  )
  for (const [sku, id, parent, qty, inStock] of INVENTORY) {
    statements.push(
      db
        .prepare(
          'INSERT OR REPLACE INTO inventory (sku, product_id, parent_sku, qty, is_in_stock) VALUES (?, ?, ?, ?, ?)',
        )
        .bind(sku, id, parent, qty, inStock),
    )
  }
  statements.push(
    db.prepare('INSERT OR REPLACE INTO tax_rules (id, code, doc) VALUES (?, ?, ?)').bind(
      9901,
      'FX-GST12',
      JSON.stringify({
        id: 9901,
        code: 'FX-GST12',
        priority: 0,
        product_tax_class_ids: [TAX_CLASS],
        customer_tax_class_ids: [3],
        rates: [{ rate: 12, code: 'IN-GST-12', tax_country_id: 'IN' }],
      }),
    ),
  )
  await db.batch(statements)
}

export async function stockOf(sku: string): Promise<number | undefined> {
  const row = await env.DB.prepare('SELECT qty FROM inventory WHERE sku = ?')
    .bind(sku)
    .first<{ qty: number }>()
  return row?.qty
}
