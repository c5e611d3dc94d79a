import { describe, expect, it } from 'vitest'
import {
  availableVariants,
  estimatedDelivery,
  formatDeliveryDate,
  isChildInStock,
  isFlagSet,
  isProductInStock,
  isSellable,
  isTileVisible,
  isVariantAvailable,
  ordinal,
  productRejection,
  readExportedStock,
  sellableUnits,
  shouldStartLoad,
  variantsError,
} from '../../../../shared/domain/availability'
import { FLAG_VALUES } from '../../../helpers/flag-values'

const inStock = { is_in_stock: true, qty: 2, stock_status: 1 }
const outOfStock = { is_in_stock: false, qty: 0, stock_status: 0 }

describe('variant availability', () => {
  it.each([
    ['in stock, enabled', { sku: 'a', status: 1, stock: inStock }, false, true],
    ['disabled (status 2)', { sku: 'a', status: 2, stock: inStock }, true, false],
    ['status 3', { sku: 'a', status: 3, stock: inStock }, true, false],
    ['out of stock, listing on', { sku: 'a', status: 1, stock: outOfStock }, true, true],
    ['out of stock, listing off', { sku: 'a', status: 1, stock: outOfStock }, false, false],
    [
      'qty 0 but flagged in stock, listing off',
      { sku: 'a', status: 1, stock: { is_in_stock: true, qty: 0, stock_status: 1 } },
      false,
      false,
    ],
  ])('%s', (_name, child, listOutOfStock, expected) => {
    expect(isVariantAvailable(child, { listOutOfStock })).toBe(expected)
  })

  it('filters children and reports "No available product variants"', () => {
    const children = [
      { sku: 'a', status: 2, stock: inStock },
      { sku: 'b', status: 1, stock: outOfStock },
    ]
    expect(availableVariants(children, { listOutOfStock: true }).map((c) => c.sku)).toEqual(['b'])
    expect(
      variantsError({ type_id: 'configurable', configurable_children: children }, { listOutOfStock: false }),
    ).toBe('No available product variants')
    expect(
      variantsError({ type_id: 'configurable', configurable_children: children }, { listOutOfStock: true }),
    ).toBeNull()
    expect(variantsError({ type_id: 'simple' }, { listOutOfStock: false })).toBeNull()
  })
})

describe('product stock', () => {
  it.each([
    ['simple in stock', { type_id: 'simple', stock: inStock }, true],
    [
      'is_in_stock false',
      { type_id: 'simple', stock: { is_in_stock: false, qty: 5, stock_status: 1 } },
      false,
    ],
    [
      'stock_status not 1',
      { type_id: 'simple', stock: { is_in_stock: true, qty: 5, stock_status: 0 } },
      false,
    ],
    ['no stock_status, is_in_stock true', { type_id: 'simple', stock: { is_in_stock: true, qty: 5 } }, true],
    ['no stock record', { type_id: 'simple' }, false],
    [
      'configurable with an in-stock child',
      {
        type_id: 'configurable',
        stock: inStock,
        configurable_children: [
          { sku: 'a', stock: outOfStock },
          { sku: 'b', stock: inStock },
        ],
      },
      true,
    ],
    [
      'configurable, no child with qty > 0',
      {
        type_id: 'configurable',
        stock: inStock,
        configurable_children: [{ sku: 'a', stock: { is_in_stock: true, qty: 0, stock_status: 1 } }],
      },
      false,
    ],
    [
      'configurable, child qty but stock_status 0',
      {
        type_id: 'configurable',
        stock: inStock,
        configurable_children: [{ sku: 'a', stock: { is_in_stock: true, qty: 4, stock_status: 0 } }],
      },
      false,
    ],
    [
      'configurable, only a disabled child in stock',
      {
        type_id: 'configurable',
        stock: inStock,
        configurable_children: [{ sku: 'a', status: 2, stock: inStock }],
      },
      false,
    ],
    [
      'configurable parent out of stock',
      { type_id: 'configurable', stock: outOfStock, configurable_children: [{ sku: 'a', stock: inStock }] },
      false,
    ],
  ])('%s', (_name, product, expected) => {
    expect(isProductInStock(product)).toBe(expected)
  })
})

