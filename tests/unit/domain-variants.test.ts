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
} from '../../shared/domain/variants'

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
