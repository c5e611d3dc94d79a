import { describe, expect, it } from 'vitest'
import { priceView } from '../../../../shared/domain/price'
import {
  bundlePrice,
  cheapestVariant,
  customOptionsDelta,
  groupedPrice,
} from '../../../../shared/domain/price-parts'
import {
  discountPercent,
  effectiveSpecialPrice,
  finalPrice,
  hasSpecialPrice,
  isWithinDateWindow,
  originalPrice,
  parseCatalogDate,
} from '../../../../shared/domain/price-window'
import { countryRates, slabRate, type TaxRuleFields, taxRuleOf } from '../../../../shared/domain/tax-rules'

/** The rate of a class in a country: the first rule listing the class, its first rate for the whole country. */
const taxRateFor = (
  taxClassId: number | null,
  rules: readonly TaxRuleFields[] | null | undefined,
  country: string | null | undefined,
) => slabRate(countryRates(taxRuleOf({ tax_class_id: taxClassId }, rules), country), 0, false)

const NOW = Date.UTC(2027, 2, 15, 12, 0, 0) // 15 March 2027 12:00 UTC

describe('special price', () => {
  it.each([
    ['no special', { price: 1000 }, 0],
    ['open window', { price: 1000, special_price: 800 }, 800],
    [
      'inside window',
      { price: 1000, special_price: 800, special_from_date: '2027-03-01', special_to_date: '2027-03-31' },
      800,
    ],
    ['before window', { price: 1000, special_price: 800, special_from_date: '2027-03-16 00:00:00' }, 0],
    ['after window', { price: 1000, special_price: 800, special_to_date: '2027-03-14 00:00:00' }, 0],
    ['to-date covers its whole day', { price: 1000, special_price: 800, special_to_date: '2027-03-15' }, 800],
    [
      'from-date with time later today',
      { price: 1000, special_price: 800, special_from_date: '2027-03-15 13:00:00' },
      0,
    ],
    ['not below regular', { price: 1000, special_price: 1000 }, 0],
    ['above regular', { price: 1000, special_price: 1200 }, 0],
    ['zero special', { price: 1000, special_price: 0 }, 0],
    ['unparseable date', { price: 1000, special_price: 800, special_from_date: 'soon' }, 0],
  ])('%s', (_name, product, expected) => {
    expect(effectiveSpecialPrice(product, NOW)).toBe(expected)
    expect(finalPrice(product, NOW)).toBe(expected || product.price)
    expect(originalPrice(product)).toBe(product.price)
  })

  it('accepts a Date as now', () => {
    expect(
      effectiveSpecialPrice({ price: 10, special_price: 5, special_to_date: '2027-03-14' }, new Date(NOW)),
    ).toBe(0)
  })

  it.each([
    ['2027-03-15', Date.UTC(2027, 2, 15)],
    ['2027-03-15 10:30:00', Date.UTC(2027, 2, 15, 10, 30)],
    ['2027-03-15T10:30:00Z', Date.UTC(2027, 2, 15, 10, 30)],
    ['', null],
    ['nope', null],
  ])('parseCatalogDate(%j)', (value, expected) => {
    expect(parseCatalogDate(value)).toBe(expected)
  })

  it.each([
    [null, null, true],
    ['2027-03-15 12:00:00', null, true],
    ['2027-03-15 12:00:01', null, false],
    [null, '2027-03-15 11:59:59', false],
  ])('isWithinDateWindow(%j, %j)', (from, to, expected) => {
    expect(isWithinDateWindow(from, to, NOW)).toBe(expected)
  })
})

describe('discountPercent', () => {
  it.each([
    [1000, 800, 20],
    [999, 666, 33],
    [1000, 1000, 0],
    [0, 0, 0],
    [1000, 1200, 0],
    // Edges: no regular price, a negative one, a free piece, and rounding to whole percent (½ % up).
    [0, -10, 0],
    [-100, -200, 0],
    [1000, 0, 100],
    [1000, 995, 1],
    [1000, 994, 1],
    [1000, 985, 2],
  ])('%d → %d = %d%%', (regular, final, expected) => {
    expect(discountPercent(regular, final)).toBe(expected)
  })
})

