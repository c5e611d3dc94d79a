import { describe, expect, it } from 'vitest'
import { type Product, ProductSchema } from '../../../../../shared/schemas/catalog'
import { sizeGuideCodes, toSizeGuide } from '../../../../../worker/pages/product/loader'

describe('size guide documents', () => {
  it.each([
    [
      {
        code: 'kurta',
        title: 'Kurta size guide',
        columns: ['Size', 'Bust'],
        rows: [['S', '34']],
        note: 'Inches.',
      },
      {
        code: 'kurta',
        title: 'Kurta size guide',
        rows: [
          ['Size', 'Bust'],
          ['S', '34'],
        ],
        note: 'Inches.',
      },
    ],
    [
      { code: 'x', name: 'Shoes', headers: ['UK', 'EU'], rows: [[6, 39]] },
      {
        code: 'x',
        title: 'Shoes',
        rows: [
          ['UK', 'EU'],
          ['6', '39'],
        ],
        note: undefined,
      },
    ],
    [{ code: 'empty', rows: [] }, null],
    [null, null],
    ['not an object', null],
  ])('toSizeGuide(%#)', (doc, expected) => {
    expect(toSizeGuide(doc)).toEqual(expected)
  })

  it("uses the product's size_guide code first, then its categories' slugs", () => {
    const p = ProductSchema.parse({
      id: 1,
      sku: 'K1',
      name: 'Kurta',
      type_id: 'configurable',
      price: 100,
      status: 1,
      visibility: 4,
      created_at: '2026-01-01',
      updated_at: '2026-01-01',
      url_key: 'k',
      url_path: 'k',
      slug: 'k',
      stock: { qty: 1, is_in_stock: true },
      category: [{ category_id: 12, name: 'Kurtas', slug: 'kurtas' }],
      size_guide: 'kurta',
    }) as Product
    expect(sizeGuideCodes(p)).toEqual(['kurta', 'kurtas'])
    // The designer's chart comes between the product's own and its category's.
    expect(sizeGuideCodes(p, 'Ritu  Kumar & Co.')).toEqual(['kurta', 'designer-ritu-kumar-co', 'kurtas'])
  })
})
