import { describe, expect, it } from 'vitest'
import {
  approxBytes,
  clearAllMemos,
  createMemo,
  DEFAULT_MAX_BYTES,
  memoTable,
} from '../../../../worker/platform/memo'

describe('the isolate memo', () => {
  it('keeps a settled value and reuses it within its time to live', async () => {
    const memo = createMemo<number>({ name: 'test ttl', ttlMs: 1000, maxEntries: 10 })
    let loads = 0
    const load = async () => ++loads
    expect(await memo.get('k', load, 0)).toBe(1)
    expect(await memo.get('k', load, 999)).toBe(1)
    expect(await memo.get('k', load, 1000)).toBe(2)
  })

  it('never hands one caller the unfinished load of another (each miss loads itself)', async () => {
    const memo = createMemo<string>({ name: 'test inflight', ttlMs: 60_000, maxEntries: 10 })
    let release: (v: string) => void = () => {}
    const first = memo.get('k', () => new Promise<string>((r) => (release = r)))
    // The first load never settles (its request ended): a later caller must not wait on it.
    const second = await memo.get('k', async () => 'own')
    expect(second).toBe('own')
    release('late')
    expect(await first).toBe('late')
  })

  it('does not keep a failed load', async () => {
    const memo = createMemo<string>({ name: 'test failure', ttlMs: 60_000, maxEntries: 10 })
    await expect(memo.get('k', async () => Promise.reject(new Error('down')))).rejects.toThrow('down')
    expect(await memo.get('k', async () => 'up')).toBe('up')
  })

  it('drops an entry read under another version', async () => {
    let version = 1
    const memo = createMemo<string>({
      name: 'test version',
      ttlMs: 60_000,
      maxEntries: 10,
      version: () => version,
    })
    await memo.get('k', async () => 'v1')
    expect(memo.peek('k')).toBe('v1')
    version = 2
    expect(memo.peek('k')).toBeUndefined()
    expect(await memo.get('k', async () => 'v2')).toBe('v2')
  })

  it('stays within its entry and byte budgets, least recently used out first', async () => {
    const memo = createMemo<string>({
      name: 'test budget',
      ttlMs: 60_000,
      maxEntries: 3,
      maxBytes: 10,
      sizeOf: (v) => v.length,
    })
    memo.set('a', 'aaa')
    memo.set('b', 'bbb')
    memo.peek('a') // a is now the most recently used
    memo.set('c', 'cccc') // 10 bytes: fits
    memo.set('d', 'dd') // over 10 bytes and 3 entries: b goes first
    expect(memo.peek('b')).toBeUndefined()
    expect(memo.peek('a')).toBe('aaa')
    expect(memo.size).toBeLessThanOrEqual(3)
    expect(memo.bytes).toBeLessThanOrEqual(10)
    memo.set('huge', 'x'.repeat(11)) // bigger than the whole budget: never kept
    expect(memo.peek('huge')).toBeUndefined()
  })

  it('bounds a memo that sets no byte budget: its values are counted and one over the default is not kept', () => {
    const memo = createMemo<string[]>({ name: 'test default bytes', ttlMs: 60_000, maxEntries: 100 })
    memo.set('small', ['a', 'b'])
    expect(memo.bytes).toBeGreaterThan(0)
    // A value whose strings alone are over the default budget.
    const big = Array.from({ length: 64 }, (_, i) => `${i}`.padEnd(DEFAULT_MAX_BYTES / 64, 'x'))
    memo.set('big', big)
    expect(memo.peek('big')).toBeUndefined()
    expect(memo.peek('small')).toEqual(['a', 'b'])
    // Many values that each fit: the oldest go so the sum stays within the default.
    const chunk = 'y'.repeat(DEFAULT_MAX_BYTES / 8)
    for (let i = 0; i < 20; i++) memo.set(`c${i}`, [chunk])
    expect(memo.bytes).toBeLessThanOrEqual(DEFAULT_MAX_BYTES)
    expect(memo.peek('c0')).toBeUndefined()
    expect(memo.peek('c19')).toEqual([chunk])
    expect(memoTable().find((m) => m.name === 'test default bytes')?.maxBytes).toBe(DEFAULT_MAX_BYTES)
  })

  it('counts a value at least by its strings and typed arrays, and nested containers by their contents', () => {
    const text = 'x'.repeat(1000)
    expect(approxBytes(text)).toBeGreaterThanOrEqual(1000)
    expect(approxBytes(new Int32Array(1000))).toBeGreaterThanOrEqual(4000)
    const nested = { a: [text, text], m: new Map([['k', { t: text }]]), s: new Set([text]) }
    expect(approxBytes(nested)).toBeGreaterThanOrEqual(4 * 1000)
    expect(approxBytes(null)).toBe(0)
  })

  it('lists every memo with its budget, and clears them all', async () => {
    const memo = createMemo<string>({ name: 'test table', ttlMs: 5, maxEntries: 7 })
    memo.set('x', 'y')
    const row = memoTable().find((m) => m.name === 'test table')
    expect(row).toMatchObject({ entries: 1, maxEntries: 7, ttlMs: 5, versioned: false })
    clearAllMemos()
    expect(memo.size).toBe(0)
  })
})