describe('tax (VSF calculateProductTax)', () => {
  const rules = [
    {
      product_tax_class_ids: [2],
      rates: [
        { rate: 12, tax_country_id: 'IN' },
        { rate: 20, tax_country_id: 'GB' },
      ],
    },
    {
      product_tax_class_ids: [5],
      rates: [{ rate: 5, tax_country_id: 'IN', region_name: 'Goa', tax_region_id: 7 }],
    },
  ]
  it.each([
    [2, 'IN', 12],
    [2, 'GB', 20],
    [2, 'US', 0],
    // A rate for one region (Goa) is not the country's: prices are decided before any address.
    [5, 'IN', 0],
    [9, 'IN', 0],
    [0, 'IN', 0],
    [null, 'IN', 0],
    [2, null, 0],
  ])('class %j in %j → %d%%', (cls, country, expected) => {
    expect(taxRateFor(cls, rules, country)).toBe(expected)
  })
})

const child = (sku: string, price: number, extra: Record<string, unknown> = {}) => ({
  sku,
  price,
  status: 1,
  stock: { is_in_stock: true, qty: 3, stock_status: 1 },
  ...extra,
})

describe('configurable shows its cheapest variant', () => {
  it.each([
    [
      'cheapest by final price',
      [child('A', 1000), child('B', 900), child('C', 1100, { special_price: 700 })],
      'C',
    ],
    [
      'special outside window ignored',
      [
        child('A', 1000),
        child('B', 900),
        child('C', 1100, { special_price: 700, special_to_date: '2027-01-01' }),
      ],
      'B',
    ],
    ['disabled child skipped', [child('A', 1000), child('B', 500, { status: 2 })], 'A'],
    [
      'in-stock child preferred',
      [child('A', 1000), child('B', 500, { stock: { is_in_stock: false, qty: 0 } })],
      'A',
    ],
    [
      'all out of stock: still cheapest',
      [
        child('A', 1000, { stock: { is_in_stock: false, qty: 0 } }),
        child('B', 600, { stock: { is_in_stock: false, qty: 0 } }),
      ],
      'B',
    ],
    ['zero-price child ignored', [child('A', 0), child('B', 600)], 'B'],
  ])('%s', (_name, children, sku) => {
    expect(cheapestVariant(children, NOW)?.sku).toBe(sku)
  })
  it('returns null without children', () => {
    expect(cheapestVariant([], NOW)).toBeNull()
  })
})

describe('custom options price (fixed or percent of the original price)', () => {
  const options = [
    { option_id: 1, type: 'field', price: 100, price_type: 'fixed' },
    {
      option_id: 2,
      type: 'drop_down',
      values: [
        { option_type_id: 21, price: 10, price_type: 'percent' },
        { option_type_id: 22, price: 50, price_type: 'fixed' },
      ],
    },
    {
      option_id: 3,
      type: 'checkbox',
      values: [
        { option_type_id: 31, price: 20, price_type: 'fixed' },
        { option_type_id: 32, price: 5, price_type: 'percent' },
      ],
    },
  ]
  it.each([
    ['nothing selected', {}, 0],
    ['field text', { 1: 'Monogram' }, 100],
    ['empty field ignored', { 1: '' }, 0],
    ['percent of original', { 2: 21 }, 100],
    ['fixed, chosen by a string id', { 2: '22' }, 50],
    ['checkbox list', { 3: [31, 32] }, 70],
    ['all', { 1: 'x', 2: 22, 3: [31] }, 170],
  ])('%s', (_name, selection, delta) => {
    expect(customOptionsDelta(options, selection, 1000)).toBeCloseTo(delta, 9)
  })
})

describe('bundle price', () => {
  const options = [
    {
      option_id: 1,
      product_links: [
        { id: 11, qty: 1, is_default: false, product: { price: 500 } },
        { id: 12, qty: 2, is_default: true, product: { price: 300 } },
      ],
    },
    { option_id: 2, product_links: [{ id: 21, qty: 1, product: { price: 1000, special_price: 900 } }] },
  ]
  it.each([
    ['defaults (else first) × qty', undefined, 600 + 900],
    ['selection replaces when > 0', { 1: { linkId: 11, qty: 3 }, 2: { linkId: 21, qty: 1 } }, 1500 + 900],
    ['selection summing to 0 keeps the default price', { 1: { linkId: 11, qty: 0 } }, 1500],
    ['partial selection', { 1: { linkId: 11, qty: 1 } }, 500],
    ['unknown link ignored', { 1: { linkId: 99, qty: 1 } }, 1500],
  ])('%s', (_name, selection, expected) => {
    expect(bundlePrice(options, NOW, selection)).toBe(expected)
  })
  it('is 0 without options', () => {
    expect(bundlePrice([], NOW)).toBe(0)
  })
})

