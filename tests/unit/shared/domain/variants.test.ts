import { describe, expect, it } from 'vitest'
import {
  availableOptionValues,
  configureVariant,
  defaultVariant,
  defaultVariantForSize,
  findVariant,
  isSizeSelected,
  optionLabel,
  selectionFromChild,
  variantRedirect,
} from '../../../../shared/domain/variants'

const NOW = Date.UTC(2027, 2, 15)
const RED = 49
const BLUE = 50
const S = 167
const M = 168
const L = 169
const inStock = { is_in_stock: true, qty: 3, stock_status: 1 }
const none = { is_in_stock: false, qty: 0, stock_status: 0 }

const kid = (
  sku: string,
  color: number,
  size: number,
  price: number,
  extra: Record<string, unknown> = {},
) => ({
  sku,
  color,
  size,
  price,
  status: 1,
  stock: inStock,
  ...extra,
})

const product = {
  sku: 'KURTA',
  type_id: 'configurable',
  configurable_options: [
    {
      attribute_code: 'color',
      label: 'Color',
      values: [
        { value_index: RED, label: 'Red' },
        { value_index: BLUE, label: 'Blue' },
      ],
    },
    {
      attribute_code: 'size',
      label: 'Size',
      values: [
        { value_index: S, label: 'S' },
        { value_index: M, label: 'M' },
        { value_index: L, label: 'L' },
      ],
    },
  ],
  configurable_children: [
    kid('KURTA-RED-S', RED, S, 1000),
    kid('KURTA-RED-M', RED, M, 1000, { stock: none }),
    kid('KURTA-BLUE-M', BLUE, M, 1200, { special_price: 900 }),
    kid('KURTA-BLUE-L', BLUE, L, 1100, { status: 2 }),
  ],
}
const listOn = { listOutOfStock: true }
const listOff = { listOutOfStock: false }

describe('findVariant / configureVariant', () => {
  it.each([
    [{ color: RED, size: S }, 'KURTA-RED-S'],
    [{ color: BLUE }, 'KURTA-BLUE-M'],
    [{ color: RED, size: L }, null],
    [{}, 'KURTA-RED-S'],
  ])('%j → %s', (selection, sku) => {
    expect(findVariant(product, selection)?.sku ?? null).toBe(sku)
  })

  it('prefers an available child when availability options are given', () => {
    expect(findVariant(product, { color: BLUE }, listOff)?.sku).toBe('KURTA-BLUE-M')
    expect(findVariant(product, { size: M }, listOff)?.sku).toBe('KURTA-BLUE-M')
    expect(findVariant(product, { size: M })?.sku).toBe('KURTA-RED-M')
  })

  it.each([
    [
      'size change that exists',
      { color: RED, size: S },
      'size',
      M,
      { color: RED, size: M },
      'KURTA-RED-M',
      null,
    ],
    [
      'colour change that exists',
      { color: RED, size: M },
      'color',
      BLUE,
      { color: BLUE, size: M },
      'KURTA-BLUE-M',
      null,
    ],
    [
      'wrong combination restores the previous choice',
      { color: RED, size: S },
      'color',
      BLUE,
      { color: RED, size: S },
      'KURTA-RED-S',
      'No such configuration for the product. Please do choose another combination of attributes.',
    ],
  ])('%s', (_name, previous, attribute, value, selection, sku, notice) => {
    const result = configureVariant(product, previous, attribute, value)
    expect(result.selection).toEqual(selection)
    expect(result.variant?.sku).toBe(sku)
    expect(result.notice).toBe(notice)
  })
})

describe('availableOptionValues', () => {
  it.each([
    ['sizes for red, listing on', { color: RED }, 'size', listOn, [S, M]],
    ['sizes for red, listing off', { color: RED }, 'size', listOff, [S]],
    ['sizes for blue (L disabled)', { color: BLUE }, 'size', listOn, [M]],
    ['colours for size M', { color: RED, size: M }, 'color', listOn, [RED, BLUE]],
    ['colours for size M, listing off', { size: M }, 'color', listOff, [BLUE]],
    ['colours for size L', { size: L }, 'color', listOn, []],
  ])('%s', (_name, selection, attribute, opts, expected) => {
    expect(availableOptionValues(product, selection, attribute, opts)).toEqual(expected)
  })
})

