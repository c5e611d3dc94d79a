// What the product form puts into the cart, and which colour/size choices it keeps.
import { describe, expect, it } from 'vitest'
import {
  checkOptions,
  groupedChoice,
  productCartLine,
} from '../../../../../client/islands/product/cart-lines'
import { groupedCartLines } from '../../../../../client/islands/product/grouped-links'
import { resolveChoice } from '../../../../../client/islands/product/use-variant-choice'
import { type FormProduct, toFormProduct } from '../../../../../shared/components/product/view'
import { priceView } from '../../../../../shared/domain/price'
import { MSG } from '../../../../../shared/i18n/messages'
import { ProductSchema } from '../../../../../shared/schemas/catalog'
import { COLOR_RED_BLUE, NECKLACE_LINK, SILK_SAREE, SIZE_S_M } from '../../../../helpers/product-fixtures'

const NOW = Date.UTC(2026, 5, 15, 12)
const CTX = { now: NOW, currency: 'INR', taxRules: [], country: 'IN' }

function product(over: Record<string, unknown> = {}): FormProduct {
  return toFormProduct(
    ProductSchema.parse({
      ...SILK_SAREE,
      ...over,
    }),
  )
}

const child = (sku: string, color: number, size: number, inStock = true) => ({
  sku,
  id: sku.length,
  price: 1000,
  color,
  size,
  status: 1,
  stock: { qty: inStock ? 2 : 0, is_in_stock: inStock, stock_status: inStock ? 1 : 0 },
})

const configurable = () =>
  product({
    type_id: 'configurable',
    configurable_options: [COLOR_RED_BLUE, SIZE_S_M],
    // Blue comes only in M.
    configurable_children: [child('P1-RS', 49, 1), child('P1-RM', 49, 2), child('P1-BM', 50, 2)],
  })

describe('grouped product lines', () => {
  const grouped = product({
    type_id: 'grouped',
    product_links: [
      NECKLACE_LINK,
      {
        sku: 'P1',
        link_type: 'associated',
        linked_product_sku: 'G2',
        linked_product_type: 'simple',
        product: { name: 'Earrings', price: 300, sku: 'G2' },
      },
      { sku: 'P1', link_type: 'associated', linked_product_sku: 'G3', linked_product_type: 'simple' },
    ],
  })

  it('adds each linked product with a valid quantity (1 when untouched) at its own price, under the parent, linking to the set', () => {
    const lines = groupedCartLines(grouped, { G1: '2', G2: '0' }, CTX)
    expect(lines).toEqual([
      {
        sku: 'G1',
        parentSku: grouped.sku,
        name: 'Necklace',
        qty: 2,
        priceInclTax: 500,
        type_id: 'simple',
        image: grouped.image,
        url_path: `/p/${grouped.sku}/${grouped.slug}`,
      },
    ])
    expect(groupedCartLines(grouped, {}, CTX).map((l) => [l.sku, l.qty])).toEqual([
      ['G1', 1],
      ['G2', 1],
    ])
  })

  it('skips quantities that are not whole numbers of at least 1', () => {
    expect(groupedCartLines(grouped, { G1: 'abc', G2: '-1' }, CTX)).toEqual([])
  })

  it("carries each piece's own picture, leaves out a piece out of stock, and the page's price is the lines' total", () => {
    const set = product({
      type_id: 'grouped',
      product_links: [
        {
          ...NECKLACE_LINK,
          product: { ...NECKLACE_LINK.product, image: '/n.jpg', stock: { qty: 3, is_in_stock: true } },
        },
        {
          sku: 'P1',
          link_type: 'associated',
          linked_product_sku: 'G2',
          linked_product_type: 'simple',
          product: { name: 'Earrings', price: 300, sku: 'G2', stock: { qty: 0, is_in_stock: false } },
        },
        {
          sku: 'P1',
          link_type: 'associated',
          linked_product_sku: 'G4',
          linked_product_type: 'simple',
          product: { name: 'Bangle', price: 250, sku: 'G4' },
        },
      ],
    })
    const quantities = { G1: '1', G2: '1', G4: '3' }
    const lines = groupedCartLines(set, quantities, CTX)
    expect(lines.map((l) => [l.sku, l.qty, l.image])).toEqual([
      ['G1', 1, '/n.jpg'],
      ['G4', 3, set.image],
    ])
    const shown = priceView(set, { ...CTX, groupedQuantities: groupedChoice(set, quantities) })
    expect(shown.finalInclTax).toBe(lines.reduce((s, l) => s + l.priceInclTax * l.qty, 0))
    expect(shown.finalInclTax).toBe(500 + 3 * 250)
    // Without the shopper's choice the set's catalogue price is every piece, one of each.
    expect(priceView(set, CTX).finalInclTax).toBe(1050)
  })
})

