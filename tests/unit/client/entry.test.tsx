import { afterEach, describe, expect, it, vi } from 'vitest'
import { hydrateIslands } from '../../../client/entry'
import { defineIsland } from '../../../client/islands/define'

/** An island's root as hydrateIslands finds it: after its props' data block. Not a DOM node, so hydrating it fails. */
function islandRoot(name: string, propsText = '{}') {
  const props = { tagName: 'SCRIPT', hasAttribute: () => true, textContent: propsText }
  return { dataset: { island: name } as Record<string, string>, previousElementSibling: props }
}

afterEach(() => vi.unstubAllGlobals())

describe('hydrating the islands of a page', () => {
  it('hydrates the islands after one that fails, and says which failed', async () => {
    vi.stubGlobal('document', { documentElement: { dataset: {} } })
    const errors: unknown[][] = []
    vi.spyOn(console, 'error').mockImplementation((...args) => void errors.push(args))
    const first = islandRoot('first')
    const second = islandRoot('second')
    const root = { querySelectorAll: () => [first, second] } as unknown as ParentNode
    const islands = [defineIsland('first', () => null), defineIsland('second', () => null)]
    expect(() => hydrateIslands(islands, root)).not.toThrow()
    // Each island in a task of its own: the second after the first's task.
    await vi.waitFor(() => expect(errors).toHaveLength(2))
    expect(errors.map((e) => e[0])).toEqual([
      'island first: hydration failed',
      'island second: hydration failed',
    ])
    expect(first.dataset.hydrating).toBe('true')
    expect(second.dataset.hydrating).toBe('true')
    vi.mocked(console.error).mockRestore()
  })

  it('leaves an island with bad props as served, not hydrating, and hydrates the next', async () => {
    vi.stubGlobal('document', { documentElement: { dataset: {} } })
    const errors: unknown[][] = []
    vi.spyOn(console, 'error').mockImplementation((...args) => void errors.push(args))
    const broken = islandRoot('broken', '{"unclosed":')
    const next = islandRoot('next')
    const root = { querySelectorAll: () => [broken, next] } as unknown as ParentNode
    hydrateIslands([defineIsland('broken', () => null), defineIsland('next', () => null)], root)
    await vi.waitFor(() => expect(errors).toHaveLength(2))
    expect(errors.map((e) => e[0])).toEqual(['island broken: bad props', 'island next: hydration failed'])
    // A click on a panel of the broken island is not held for a hydration that will not come.
    expect(broken.dataset.hydrating).toBeUndefined()
    expect(next.dataset.hydrating).toBe('true')
    vi.mocked(console.error).mockRestore()
  })
})