describe('product rejection', () => {
  it.each([
    [{ status: 1, visibility: 4 }, null],
    [{ status: 0, visibility: 2 }, null],
    [
      { status: 2, visibility: 4 },
      'Product query returned empty result product status = 2 or visibility = 4',
    ],
    [
      { status: 1, visibility: 1 },
      'Product query returned empty result product status = 1 or visibility = 1',
    ],
  ])('%j → %j', (product, expected) => {
    expect(productRejection(product)).toBe(expected)
  })
})

describe('tile visibility', () => {
  it.each([
    [{ international_flag: '1' }, 'INR', true],
    [{ international_flag: '1' }, 'USD', false],
    [{ international_flag: 1 }, 'GBP', false],
    [{ international_flag: true }, 'USD', false],
    [{ international_flag: '0' }, 'USD', true],
    [{ international_flag: null }, 'USD', true],
    [{}, 'GBP', true],
  ])('%j in %s → %s', (product, currency, expected) => {
    expect(isTileVisible(product, currency)).toBe(expected)
  })
})

describe('estimated delivery', () => {
  it.each(
    [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 31].map((n) => [
      n,
      `${n}${{ 1: 'st', 2: 'nd', 3: 'rd', 21: 'st', 22: 'nd', 23: 'rd', 31: 'st' }[n] ?? 'th'}`,
    ]),
  )('ordinal(%d) = %s', (n, expected) => {
    expect(ordinal(n as number)).toBe(expected)
  })
  const now = Date.UTC(2027, 1, 24, 10, 0) // 24 Feb 2027 15:30 IST
  it.each([
    ['today + delivery_days', { delivery_days: 7 }, now, '3rd of March, 2027'],
    ['zero days', { delivery_days: 0 }, now, '24th of February, 2027'],
    [
      'IST day rolls over before UTC midnight',
      { delivery_days: 1 },
      Date.UTC(2027, 1, 24, 20, 0),
      '26th of February, 2027',
    ],
    ['year rollover', { delivery_days: 10 }, Date.UTC(2026, 11, 25, 6, 0), '4th of January, 2027'],
    [
      'rts_qty set: rts_delivery_time',
      { delivery_days: 7, rts_qty: 2, rts_delivery_time: 'Ships in 48 hours' },
      now,
      'Ships in 48 hours',
    ],
    [
      'rts_qty 0: delivery days',
      { delivery_days: 7, rts_qty: 0, rts_delivery_time: 'Ships in 48 hours' },
      now,
      '3rd of March, 2027',
    ],
    ['nothing known', {}, now, null],
  ])('%s', (_name, product, at, expected) => {
    expect(estimatedDelivery(product, at)).toBe(expected)
  })
  it('formats with the UTC calendar date', () => {
    expect(formatDeliveryDate(new Date(Date.UTC(2027, 11, 1)))).toBe('1st of December, 2027')
  })
})

describe('product load guard (20 s)', () => {
  it.each([
    [null, 1000, true],
    [0, 19_999, false],
    [0, 20_000, true],
    [50_000, 60_000, false],
    [50_000, 10_000, true],
  ])('last %j, now %d → %s', (last, now, expected) => {
    expect(shouldStartLoad(last, now)).toBe(expected)
  })
})

