import { describe, expect, it } from 'vitest'
import {
  addRecentlyViewed,
  addToCompare,
  addToWishlist,
  containsSku,
  removeBySku,
  uniqueBySku,
} from '../../../../shared/domain/lists'

const items = (...skus: string[]) => skus.map((sku) => ({ sku }))
const skus = (list: { sku: string }[]) => list.map((i) => i.sku)

describe('recently viewed: max 20, newest first, revisit moves to front', () => {
  it.each([
    ['first view', [], 'A', 20, ['A']],
    ['newest first', ['A', 'B'], 'C', 20, ['C', 'A', 'B']],
    ['revisit moves to the front', ['A', 'B', 'C'], 'C', 20, ['C', 'A', 'B']],
    ['capped', ['A', 'B', 'C'], 'D', 3, ['D', 'A', 'B']],
  ])('%s', (_name, before, sku, max, after) => {
    const list = items(...before)
    expect(skus(addRecentlyViewed(list, { sku }, max))).toEqual(after)
    expect(skus(list)).toEqual(before)
  })
  it('defaults to a maximum of 20', () => {
    let list: { sku: string }[] = []
    for (let i = 0; i < 25; i++) list = addRecentlyViewed(list, { sku: `S${i}` })
    expect(list).toHaveLength(20)
    expect(list[0]?.sku).toBe('S24')
    expect(list[19]?.sku).toBe('S5')
  })
})

describe('compare: no duplicates by sku', () => {
  it.each([
    ['adds', ['A'], 'B', ['A', 'B'], true],
    ['ignores a duplicate', ['A', 'B'], 'A', ['A', 'B'], false],
  ])('%s', (_name, before, sku, after, added) => {
    const result = addToCompare(items(...before), { sku })
    expect(skus(result.list)).toEqual(after)
    expect(result.added).toBe(added)
  })
  it.each([
    [['A', 'B'], 'A', ['B'], true],
    [['A'], 'Z', ['A'], false],
  ])('removeBySku(%j, %s)', (before, sku, after, removed) => {
    const result = removeBySku(items(...before), sku)
    expect(skus(result.list)).toEqual(after)
    expect(result.removed).toBe(removed)
  })
})

describe('wishlist: add if absent (qty 1), remove by sku', () => {
  it.each([
    ['adds with default qty 1', [], { sku: 'A' }, [{ sku: 'A', qty: 1 }], true],
    ['keeps a given qty', [], { sku: 'A', qty: 2 }, [{ sku: 'A', qty: 2 }], true],
    ['qty 0 becomes 1', [], { sku: 'A', qty: 0 }, [{ sku: 'A', qty: 1 }], true],
    ['present: unchanged', [{ sku: 'A', qty: 1 }], { sku: 'A', qty: 5 }, [{ sku: 'A', qty: 1 }], false],
  ])('%s', (_name, before, item, after, added) => {
    const result = addToWishlist(before, item)
    expect(result).toEqual({ list: after, added })
  })
  it('removes by sku', () => {
    expect(
      removeBySku(
        [
          { sku: 'A', qty: 1 },
          { sku: 'B', qty: 1 },
        ],
        'A',
      ),
    ).toEqual({ list: [{ sku: 'B', qty: 1 }], removed: true })
  })
  it('containsSku and uniqueBySku', () => {
    expect(containsSku(items('A', 'B'), 'B')).toBe(true)
    expect(containsSku(items('A'), 'B')).toBe(false)
    expect(skus(uniqueBySku(items('A', 'B', 'A', 'C', 'B')))).toEqual(['A', 'B', 'C'])
  })
})
