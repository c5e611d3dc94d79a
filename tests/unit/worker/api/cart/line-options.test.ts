// Item options checked and rebuilt from the catalogue (pure): configurable, custom, bundle and
// grouped lines; the replay hash's canonical body; the coupon minimum compared in whole paise.
import { describe, expect, it } from 'vitest'
import { isValidBundleQty, toQuantity } from '../../../../../shared/domain/options'
import { canonicalOrderText } from '../../../../../shared/domain/order-hash'
import type { Product } from '../../../../../shared/schemas/catalog'
import { configureLine, LineProblem, MAX_CUSTOM_TEXT } from '../../../../../worker/api/cart/line-options'
import { type CouponRule, couponProblem } from '../../../../../worker/api/cart/totals'
import { SIZE_S_M } from '../../../../helpers/product-fixtures'

const product = (over: Partial<Product>): Product =>
  ({
    id: 1,
    sku: 'P',
    name: 'P',
    type_id: 'simple',
    price: 100,
    status: 1,
    visibility: 4,
    stock: { qty: 1, is_in_stock: true },
    configurable_options: [],
    configurable_children: [],
    custom_options: [],
    bundle_options: [],
    product_links: [],
    ...over,
  }) as Product

const KURTA = product({
  sku: 'K',
  type_id: 'configurable',
  configurable_options: [
    SIZE_S_M,
    { attribute_code: 'color', attribute_id: 93, label: 'Color', values: [{ value_index: 7, label: 'Red' }] },
  ],
  configurable_children: [
    { sku: 'K-S', id: 11, price: 100, size: 1, color: 7, status: 1, stock: { qty: 1, is_in_stock: true } },
    { sku: 'K-M', id: 12, price: 100, size: 2, color: 7, status: 1, stock: { qty: 1, is_in_stock: true } },
  ],
})
const conf = (opts: { option_id: unknown; option_value: unknown }[]) => ({
  extension_attributes: { configurable_item_options: opts },
})
const problem = (fn: () => unknown) => {
  try {
    fn()
  } catch (err) {
    if (err instanceof LineProblem) return err.message
    throw err
  }
  return null
}

describe('configurable lines', () => {
  it('find the child from every option and store catalogue labels', () => {
    const line = configureLine(
      KURTA,
      undefined,
      conf([
        { option_id: '142', option_value: 2 },
        { option_id: 93, option_value: '7' },
      ]),
    )
    expect(line.sku).toBe('K-M')
    expect(line.parentSku).toBe('K')
    expect(line.components).toEqual([{ sku: 'K-M', units: 1 }])
    expect(line.option?.extension_attributes.configurable_item_options).toEqual([
      { option_id: '142', option_value: '2', label: 'Size', value: 'M' },
      { option_id: '93', option_value: '7', label: 'Color', value: 'Red' },
    ])
  })

  it('name unknown options and values, and options that contradict the chosen child', () => {
    expect(
      problem(() => configureLine(KURTA, undefined, conf([{ option_id: '999', option_value: 1 }]))),
    ).toBe('unknown configurable option 999')
    expect(
      problem(() => configureLine(KURTA, undefined, conf([{ option_id: '142', option_value: '0x1' }]))),
    ).toContain('unknown value 0x1 for configurable option 142 (Size)')
    expect(
      problem(() => configureLine(KURTA, undefined, conf([{ option_id: '142', option_value: 1 }]))),
    ).toBe('K needs its configurable options')
    const child = KURTA.configurable_children[0]
    expect(problem(() => configureLine(KURTA, child, conf([{ option_id: '142', option_value: 2 }])))).toBe(
      'the configurable options do not match K-S',
    )
    expect(
      problem(() => configureLine(product({}), undefined, conf([{ option_id: '142', option_value: 1 }]))),
    ).toBe('P has no configurable options')
  })
})