describe('isSizeSelected, labels and selections', () => {
  it.each([
    [{ color: RED }, false],
    [{ color: RED, size: null }, false],
    [{ size: S }, true],
  ])('%j → %s', (selection, expected) => {
    expect(isSizeSelected(selection)).toBe(expected)
  })
  it('reads option labels and a child selection', () => {
    expect(optionLabel(product, 'color', BLUE)).toBe('Blue')
    expect(optionLabel(product, 'size', 999)).toBeNull()
    expect(selectionFromChild(product, kid('x', BLUE, L, 1))).toEqual({ color: BLUE, size: L })
  })
})

describe('defaultVariant', () => {
  it.each([
    ['current sku wins', 'KURTA-RED-M', 'KURTA-RED-M'],
    ['best discount among in-stock children', null, 'KURTA-BLUE-M'],
    ['unknown sku falls back to the rule', 'NOPE', 'KURTA-BLUE-M'],
  ])('%s', (_name, currentSku, expected) => {
    expect(defaultVariant(product, NOW, currentSku)?.sku).toBe(expected)
  })

  it('without discounts picks the lowest price in stock', () => {
    const p = {
      ...product,
      configurable_children: [
        kid('A', RED, S, 1500),
        kid('B', RED, M, 1300),
        kid('C', RED, L, 900, { stock: none }),
      ],
    }
    expect(defaultVariant(p, NOW)?.sku).toBe('B')
  })

  it('with nothing in stock picks the lowest price overall', () => {
    const p = {
      ...product,
      configurable_children: [
        kid('A', RED, S, 1500, { stock: none }),
        kid('B', RED, M, 1300, { stock: none }),
      ],
    }
    expect(defaultVariant(p, NOW)?.sku).toBe('B')
  })

  it('expired special prices do not count as a discount', () => {
    const p = {
      ...product,
      configurable_children: [
        kid('A', RED, S, 1500, { special_price: 500, special_to_date: '2027-01-01' }),
        kid('B', RED, M, 1300),
      ],
    }
    expect(defaultVariant(p, NOW)?.sku).toBe('B')
  })

  it.each([
    [M, 'KURTA-BLUE-M'],
    [S, 'KURTA-RED-S'],
    [null, null],
  ])('for size %j → %s', (size, expected) => {
    expect(defaultVariantForSize(product, size, NOW)?.sku ?? null).toBe(expected)
  })

  it('is null without children', () => {
    expect(defaultVariant({ sku: 'X', configurable_children: [] }, NOW)).toBeNull()
  })
})

describe('variantRedirect (variant URL → parent sku + childSku + parent slug)', () => {
  const parent = { sku: 'KURTA', slug: 'red-kurta', type_id: 'configurable' }
  it.each([
    [
      'variant loaded by its own sku',
      { sku: 'KURTA-RED-S', parent_sku: 'KURTA' },
      { parentSku: 'KURTA-RED-S', slug: 'kurta-red-s', childSku: null },
      '/p/KURTA/red-kurta/KURTA-RED-S',
    ],
    [
      'already canonical',
      { sku: 'KURTA-RED-S', parent_sku: 'KURTA' },
      { parentSku: 'KURTA', slug: 'red-kurta', childSku: 'KURTA-RED-S' },
      null,
    ],
    ['not a variant', { sku: 'KURTA' }, { parentSku: 'KURTA', slug: 'red-kurta', childSku: null }, null],
    [
      'parent is itself',
      { sku: 'KURTA', parent_sku: 'KURTA' },
      { parentSku: 'KURTA', slug: 'x', childSku: null },
      null,
    ],
  ])('%s', (_name, loaded, current, path) => {
    expect(variantRedirect(loaded, parent, current)?.path ?? null).toBe(path)
  })
  it('ignores a non-configurable parent', () => {
    expect(
      variantRedirect(
        { sku: 'A', parentSku: 'G' },
        { sku: 'G', slug: 'g', type_id: 'grouped' },
        { parentSku: 'A', slug: 'a', childSku: null },
      ),
    ).toBeNull()
  })
})

describe('child attribute values', () => {
  it.each([
    ['numbers', { color: RED, size: S }, { color: RED, size: S }],
    ['numeric strings', { color: String(RED), size: String(S) }, { color: RED, size: S }],
    ['null', { color: null, size: S }, { color: null, size: S }],
    ['empty string', { color: '', size: S }, { color: null, size: S }],
    ['not a number', { color: 'red', size: S }, { color: null, size: S }],
    ['missing', { size: S }, { color: null, size: S }],
  ])('%s', (_name, attrs, selection) => {
    expect(selectionFromChild(product, { sku: 'x', ...attrs })).toEqual(selection)
  })

  it('a product without configurable options has no selection', () => {
    expect(selectionFromChild({ sku: 'TEE' }, kid('x', RED, S, 1))).toEqual({})
  })

  it('an empty or null attribute never counts as value 0', () => {
    const p = {
      sku: 'P',
      configurable_children: [
        { sku: 'EMPTY', color: '', size: S, stock: inStock },
        { sku: 'NULL', color: null, size: S, stock: inStock },
        { sku: 'ZERO', color: 0, size: S, stock: inStock },
      ],
    }
    expect(findVariant(p, { color: 0 })?.sku).toBe('ZERO')
  })
})