describe('stock records (is_in_stock and stock_status)', () => {
  it.each([
    ['no record', null, false],
    ['missing record', undefined, false],
    ['empty record', {}, false],
    ['flagged in stock, no status', { is_in_stock: true }, true],
    ['status 1, no flag', { stock_status: 1 }, true],
    ['both say in stock', { is_in_stock: true, stock_status: 1 }, true],
    ['flag false wins over status 1', { is_in_stock: false, stock_status: 1 }, false],
    ['status 0 wins over flag true', { is_in_stock: true, stock_status: 0 }, false],
    ['status 2 is not in stock', { is_in_stock: true, stock_status: 2 }, false],
    ['flag null, status 1', { is_in_stock: null, stock_status: 1 }, true],
    ['flag false, no status', { is_in_stock: false }, false],
  ])('%s → %s', (_name, stock, expected) => {
    // Sellable needs a quantity above 0 as well (stock managed, no backorders).
    expect(isSellable(stock && { ...stock, qty: 3 })).toBe(expected)
    expect(isSellable(stock && { ...stock, qty: 0 })).toBe(false)
    expect(isChildInStock({ sku: 'c', stock: stock && { ...stock, qty: 3 } })).toBe(expected)
    expect(isChildInStock({ sku: 'c', stock: stock && { ...stock, qty: 0 } })).toBe(false)
  })

  it.each([
    ['null', null],
    ['undefined', undefined],
  ])('a %s children list has no available variants', (_name, children) => {
    expect(availableVariants(children, { listOutOfStock: true })).toEqual([])
    expect(
      variantsError({ type_id: 'configurable', configurable_children: children }, { listOutOfStock: true }),
    ).toBe('No available product variants')
  })

  it.each([
    [
      'a configurable without children data reads its own stock',
      { type_id: 'configurable', stock: inStock },
      true,
    ],
    [
      'a configurable with an empty children list reads its own stock',
      { type_id: 'configurable', stock: inStock, configurable_children: [] },
      true,
    ],
    [
      'only configurables look at their children',
      { type_id: 'simple', stock: inStock, configurable_children: [{ sku: 'a', stock: outOfStock }] },
      true,
    ],
    ['status 1 alone is in stock', { type_id: 'simple', stock: { stock_status: 1, qty: 1 } }, true],
    ['a flag of null and no status is not', { type_id: 'simple', stock: { is_in_stock: null } }, false],
  ])('%s', (_name, product, expected) => {
    expect(isProductInStock(product)).toBe(expected)
  })
})

describe('flag values', () => {
  it.each(FLAG_VALUES)('%j → %s', (value, expected) => {
    expect(isFlagSet(value)).toBe(expected)
    expect(isTileVisible({ international_flag: value }, 'USD')).toBe(!expected)
    expect(isTileVisible({ international_flag: value }, 'INR')).toBe(true)
  })
})

describe('delivery date formatting', () => {
  // The month names come from the platform's English calendar, not from a copy of the formatter's list.
  const MONTH_NAMES = Array.from({ length: 12 }, (_, month) =>
    new Date(Date.UTC(2027, month, 9)).toLocaleString('en-GB', { month: 'long', timeZone: 'UTC' }),
  )
  it.each(MONTH_NAMES.map((name, month) => [name, month]))('names %s', (name, month) => {
    expect(formatDeliveryDate(new Date(Date.UTC(2027, month as number, 9)))).toBe(`9th of ${name}, 2027`)
  })
  // Instants late in the UTC day are already the next day in India: the date shown must still be
  // the UTC calendar date the rule computed, whatever zone the browser is in.
  it.each([
    ['2027-02-28T23:30:00Z', '28th of February, 2027'],
    ['2027-12-31T20:00:00Z', '31st of December, 2027'],
    ['2027-01-01T00:00:00Z', '1st of January, 2027'],
  ])('formats %s from its UTC fields', (at, expected) => {
    expect(formatDeliveryDate(new Date(at))).toBe(expected)
  })
  it.each([
    [10, '10th'],
    [14, '14th'],
    [20, '20th'],
    [24, '24th'],
    [30, '30th'],
    [111, '111th'],
    [112, '112th'],
    [101, '101st'],
  ])('ordinal(%d) = %s', (n, expected) => {
    expect(ordinal(n)).toBe(expected)
  })
  // Every day of every month of a leap and a common year against the English rule.
  it('every calendar day reads as day, month name and year', () => {
    const suffix = (d: number) =>
      d % 10 === 1 && d !== 11
        ? 'st'
        : d % 10 === 2 && d !== 12
          ? 'nd'
          : d % 10 === 3 && d !== 13
            ? 'rd'
            : 'th'
    for (let t = Date.UTC(2027, 0, 1); t < Date.UTC(2029, 0, 1); t += 86_400_000) {
      const d = new Date(t)
      const day = d.getUTCDate()
      expect(formatDeliveryDate(d)).toBe(
        `${day}${suffix(day)} of ${MONTH_NAMES[d.getUTCMonth()]}, ${d.getUTCFullYear()}`,
      )
    }
  })
})

