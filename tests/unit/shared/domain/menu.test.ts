import { describe, expect, it } from 'vitest'
import {
  breadcrumbs,
  buildMenu,
  categoryTrail,
  categoryUrl,
  descendantIds,
  isMenuCategory,
  type MenuCategory,
  productUrl,
} from '../../../../shared/domain/menu'
import { FLAG_VALUES } from '../../../helpers/flag-values'

const cat = (id: number, name: string, extra: Partial<MenuCategory> = {}): MenuCategory => ({
  id,
  name,
  slug: name.toLowerCase(),
  url_path: `${name.toLowerCase()}`,
  include_in_menu: 1,
  product_count: 5,
  children_data: [],
  ...extra,
})

describe('isMenuCategory', () => {
  it.each([
    ['in menu with products', cat(1, 'A'), true],
    ['not in menu', cat(1, 'A', { include_in_menu: 0 }), false],
    ['include_in_menu false', cat(1, 'A', { include_in_menu: false }), false],
    ['no products, no children', cat(1, 'A', { product_count: 0 }), false],
    ['no products but children', cat(1, 'A', { product_count: 0, children_data: [cat(2, 'B')] }), true],
    ['no products but children_count', cat(1, 'A', { product_count: 0, children_count: 2 }), true],
    ['inactive', cat(1, 'A', { is_active: false }), false],
  ])('%s', (_name, category, expected) => {
    expect(isMenuCategory(category)).toBe(expected)
  })
})

describe('buildMenu', () => {
  it('orders by mp_new_attribute with missing = 100000, recursively filtered', () => {
    const menu = buildMenu([
      cat(10, 'Sale'),
      cat(11, 'Women', {
        mp_new_attribute: 2,
        children_data: [
          cat(20, 'Tops', { mp_new_attribute: 5 }),
          cat(21, 'Hidden', { include_in_menu: 0 }),
          cat(22, 'Dresses', { mp_new_attribute: 1 }),
        ],
      }),
      cat(12, 'Men', { mp_new_attribute: 1 }),
      cat(13, 'Empty', { product_count: 0, mp_new_attribute: 0 }),
      cat(14, 'Last', { mp_new_attribute: 100_001 }),
    ])
    expect(menu.map((m) => m.name)).toEqual(['Men', 'Women', 'Sale', 'Last'])
    expect(menu[1]).toEqual({
      id: 11,
      name: 'Women',
      url: '/women',
      children: [
        { id: 22, name: 'Dresses', url: '/dresses', children: [] },
        { id: 20, name: 'Tops', url: '/tops', children: [] },
      ],
    })
  })
  it('uses /c/{slug} with the dispatcher off', () => {
    expect(buildMenu([cat(1, 'Women')], false)[0]?.url).toBe('/c/women')
  })
  it('returns [] for nothing', () => {
    expect(buildMenu(null)).toEqual([])
  })
})

describe('breadcrumbs', () => {
  const root = { name: 'Default Category', slug: 'default-category', url_path: '', level: 1 }
  const women = { name: 'Women', slug: 'women', url_path: 'women', level: 2 }
  const tops = { name: 'Tops', slug: 'tops', url_path: 'women/tops', level: 3 }
  it.each([
    [
      'category page: Default Category → Home, active crumb plain',
      [root, women, tops],
      undefined,
      [
        { label: 'Home', href: '/' },
        { label: 'Women', href: '/women' },
        { label: 'Tops', href: null },
      ],
    ],
    [
      'product page: categories link, product is the active crumb',
      [root, women],
      'Silk Kurta',
      [
        { label: 'Home', href: '/' },
        { label: 'Women', href: '/women' },
        { label: 'Silk Kurta', href: null },
      ],
    ],
    [
      'trail without the root still starts with Home',
      [women],
      undefined,
      [
        { label: 'Home', href: '/' },
        { label: 'Women', href: null },
      ],
    ],
    [
      'level-0 root skipped',
      [{ name: 'Root Catalog', slug: 'root', level: 0 }, root],
      undefined,
      [{ label: 'Home', href: '/' }],
    ],
  ])('%s', (_name, trail, active, expected) => {
    expect(breadcrumbs(trail, active)).toEqual(expected)
  })
})

describe('urls and trails', () => {
  it.each([
    [{ sku: 'K', slug: 'kurta', url_path: 'women/kurta.html' }, null, true, '/women/kurta.html'],
    [{ sku: 'K', slug: 'kurta', url_path: '/women/kurta' }, 'K-RED', true, '/women/kurta?childSku=K-RED'],
    [{ sku: 'K', slug: 'kurta', url_path: 'women/kurta' }, 'K-RED', false, '/p/K/kurta/K-RED'],
    [{ sku: 'K', slug: 'kurta' }, null, true, '/p/K/kurta'],
    [{ sku: 'K-RED', parent_sku: 'K', slug: 'kurta' }, 'K-RED', false, '/p/K/kurta/K-RED'],
  ])('productUrl(%j, %j, %s) = %s', (product, child, dispatcher, expected) => {
    expect(productUrl(product, child, dispatcher)).toBe(expected)
  })
  it('categoryUrl falls back to /c/{slug} without url_path', () => {
    expect(categoryUrl({ slug: 'women', url_path: '' })).toBe('/c/women')
  })
  it('builds a trail from the path and collects descendant ids', () => {
    const byId = new Map([
      [2, 'Default'],
      [20, 'Women'],
      [21, 'Tops'],
    ])
    expect(categoryTrail('1/2/20/21', (id) => byId.get(id))).toEqual(['Default', 'Women', 'Tops'])
    expect(
      descendantIds({ id: 20, children_data: [{ id: 21, children_data: [{ id: 23 }] }, { id: 22 }] }),
    ).toEqual([20, 21, 23, 22])
  })
})