describe('the line of a configurable product', () => {
  it('is the chosen child at the shown price, with the chosen option labels and only filled custom options', () => {
    const p = configurable()
    const variant = p.configurable_children.find((c) => c.sku === 'P1-RM') ?? null
    const price = priceView(p, { ...CTX, variantSku: 'P1-RM' })
    const line = productCartLine({
      product: p,
      variant,
      selection: { color: 49, size: 2 },
      custom: { 7: 'AR', 8: '', 9: [], 10: [3, 4] },
      bundle: {},
      price,
      quantity: 3,
    })
    expect(line).toMatchObject({
      sku: 'P1-RM',
      parentSku: 'P1',
      qty: 3,
      priceInclTax: price.finalInclTax,
      stock: { qty: 2, is_in_stock: true, stock_status: 1 },
    })
    expect(line.product_option).toEqual({
      extension_attributes: {
        configurable_item_options: [
          { option_id: '93', option_value: '49', label: 'Color', value: 'Red' },
          { option_id: '142', option_value: '2', label: 'Size', value: 'M' },
        ],
        custom_options: [
          { option_id: 7, option_value: 'AR' },
          { option_id: 10, option_value: '3,4' },
        ],
        bundle_options: [],
      },
    })
  })

  it('sends only chosen bundle links with a quantity above 0', () => {
    const line = productCartLine({
      product: product({ type_id: 'bundle' }),
      variant: null,
      selection: {},
      custom: {},
      bundle: { 1: { linkId: 12, qty: '2' }, 2: { linkId: 21, qty: '0' }, 3: { linkId: null, qty: '1' } },
      price: priceView(product(), CTX),
      quantity: 1,
    })
    expect(
      (line.product_option as { extension_attributes: { bundle_options: unknown } }).extension_attributes
        .bundle_options,
    ).toEqual([{ option_id: 1, option_qty: 2, option_selections: [12] }])
  })
})

describe('option checks', () => {
  it('blocks the add with the product error while a required option is missing', () => {
    const p = product({
      custom_options: [{ option_id: 1, title: 'Monogram', type: 'field', is_require: true }],
      bundle_options: [
        {
          option_id: 2,
          title: 'Bag',
          required: true,
          product_links: [{ id: 21, sku: 'B1', product: { name: 'Potli', price: 50 } }],
        },
      ],
    })
    const missing = checkOptions(p, {}, { 2: { linkId: null, qty: '1' } })
    expect(Object.keys(missing.errors).sort()).toEqual(['bundleOption_2', 'customOption_1'])
    expect(missing.productError).not.toBeNull()
    expect(checkOptions(p, { 1: 'AR' }, { 2: { linkId: 21, qty: '1' } })).toEqual({
      errors: {},
      productError: null,
    })
  })
})

describe('colour and size choices', () => {
  it('keeps the size when the new colour has it', () => {
    const { result, keepSize } = resolveChoice(configurable(), { color: 50, size: 2 }, 'color', 49)
    expect(result.variant?.sku).toBe('P1-RM')
    expect(keepSize).toBe(true)
  })

  it("falls back to the colour's default variant (size no longer chosen) when it lacks the current size", () => {
    const { result, keepSize } = resolveChoice(configurable(), { color: 49, size: 1 }, 'color', 50)
    expect(result).toMatchObject({ notice: null, variant: { sku: 'P1-BM' } })
    expect(keepSize).toBe(false)
  })

  it('reports the wrong-attributes notice when no variant has the size', () => {
    const { result } = resolveChoice(configurable(), { color: 50, size: 2 }, 'size', 1)
    expect(result.notice).toBe(MSG.wrongAttributes)
  })
})
