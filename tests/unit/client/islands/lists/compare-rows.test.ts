// The compare table's garment rows: read from each piece's catalogue product, in words, a row
// nobody has left out and a piece without the value blank (the page shows a dash).
import { ProductSchema } from '@shared/schemas/catalog'
import { describe, expect, it } from 'vitest'
import { garmentRows } from '../../../../../client/islands/lists/compare-rows'
import { SILK_SAREE, SIZE_S_M } from '../../../../helpers/product-fixtures'

const kurta = ProductSchema.parse({
  ...SILK_SAREE,
  sku: 'KURTA',
  type_id: 'configurable',
  fabric: 'Handloom cotton',
  care: 'Hand wash cold',
  designer_name: 'Anaya',
  delivery_days: 14,
  configurable_options: [SIZE_S_M],
  configurable_children: [
    { id: 11, sku: 'KURTA-S', price: 1000, size: 1, status: 1, stock: { is_in_stock: true, qty: 2 } },
    { id: 12, sku: 'KURTA-M', price: 1000, size: 2, status: 1, stock: { is_in_stock: false, qty: 0 } },
  ],
})
const readyScarf = ProductSchema.parse({
  ...SILK_SAREE,
  sku: 'SCARF',
  fabric: 'Mulberry silk',
  rts_qty: 3,
  rts_delivery_time: '2-3 business days',
})

describe('garmentRows', () => {
  it('names fabric, care, made to order or ready to ship, and the sizes in stock', () => {
    const rows = garmentRows([kurta, readyScarf, null])
    const byKey = Object.fromEntries(rows.map((r) => [r.key, r.values]))
    expect(byKey.fabric).toEqual(['Handloom cotton', 'Mulberry silk', ''])
    expect(byKey.care).toEqual(['Hand wash cold', '', ''])
    expect(byKey.designer).toEqual(['Anaya', '', ''])
    expect(byKey.make).toEqual([
      'Made to order: ships in about 14 days',
      'Ready to ship: 2-3 business days',
      '',
    ])
    expect(byKey.sizes).toEqual(['S (sold out: M)', 'One size', ''])
  })

  it('leaves out a row no compared piece has a value for', () => {
    const rows = garmentRows([readyScarf])
    expect(rows.map((r) => r.key)).not.toContain('care')
    expect(rows.map((r) => r.key)).toContain('fabric')
  })
})