describe('findVariant edges', () => {
  it.each([
    ['a null choice is no constraint', { color: RED, size: null }, undefined, 'KURTA-RED-S'],
    ['an undefined choice is no constraint', { color: BLUE, size: undefined }, undefined, 'KURTA-BLUE-M'],
    [
      'the only match is out of stock: still found (shown as out of stock)',
      { color: RED, size: M },
      listOff,
      'KURTA-RED-M',
    ],
    ['the only match is disabled: still found', { color: BLUE, size: L }, listOff, 'KURTA-BLUE-L'],
  ])('%s', (_name, selection, opts, sku) => {
    expect(findVariant(product, selection, opts)?.sku).toBe(sku)
  })
  it('finds nothing in a product without children', () => {
    expect(findVariant({ sku: 'X' }, {})).toBeNull()
    expect(findVariant({ sku: 'X', configurable_children: null }, { color: RED }, listOn)).toBeNull()
  })
})

describe('availableOptionValues ordering and gaps', () => {
  const shuffled = {
    ...product,
    configurable_children: [
      kid('L', BLUE, L, 1000),
      kid('S', BLUE, S, 1000),
      kid('XL', BLUE, 170, 1000),
      kid('M', BLUE, M, 1000),
      { sku: 'NOSIZE', color: BLUE, price: 1000, status: 1, stock: inStock },
    ],
  }
  it('lists values in the option order, then values the options do not list; never a missing value', () => {
    expect(availableOptionValues(shuffled, { color: BLUE }, 'size', listOn)).toEqual([S, M, L, 170])
  })
  it('an attribute that is not a configurable option lists child values in child order', () => {
    const p = { ...shuffled, configurable_options: [] }
    expect(availableOptionValues(p, { color: BLUE }, 'size', listOn)).toEqual([L, S, 170, M])
    expect(availableOptionValues({ ...shuffled, configurable_options: null }, {}, 'size', listOn)).toEqual([
      L,
      S,
      170,
      M,
    ])
  })
  it('is empty without children', () => {
    expect(availableOptionValues({ sku: 'X' }, {}, 'size', listOn)).toEqual([])
  })
})

describe('optionLabel', () => {
  const withZero = {
    sku: 'P',
    configurable_options: [
      { attribute_code: 'color', values: [{ value_index: 0, label: 'Natural' }] },
      { attribute_code: 'size', values: [{ value_index: S, label: 'S' }] },
    ],
  }
  it.each([
    ['first option', product, 'color', RED, 'Red'],
    ['second option', product, 'size', M, 'M'],
    ['value as a string', product, 'size', String(L) as unknown as number, 'L'],
    ['a value of another option', product, 'size', RED, null],
    ['an unknown attribute', product, 'fabric', 1, null],
    ['a product without options', { sku: 'TEE' }, 'color', RED, null],
    ['no choice is not value 0', withZero, 'color', null, null],
    ['value 0 is a choice', withZero, 'color', 0, 'Natural'],
  ])('%s', (_name, p, attribute, value, label) => {
    expect(optionLabel(p, attribute, value)).toBe(label)
  })
})