describe('include_in_menu values', () => {
  it.each(FLAG_VALUES)('%j → %s', (value, expected) => {
    expect(isMenuCategory(cat(1, 'A', { include_in_menu: value as MenuCategory['include_in_menu'] }))).toBe(
      expected,
    )
  })
  it.each([
    ['children_data null', { children_data: null }],
    ['children_data missing', { children_data: undefined }],
    ['children_count null', { children_data: [], children_count: null }],
  ])('no products and %s: hidden', (_name, extra) => {
    expect(isMenuCategory(cat(1, 'A', { product_count: 0, ...extra }))).toBe(false)
    expect(isMenuCategory(cat(1, 'A', { product_count: null, ...extra }))).toBe(false)
  })
})

describe('buildMenu ordering ties', () => {
  it('equal mp_new_attribute: by position, then the order given', () => {
    const menu = buildMenu([
      cat(1, 'P3', { mp_new_attribute: 5, position: 3 }),
      cat(2, 'First', { mp_new_attribute: 5 }),
      cat(3, 'P1', { mp_new_attribute: 5, position: 1 }),
      cat(4, 'Second', { mp_new_attribute: 5 }),
      cat(5, 'P2', { mp_new_attribute: 5, position: 2 }),
      cat(6, 'Third', { mp_new_attribute: 5, position: 0 }),
      cat(7, 'Early', { mp_new_attribute: 4, position: 9 }),
    ])
    expect(menu.map((m) => m.name)).toEqual(['Early', 'First', 'Second', 'Third', 'P1', 'P2', 'P3'])
  })
  it('keeps the given order of many equal entries', () => {
    const names = Array.from({ length: 30 }, (_, i) => `C${i}`)
    expect(buildMenu(names.map((n, i) => cat(i, n))).map((m) => m.name)).toEqual(names)
  })
})

describe('category and product links never leave the site', () => {
  it.each([
    [{ slug: 'tops', url_path: 'women/tops' }, '/women/tops'],
    [{ slug: 'tops', url_path: '/women/tops' }, '/women/tops'],
    [{ slug: 'tops', url_path: '//evil.example/tops' }, '/evil.example/tops'],
    [{ slug: 'tops', url_path: '///women/tops' }, '/women/tops'],
    [{ slug: 'tops' }, '/c/tops'],
    [{ slug: 'tops', url_path: null }, '/c/tops'],
    [{ slug: 'tops', url_path: '/' }, '/c/tops'],
  ])('categoryUrl(%j) = %s', (category, expected) => {
    expect(categoryUrl(category, true)).toBe(expected)
  })
  it.each([
    [{ sku: 'K', slug: 'kurta', url_path: '//evil.example/kurta' }, null, '/evil.example/kurta'],
    [{ sku: 'K', slug: 'kurta', url_path: 'women/kurta' }, 'K', '/women/kurta'],
    [{ sku: 'K-RED', parentSku: 'K', slug: 'kurta', url_path: 'women/kurta' }, 'K', '/women/kurta'],
    [{ sku: 'K', slug: 'kurta', url_path: 'women/kurta' }, '', '/women/kurta'],
    [{ sku: 'K', slug: 'kurta', url_path: 'women/kurta' }, 'K RED&x', '/women/kurta?childSku=K%20RED%26x'],
    [{ sku: 'K', slug: 'kurta' }, 'K', '/p/K/kurta'],
  ])('productUrl(%j, %j) = %s', (product, child, expected) => {
    expect(productUrl(product, child, true)).toBe(expected)
  })
})

describe('categoryTrail skips what is not a category id', () => {
  const anyId = (id: number) => ({ id })
  it.each([
    ['1/2/20', [1, 2, 20]],
    ['1/2/20/', [1, 2, 20]],
    ['/1//2', [1, 2]],
    ['1/x/2', [1, 2]],
    ['1/2.5/3', [1, 3]],
    ['', []],
  ])('%j → %j', (path, ids) => {
    expect(categoryTrail(path, anyId).map((c) => c.id)).toEqual(ids)
  })
  it('a missing path is an empty trail', () => {
    expect(categoryTrail(null, anyId)).toEqual([])
    expect(categoryTrail(undefined, anyId)).toEqual([])
  })
})