describe('estimated delivery: unusable inputs', () => {
  const now = Date.UTC(2027, 1, 24, 10, 0)
  it.each([
    ['null days', { delivery_days: null }],
    ['negative days', { delivery_days: -1 }],
    ['NaN days', { delivery_days: Number.NaN }],
    ['infinite days', { delivery_days: Number.POSITIVE_INFINITY }],
    ['rts_qty without a delivery time and no days', { rts_qty: 3, rts_delivery_time: '' }],
  ])('%s → no estimate', (_name, product) => {
    expect(estimatedDelivery(product, now)).toBeNull()
  })
  it('rounds fractional days', () => {
    expect(estimatedDelivery({ delivery_days: 1.4 }, now)).toBe('25th of February, 2027')
    expect(estimatedDelivery({ delivery_days: 1.6 }, now)).toBe('26th of February, 2027')
  })
  it.each([
    ['a Date', new Date(Date.UTC(2027, 1, 24, 20, 0))],
    ['ms epoch', Date.UTC(2027, 1, 24, 20, 0)],
  ])('accepts %s as now (same answer)', (_name, at) => {
    expect(estimatedDelivery({ delivery_days: 1 }, at)).toBe('26th of February, 2027')
  })
  it('takes the store offset as a parameter (the day is the store day, not the runtime zone)', () => {
    const lateUtc = Date.UTC(2027, 1, 24, 20, 0) // 25 Feb 01:30 IST, 24 Feb 12:00 in Los Angeles
    expect(estimatedDelivery({ delivery_days: 0 }, lateUtc)).toBe('25th of February, 2027')
    expect(estimatedDelivery({ delivery_days: 0 }, lateUtc, 0)).toBe('24th of February, 2027')
    expect(estimatedDelivery({ delivery_days: 0 }, Date.UTC(2027, 1, 25, 5, 0), -8 * 60)).toBe(
      '24th of February, 2027',
    )
  })
})

describe('product load guard edges', () => {
  it.each([
    [5_000, 5_000, false],
    [undefined, 0, true],
    [5_000, 4_999, true],
  ])('last %j, now %d → %s', (last, now, expected) => {
    expect(shouldStartLoad(last, now)).toBe(expected)
  })
})

describe('sellable (Magento stock settings)', () => {
  it.each([
    ['counted, in stock, units left', { is_in_stock: true, qty: 2 }, true, 2],
    ['counted, in stock, none left', { is_in_stock: true, qty: 0 }, false, 0],
    ['counted, switched off with units left', { is_in_stock: false, qty: 5 }, false, 0],
    ['backorders at zero', { is_in_stock: true, qty: 0, backorders: 1 }, true, Number.POSITIVE_INFINITY],
    ['backorders below zero', { is_in_stock: true, qty: -4, backorders: 2 }, true, Number.POSITIVE_INFINITY],
    ['backorders but switched off', { is_in_stock: false, qty: 0, backorders: 1 }, false, 0],
    [
      'not managed, nothing counted',
      { is_in_stock: false, qty: 0, manage_stock: false },
      true,
      Number.POSITIVE_INFINITY,
    ],
  ])('%s', (_name, stock, sellable, units) => {
    expect(isSellable(stock)).toBe(sellable)
    expect(sellableUnits(stock)).toBe(units)
  })

  it('reads in-stock at qty ≤ 0 as sold out unless stock is not counted or backorders are on', () => {
    const sample = { is_in_stock: true, qty: 0, manage_stock: true, backorders: 0 }
    const sellable = (s: typeof sample) => isSellable(readExportedStock(s))
    expect(readExportedStock(sample)).toMatchObject({ manage_stock: true, is_in_stock: false, soldOut: true })
    expect(sellable(sample)).toBe(false)
    expect(sellable({ ...sample, qty: -2 })).toBe(false)
    expect(sellable({ ...sample, qty: 3 })).toBe(true)
    expect(sellable({ ...sample, backorders: 1 })).toBe(true)
    expect(sellable({ ...sample, manage_stock: false })).toBe(true)
    expect(readExportedStock({ ...sample, is_in_stock: false })).toMatchObject({ soldOut: false })
  })
})
