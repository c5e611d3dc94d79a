// What a wishlist piece can be moved to the bag as: its sizes with the sold-out ones marked, a
// plain piece as itself, and in words when it is sold out, gone or needs its own page.
import { ProductSchema } from '@shared/schemas/catalog'
import { describe, expect, it } from 'vitest'
import { bagOffer } from '../../../../../client/islands/lists/bag-choices'
import { SILK_SAREE, SIZE_S_M } from '../../../../helpers/product-fixtures'

const kurta = (sStock: number, mStock: number) =>
  ProductSchema.parse({
    ...SILK_SAREE,
    sku: 'KURTA',
    type_id: 'configurable',
    configurable_options: [SIZE_S_M],
    configurable_children: [
      {
        id: 11,
        sku: 'KURTA-S',
        price: 1000,
        size: 1,
        status: 1,
        stock: { is_in_stock: sStock > 0, qty: sStock },
      },
      {
        id: 12,
        sku: 'KURTA-M',
        price: 1000,
        size: 2,
        status: 1,
        stock: { is_in_stock: mStock > 0, qty: mStock },
      },
    ],
  })

describe('bagOffer', () => {
  it('lists a configurable piece by size, a sold-out size marked, with the options the cart stores', () => {
    const offer = bagOffer(kurta(3, 0))
    expect(offer.kind).toBe('sizes')
    if (offer.kind !== 'sizes') return
    expect(offer.label).toBe('Size')
    expect(offer.choices.map((c) => [c.sku, c.label, c.soldOut])).toEqual([
      ['KURTA-S', 'S', false],
      ['KURTA-M', 'M', true],
    ])
    expect(offer.choices[0]?.productOption).toEqual({
      extension_attributes: {
        configurable_item_options: [{ option_id: '142', option_value: '1', label: 'Size', value: 'S' }],
        custom_options: [],
        bundle_options: [],
      },
    })
  })

  it('says sold out when no size is left, gone when the piece is not in the catalogue', () => {
    expect(bagOffer(kurta(0, 0))).toEqual({ kind: 'sold-out' })
    expect(bagOffer(null)).toEqual({ kind: 'gone' })
    expect(bagOffer(ProductSchema.parse({ ...SILK_SAREE, status: 2 }))).toEqual({ kind: 'gone' })
  })

  it('moves a plain piece as itself unless sold out; a piece with text options is chosen on its page', () => {
    const saree = ProductSchema.parse(SILK_SAREE)
    expect(bagOffer(saree)).toEqual({ kind: 'piece', sku: saree.sku })
    expect(bagOffer(ProductSchema.parse({ ...SILK_SAREE, stock: { is_in_stock: false, qty: 0 } }))).toEqual({
      kind: 'sold-out',
    })
    const engraved = ProductSchema.parse({
      ...SILK_SAREE,
      custom_options: [{ option_id: 1, title: 'Engraving', type: 'field', is_require: false, values: [] }],
    })
    expect(bagOffer(engraved)).toEqual({ kind: 'on-page' })
  })
})