describe('defaultVariant: choosing among children', () => {
  const base = { sku: 'P', configurable_options: product.configurable_options }
  it.each([
    [
      'best discount beats the lowest price',
      [kid('CHEAP', RED, S, 800), kid('HALF', RED, M, 2000, { special_price: 1000 })],
      'HALF',
    ],
    [
      'equal discounts: the first child',
      [kid('A', RED, S, 1000, { special_price: 800 }), kid('B', RED, M, 2000, { special_price: 1600 })],
      'A',
    ],
    [
      'a smaller later discount does not replace a bigger one',
      [kid('A', RED, S, 1000, { special_price: 500 }), kid('B', RED, M, 1000, { special_price: 900 })],
      'A',
    ],
    ['equal prices: the first child', [kid('A', RED, S, 1000), kid('B', RED, M, 1000)], 'A'],
    [
      'a disabled child never wins on discount',
      [kid('A', RED, S, 1000), kid('OFF', RED, M, 1000, { status: 2, special_price: 100 })],
      'A',
    ],
    [
      'nothing in stock: an enabled child before a cheaper disabled one',
      [kid('A', RED, S, 1000, { stock: none }), kid('OFF', RED, M, 100, { status: 2, stock: none })],
      'A',
    ],
    [
      'every child disabled: still one of them',
      [kid('A', RED, S, 1000, { status: 2 }), kid('B', RED, M, 900, { status: 2 })],
      'B',
    ],
  ])('%s', (_name, children, sku) => {
    expect(defaultVariant({ ...base, configurable_children: children }, NOW)?.sku).toBe(sku)
  })
  it('with out-of-stock listing off, an out-of-stock child is not chosen while another is enabled', () => {
    const children = [kid('OUT', RED, S, 100, { stock: none }), kid('IN', RED, M, 1000)]
    expect(defaultVariant({ ...base, configurable_children: children }, NOW, null, listOff)?.sku).toBe('IN')
  })
  it('is null without a children list', () => {
    expect(defaultVariant({ sku: 'X' }, NOW)).toBeNull()
    expect(defaultVariantForSize({ sku: 'X' }, S, NOW)).toBeNull()
  })
  it('for a size: the best child of that size only, and nothing for an unknown or unchosen size', () => {
    const p = {
      ...base,
      configurable_children: [
        kid('S-OUT', RED, S, 100, { stock: none }),
        kid('S-OFF', BLUE, S, 50, { status: 2, stock: none }),
        kid('M-HALF', RED, M, 2000, { special_price: 1000 }),
      ],
    }
    expect(defaultVariantForSize(p, S, NOW)?.sku).toBe('S-OUT')
    expect(defaultVariantForSize(p, String(M) as unknown as number, NOW)?.sku).toBe('M-HALF')
    expect(defaultVariantForSize(p, L, NOW)).toBeNull()
    const withZero = { ...p, configurable_children: [...p.configurable_children, kid('ZERO', RED, 0, 10)] }
    expect(defaultVariantForSize(withZero, null, NOW)).toBeNull()
    expect(defaultVariantForSize(withZero, 0, NOW)?.sku).toBe('ZERO')
  })
})

describe('variantRedirect: only a change of address redirects', () => {
  const parent = { sku: 'KURTA', slug: 'red-kurta', type_id: 'configurable' }
  const loaded = { sku: 'KURTA-RED-S', parent_sku: 'KURTA' }
  it.each([
    [
      'wrong slug',
      { parentSku: 'KURTA', slug: 'old-slug', childSku: 'KURTA-RED-S' },
      '/p/KURTA/red-kurta/KURTA-RED-S',
    ],
    [
      'no child sku yet',
      { parentSku: 'KURTA', slug: 'red-kurta', childSku: null },
      '/p/KURTA/red-kurta/KURTA-RED-S',
    ],
    [
      'another parent sku',
      { parentSku: 'kurta', slug: 'red-kurta', childSku: 'KURTA-RED-S' },
      '/p/KURTA/red-kurta/KURTA-RED-S',
    ],
    ['canonical', { parentSku: 'KURTA', slug: 'red-kurta', childSku: 'KURTA-RED-S' }, null],
  ])('%s', (_name, current, path) => {
    expect(variantRedirect(loaded, parent, current)?.path ?? null).toBe(path)
  })
  it('returns the route parts with the path', () => {
    expect(variantRedirect(loaded, parent, { parentSku: 'KURTA-RED-S', slug: 'x', childSku: null })).toEqual({
      parentSku: 'KURTA',
      slug: 'red-kurta',
      childSku: 'KURTA-RED-S',
      path: '/p/KURTA/red-kurta/KURTA-RED-S',
    })
  })
  it.each([
    ['no parent loaded', loaded, null],
    ['the parent of another product', { sku: 'KURTA-RED-S', parent_sku: 'OTHER' }, parent],
    ['a parent given but no parent sku on the product', { sku: 'KURTA-RED-S' }, parent],
    ['parentSku spelled camel-case, no parent', { sku: 'KURTA-RED-S', parentSku: 'KURTA' }, undefined],
  ])('%s → no redirect', (_name, product, p) => {
    expect(variantRedirect(product, p, { parentSku: 'KURTA-RED-S', slug: 'x', childSku: null })).toBeNull()
  })
  it('a parent without a type counts as configurable', () => {
    expect(
      variantRedirect(
        loaded,
        { sku: 'KURTA', slug: 'red-kurta' },
        { parentSku: 'KURTA-RED-S', slug: 'x', childSku: null },
      )?.path,
    ).toBe('/p/KURTA/red-kurta/KURTA-RED-S')
  })
})