describe('grouped price', () => {
  it.each([
    [
      'sums associated products once each',
      [
        { link_type: 'associated', product: { price: 100 } },
        { link_type: 'associated', product: { price: 250 } },
      ],
      350,
    ],
    [
      'uses their active special price',
      [{ link_type: 'associated', product: { price: 100, special_price: 80 } }],
      80,
    ],
    ['ignores other link types', [{ link_type: 'related', product: { price: 100 } }], 0],
    ['starts at 0', [], 0],
  ])('%s', (_name, links, expected) => {
    expect(groupedPrice(links, NOW)).toBe(expected)
  })
})

describe('priceView', () => {
  const taxRules = [{ product_tax_class_ids: [2], rates: [{ rate: 10, tax_country_id: 'IN' }] }]
  it('simple product with an active special price: the catalogue price (GST included) is what India pays', () => {
    const v = priceView(
      { type_id: 'simple', price: 2000, special_price: 1500, tax_class_id: 2 },
      { now: NOW, currency: 'INR', taxRules, country: 'IN' },
    )
    expect(v).toMatchObject({
      regularInclTax: 2000,
      specialInclTax: 1500,
      finalInclTax: 1500,
      taxRate: 10,
      discountPercent: 25,
      isOnSale: true,
      variantSku: null,
      unitMinor: 150_000,
      note: 'Inclusive of all taxes',
    })
    // The price without the GST it contains: 1500 / 1.1.
    expect(v.final).toBeCloseTo(1500 / 1.1, 9)
    expect(v.formatted).toEqual({ regular: '₹2,000', special: '₹1,500', final: '₹1,500' })
  })
  it('expired special price in USD: converted and rounded to whole dollars, the rounded price is the charge', () => {
    const v = priceView(
      { type_id: 'simple', price: 2000, special_price: 1500, special_to_date: '2027-03-01', tax_class_id: 2 },
      { now: NOW, currency: 'USD', taxRules, country: 'IN' },
    )
    expect(v).toMatchObject({ special: null, isOnSale: false, discountPercent: 0 })
    // 2000 × 0.01429 = 28.58 → $29.
    expect(v.unitMinor).toBe(2900)
    expect(v.formatted).toEqual({ regular: '$29.00', special: null, final: '$29.00' })
  })
  it('configurable takes its cheapest variant, or the chosen one', () => {
    const product = {
      type_id: 'configurable',
      price: 0,
      configurable_children: [child('A', 1000), child('B', 800, { special_price: 600 })],
    }
    expect(priceView(product, { now: NOW, currency: 'INR' })).toMatchObject({
      variantSku: 'B',
      regular: 800,
      final: 600,
      discountPercent: 25,
    })
    expect(priceView(product, { now: NOW, currency: 'INR', variantSku: 'GONE' })).toMatchObject({
      variantSku: 'B',
      final: 600,
    })
    expect(priceView(product, { now: NOW, currency: 'INR', variantSku: 'A' })).toMatchObject({
      variantSku: 'A',
      final: 1000,
      special: null,
    })
  })
  it('custom options add to regular and special; qty multiplies formatted amounts', () => {
    const product = {
      type_id: 'simple',
      price: 1000,
      special_price: 800,
      custom_options: [
        { option_id: 1, type: 'radio', values: [{ option_type_id: 5, price: 10, price_type: 'percent' }] },
      ],
    }
    const v = priceView(product, { now: NOW, currency: 'INR', customOptions: { 1: 5 }, qty: 2 })
    expect(v).toMatchObject({ regular: 1100, special: 900, final: 900 })
    expect(v.formatted.final).toBe('₹1,800')
  })
  it('bundle and grouped', () => {
    const bundle = {
      type_id: 'bundle',
      price: 0,
      bundle_options: [{ option_id: 1, product_links: [{ id: 1, qty: 2, product: { price: 250 } }] }],
    }
    expect(priceView(bundle, { now: NOW, currency: 'INR' }).final).toBe(500)
    const grouped = {
      type_id: 'grouped',
      price: 0,
      product_links: [
        { link_type: 'associated', product: { price: 100 } },
        { link_type: 'associated', product: { price: 50 } },
      ],
    }
    expect(priceView(grouped, { now: NOW, currency: 'INR' }).final).toBe(150)
  })
})