describe('custom options', () => {
  const P = product({
    custom_options: [
      {
        option_id: 5,
        title: 'Note',
        type: 'field',
        is_require: true,
        price: 10,
        price_type: 'fixed',
        values: [],
      },
      {
        option_id: 6,
        title: 'Extras',
        type: 'checkbox',
        is_require: false,
        values: [
          { option_type_id: 61, title: 'Box', price: 5, price_type: 'fixed' },
          { option_type_id: 62, title: 'Card', price: 1, price_type: 'fixed' },
        ],
      },
      {
        option_id: 7,
        title: 'Finish',
        type: 'drop_down',
        is_require: false,
        values: [{ option_type_id: 71, title: 'Matte', price: 0, price_type: 'fixed' }],
      },
    ],
  })
  const custom = (opts: { option_id: unknown; option_value: unknown }[]) => ({
    extension_attributes: { custom_options: opts },
  })

  it('keep checked values only, and select the catalogue values for pricing', () => {
    const line = configureLine(
      P,
      undefined,
      custom([
        { option_id: 5, option_value: 'Hi' },
        { option_id: '6', option_value: '61,62' },
      ]),
    )
    expect(line.option?.extension_attributes.custom_options).toEqual([
      { option_id: 5, option_value: 'Hi' },
      { option_id: 6, option_value: '61,62' },
    ])
    expect(line.customOptions).toEqual({ 5: 'Hi', 6: [61, 62] })
  })

  /** What configuring P with these custom options answers: the problem's words, or null. */
  const customProblem = (opts: { option_id: unknown; option_value: unknown }[]) =>
    problem(() => configureLine(P, undefined, custom(opts)))

  it('name what is wrong', () => {
    expect(customProblem([{ option_id: 6, option_value: '61' }])).toBe('custom option 5 (Note) is required')
    expect(customProblem([{ option_id: 9, option_value: 'x' }])).toBe('unknown custom option 9')
    expect(
      customProblem([
        { option_id: 5, option_value: 'x' },
        { option_id: 7, option_value: '72' },
      ]),
    ).toBe('unknown value 72 for custom option 7 (Finish)')
    expect(
      customProblem([
        { option_id: 5, option_value: 'x' },
        { option_id: 7, option_value: '71,71,71' },
      ]),
    ).toBeNull()
    expect(customProblem([{ option_id: 5, option_value: 'x'.repeat(MAX_CUSTOM_TEXT + 1) }])).toContain(
      `limited to ${MAX_CUSTOM_TEXT} characters`,
    )
    expect(
      customProblem([
        { option_id: 5, option_value: 'a' },
        { option_id: 5, option_value: 'b' },
      ]),
    ).toBe('custom option 5 is given twice')
  })
})

describe('grouped lines', () => {
  it('consume one of each associated product', () => {
    const G = product({
      sku: 'G',
      type_id: 'grouped',
      product_links: [
        { sku: 'G', link_type: 'associated', linked_product_sku: 'A', linked_product_type: 'simple' },
        { sku: 'G', link_type: 'related', linked_product_sku: 'R', linked_product_type: 'simple' },
        { sku: 'G', link_type: 'associated', linked_product_sku: 'B', linked_product_type: 'simple' },
      ],
    })
    expect(configureLine(G, undefined, undefined).components).toEqual([
      { sku: 'A', units: 1 },
      { sku: 'B', units: 1 },
    ])
    expect(
      problem(() => configureLine(product({ sku: 'E', type_id: 'grouped' }), undefined, undefined)),
    ).toBe('E has no products to order')
  })
})

describe('the canonical order body', () => {
  it('ignores key order and the attempt id/times, not the content', () => {
    const a = { order_id: '1-a', created_at: 1, products: [{ sku: 'A', qty: 1 }], cart_id: '' }
    const b = { cart_id: '', products: [{ qty: 1, sku: 'A' }], order_id: '1-b', updated_at: 5 }
    expect(canonicalOrderText(a)).toBe(canonicalOrderText(b))
    expect(canonicalOrderText({ ...a, cart_id: 'x' })).not.toBe(canonicalOrderText(a))
  })
})

describe('coupon minimum', () => {
  const rule: CouponRule = {
    code: 'MIN',
    kind: 'fixed',
    amount: 1,
    min_subtotal: 5.9,
    starts_at: null,
    expires_at: null,
    is_active: 1,
    label: 'x',
  }
  it('is met by a subtotal (minor units) exactly at it, one paisa below is not', () => {
    expect(couponProblem(rule, 'MIN', 590, 0)).toBeNull()
    expect(couponProblem(rule, 'MIN', 589, 0)).toContain('at least ₹5.90')
  })
})

describe('quantity inputs on the product page', () => {
  it('read decimal notation only', () => {
    expect(toQuantity('12')).toBe(12)
    expect(toQuantity(' 2.9 ')).toBe(2)
    for (const text of ['0x10', '1e1', '0b1', '0o7', '+ 1', 'Infinity', '١٦'])
      expect(toQuantity(text)).toBeNaN()
    expect(isValidBundleQty('0x10')).toBe(false)
  })
})