describe('catalogue dates are read as UTC, whatever the runtime zone', () => {
  // The same rule runs on the server (UTC) and in shoppers' browsers (often IST): a date written
  // without a zone must give one instant everywhere, or the page and the cart disagree on a price.
  it.each([
    ['2027-03-15', Date.UTC(2027, 2, 15)],
    [' 2027-03-15 ', Date.UTC(2027, 2, 15)],
    ['2027-03-15 10:30', Date.UTC(2027, 2, 15, 10, 30)],
    ['2027-03-15 10:30:45', Date.UTC(2027, 2, 15, 10, 30, 45)],
    ['2027-03-15T10:30', Date.UTC(2027, 2, 15, 10, 30)],
    ['2027-03-15T10:30:45', Date.UTC(2027, 2, 15, 10, 30, 45)],
    ['\t2027-03-15 10:30:45\n', Date.UTC(2027, 2, 15, 10, 30, 45)],
    ['2027-12-31 23:59:59', Date.UTC(2027, 11, 31, 23, 59, 59)],
    ['2027-03-15T10:30:45Z', Date.UTC(2027, 2, 15, 10, 30, 45)],
    ['2027-03-15T10:30:45+05:30', Date.UTC(2027, 2, 15, 5, 0, 45)],
    ['2027-03-15T10:30:45.250Z', Date.UTC(2027, 2, 15, 10, 30, 45, 250)],
    // Forms the runtime's own parser would read in local time: still UTC here.
    ['2027-03-15 10:00:00.000', Date.UTC(2027, 2, 15, 10)],
    ['2027-03-15 10:00:00.5', Date.UTC(2027, 2, 15, 10, 0, 0, 500)],
    ['2027-3-5', Date.UTC(2027, 2, 5)],
    ['2027-3-5 9:05', Date.UTC(2027, 2, 5, 9, 5)],
    ['2027/03/15', Date.UTC(2027, 2, 15)],
  ])('parseCatalogDate(%j)', (value, expected) => {
    expect(parseCatalogDate(value)).toBe(expected)
  })
  it.each([
    ['x2027-03-15'],
    ['2027-03-15x'],
    ['2027-03-15 10:30:00junk'],
    [null],
    [undefined],
    ['   '],
    // No zone and not a catalogue form: refused rather than read in the runtime's local time.
    ['March 15, 2027'],
    ['15 Mar 2027 10:00'],
  ])('parseCatalogDate(%j) is null', (value) => {
    expect(parseCatalogDate(value)).toBeNull()
  })
})

describe('special price window bounds', () => {
  const noon = Date.UTC(2027, 2, 15, 12, 0, 0)
  it.each([
    ['to at a time: inclusive at that instant', null, '2027-03-15 12:00:00', noon, true],
    ['to at a time: 1 ms later is out', null, '2027-03-15 12:00:00', noon + 1, false],
    ['to at midnight: the last ms of the day is in', null, '2027-03-15', Date.UTC(2027, 2, 16) - 1, true],
    ['to at midnight: the next midnight is out', null, '2027-03-15', Date.UTC(2027, 2, 16), false],
    [
      'to written with 00:00:00 covers the day too',
      null,
      '2027-03-15 00:00:00',
      Date.UTC(2027, 2, 15, 23),
      true,
    ],
    ['from at midnight: that midnight is in', '2027-03-15', null, Date.UTC(2027, 2, 15), true],
    ['from at midnight: 1 ms before is out', '2027-03-15', null, Date.UTC(2027, 2, 15) - 1, false],
    ['unparseable to: never active', null, 'soon', noon, false],
    ['unparseable from: never active', 'later', '2027-12-31', noon, false],
    ['empty bounds are open', '', '', noon, true],
    ['both bounds on one day', '2027-03-15', '2027-03-15', noon, true],
  ])('%s', (_name, from, to, now, expected) => {
    expect(isWithinDateWindow(from, to, now)).toBe(expected)
    expect(isWithinDateWindow(from, to, new Date(now))).toBe(expected)
  })
})

describe('special price values', () => {
  it.each([
    ['negative special ignored', { price: 1000, special_price: -5 }, 0],
    ['null special', { price: 1000, special_price: null }, 0],
    ['no regular price: a special cannot be below it', { special_price: 500 }, 0],
    ['active special', { price: 1000, special_price: 999.5 }, 999.5],
  ])('%s', (_name, product, expected) => {
    expect(effectiveSpecialPrice(product, NOW)).toBe(expected)
    expect(hasSpecialPrice(product, NOW)).toBe(expected > 0)
  })
  it('finalPrice of a product without any price is 0', () => {
    expect(finalPrice({}, NOW)).toBe(0)
    expect(originalPrice({})).toBe(0)
  })
})

describe('tax rate edges', () => {
  const rules = [
    {
      product_tax_class_ids: [-1, 0, 2],
      rates: [
        { rate: 18, tax_country_id: 'IN', region_name: 'Goa', tax_region_id: 0 },
        { rate: 12, tax_country_id: 'IN' },
      ],
    },
  ]
  it.each([
    ['a rate with region id 0 applies in the whole country', 2, 'IN', 18],
    ['class 0 (none) pays no tax, even when a rule lists it', 0, 'IN', 0],
    ['a negative class id pays no tax, even when a rule lists it', -1, 'IN', 0],
  ])('%s', (_name, cls, country, expected) => {
    expect(taxRateFor(cls, rules, country)).toBe(expected)
  })
  it('no rules: no tax', () => {
    expect(taxRateFor(2, null, 'IN')).toBe(0)
    expect(taxRateFor(2, undefined, 'IN')).toBe(0)
    expect(taxRateFor(2, [], 'IN')).toBe(0)
  })
})

describe('cheapest variant edges', () => {
  it('equal final prices: the first child', () => {
    expect(
      cheapestVariant([child('A', 900), child('B', 900), child('C', 1000, { special_price: 900 })], NOW)?.sku,
    ).toBe('A')
  })
  it('nothing in stock: enabled children before a cheaper disabled one (listing out of stock on)', () => {
    const none = { stock: { is_in_stock: false, qty: 0 } }
    const children = [child('A', 1000, none), child('OFF', 100, { ...none, status: 2 })]
    expect(cheapestVariant(children, NOW)?.sku).toBe('A')
    expect(cheapestVariant(children, NOW, { listOutOfStock: true })?.sku).toBe('A')
    expect(cheapestVariant(children, NOW, { listOutOfStock: false })?.sku).toBe('OFF')
  })
  it('no children list: null', () => {
    expect(cheapestVariant(null, NOW)).toBeNull()
    expect(cheapestVariant(undefined, NOW)).toBeNull()
  })
  it('only zero-price children: the first of them', () => {
    expect(cheapestVariant([child('A', 0), child('B', 0)], NOW)?.sku).toBe('A')
  })
})

describe('custom option selections that choose nothing', () => {
  const options = [
    { option_id: 1, type: 'field', price: 100, price_type: 'fixed' },
    { option_id: 2, type: 'checkbox', values: [{ option_type_id: 21, price: 0, price_type: 'fixed' }] },
    { option_id: 3, type: 'drop_down', values: [{ option_type_id: 31, price: null }] },
    { option_id: 4, type: 'drop_down', values: null },
  ]
  it.each([
    ['an unchecked field (false)', { 1: false }],
    ['an empty list', { 1: [] }],
    ['null', { 1: null }],
    ['a free value', { 2: [21] }],
    ['a value without a price', { 3: 31 }],
    ['an option without values', { 4: 41 }],
  ])('%s adds nothing', (_name, selection) => {
    expect(customOptionsDelta(options, selection, 1000)).toBe(0)
  })
  it('no options: nothing', () => {
    expect(customOptionsDelta(null, { 1: 'x' }, 1000)).toBe(0)
  })
})

describe('bundle and grouped edges', () => {
  it.each([
    ['a link without a product uses its own price', [{ id: 1, qty: 2, price: 300 }], 600],
    [
      'a product without a price uses the link price',
      [{ id: 1, qty: 1, price: 300, product: { price: 0 } }],
      300,
    ],
    ['neither: 0', [{ id: 1, qty: 1 }], 0],
    ['qty missing counts as 1', [{ id: 1, price: 300 }], 300],
  ])('%s', (_name, links, expected) => {
    expect(bundlePrice([{ option_id: 1, product_links: links }], NOW)).toBe(expected)
  })
  it('an option without links adds nothing, also when selected', () => {
    const options = [
      { option_id: 1, product_links: [] },
      { option_id: 2, product_links: [{ id: 21, qty: 1, price: 400 }] },
    ]
    expect(bundlePrice(options, NOW)).toBe(400)
    expect(bundlePrice(options, NOW, { 1: { linkId: 5, qty: 1 }, 2: { linkId: 21, qty: 2 } })).toBe(800)
  })
  it('no options: 0, with or without a selection', () => {
    expect(bundlePrice(null, NOW)).toBe(0)
    expect(bundlePrice(undefined, NOW, { 1: { linkId: 1, qty: 1 } })).toBe(0)
  })
  it('grouped: links without a product or a type', () => {
    expect(
      groupedPrice(
        [{ link_type: 'associated' }, { product: { price: 40 } }, { link_type: 'associated', product: null }],
        NOW,
      ),
    ).toBe(40)
    expect(groupedPrice(null, NOW)).toBe(0)
  })
})

describe('priceView: the product type decides the price source', () => {
  const children = [child('A', 1000), child('B', 800)]
  const bundleOptions = [{ option_id: 1, product_links: [{ id: 1, qty: 1, price: 300 }] }]
  const links = [{ link_type: 'associated', product: { price: 70 } }]
  it.each([
    [
      'a simple product with stray children data: its own price',
      { type_id: 'simple', price: 500, configurable_children: children },
      500,
    ],
    ['a configurable without children data: its own price', { type_id: 'configurable', price: 500 }, 500],
    [
      'a configurable with an empty children list: its own price',
      { type_id: 'configurable', price: 500, configurable_children: [] },
      500,
    ],
    [
      'a simple product with stray bundle options: its own price',
      { type_id: 'simple', price: 500, bundle_options: bundleOptions },
      500,
    ],
    ['a bundle without options: its own price', { type_id: 'bundle', price: 500 }, 500],
    [
      'a simple product with stray grouped links: its own price',
      { type_id: 'simple', price: 500, product_links: links },
      500,
    ],
    ['a grouped product without links: its own price', { type_id: 'grouped', price: 500 }, 500],
    [
      'a configurable: its cheapest child',
      { type_id: 'configurable', price: 0, configurable_children: children },
      800,
    ],
    ['a bundle: its links', { type_id: 'bundle', price: 0, bundle_options: bundleOptions }, 300],
    ['a grouped product: its links', { type_id: 'grouped', price: 0, product_links: links }, 70],
  ])('%s', (_name, product, expected) => {
    expect(priceView(product, { now: NOW, currency: 'INR' }).final).toBe(expected)
  })

  it('passes the out-of-stock listing setting to the cheapest-child rule', () => {
    const none = { stock: { is_in_stock: false, qty: 0 } }
    const product = {
      type_id: 'configurable',
      configurable_children: [child('A', 1000, none), child('OFF', 100, { ...none, status: 2 })],
    }
    expect(priceView(product, { now: NOW, currency: 'INR' }).variantSku).toBe('A')
    expect(priceView(product, { now: NOW, currency: 'INR', listOutOfStock: true }).variantSku).toBe('A')
    expect(priceView(product, { now: NOW, currency: 'INR', listOutOfStock: false }).variantSku).toBe('OFF')
  })

  it('custom options add their catalogue price (GST included) to the price', () => {
    const taxRules = [{ product_tax_class_ids: [2], rates: [{ rate: 10, tax_country_id: 'IN' }] }]
    const v = priceView(
      {
        type_id: 'simple',
        price: 1000,
        tax_class_id: 2,
        custom_options: [{ option_id: 1, type: 'field', price: 100, price_type: 'fixed' }],
      },
      { now: NOW, currency: 'INR', taxRules, country: 'IN', customOptions: { 1: 'Monogram' } },
    )
    // Option prices are catalogue prices too: GST is inside them, never added on top.
    expect(v.regularInclTax).toBe(1100)
    expect(v.finalInclTax).toBe(1100)
    expect(v.unitMinor).toBe(110_000)
    expect(v.formatted).toEqual({ regular: '₹1,100', special: null, final: '₹1,100' })
  })
})
