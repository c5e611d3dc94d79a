import { Suspense } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { lazyPart, preloadParts } from '../../../../client/islands/lazy-part'

/** React's string renderer's mark of a boundary that suspended and is left to the browser. */
const LEFT_TO_BROWSER = '<!--$!-->'

function Rows({ rows }: { rows: number }) {
  return <p data-testid="part">{rows} rows</p>
}

const inBoundary = (node: React.ReactNode) =>
  renderToString(
    <div data-island="form">
      <Suspense fallback={null}>{node}</Suspense>
    </div>,
  )

describe('a part of an island loaded on demand', () => {
  it('suspends like lazy until its code is loaded, then renders in place with its props', async () => {
    const Part = lazyPart(async () => Rows)
    expect(inBoundary(<Part rows={3} />)).toContain(LEFT_TO_BROWSER)
    await Part.preload()
    const html = inBoundary(<Part rows={3} />)
    expect(html).not.toContain(LEFT_TO_BROWSER)
    expect(html).toContain('<p data-testid="part">3<!-- --> rows</p>')
  })

  it('loads its code once however often it is preloaded, and again after a failed load', async () => {
    const load = vi
      .fn<() => Promise<typeof Rows>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValue(Rows)
    const Part = lazyPart(load)
    await expect(Part.preload()).rejects.toThrow('offline')
    await Promise.all([Part.preload(), Part.preload(), Part.preload()])
    expect(load).toHaveBeenCalledTimes(2)
    expect(inBoundary(<Part rows={1} />)).toContain('<p data-testid="part">1<!-- --> rows</p>')
  })

  it('preloadParts loads every part defined, and a part that fails leaves the others loaded', async () => {
    const A = lazyPart(async () => Rows)
    const B = lazyPart(() => Promise.reject(new Error('gone')))
    const C = lazyPart(async () => ({ rows }: { rows: number }) => <ul data-testid="c">{rows}</ul>)
    await preloadParts()
    expect([A.loaded(), B.loaded(), C.loaded()]).toEqual([true, false, true])
    expect(inBoundary(<A rows={2} />)).toContain('<p data-testid="part">2<!-- --> rows</p>')
    expect(inBoundary(<C rows={5} />)).toContain('<ul data-testid="c">5</ul>')
    expect(inBoundary(<B />)).toContain(LEFT_TO_BROWSER)
    // Until every part has loaded, each page asks again; then no page waits on anything.
    expect(preloadParts()).not.toBeNull()
  })

  it('preloadParts has nothing to wait for once every part has loaded', async () => {
    // A fresh module: the parts above (one that never loads) are not among its parts.
    vi.resetModules()
    const fresh = await import('../../../../client/islands/lazy-part')
    const parts = [fresh.lazyPart(async () => Rows), fresh.lazyPart(async () => Rows)]
    const first = fresh.preloadParts()
    expect(first).not.toBeNull()
    await first
    expect(parts.map((part) => part.loaded())).toEqual([true, true])
    expect(fresh.preloadParts()).toBeNull()
  })
})
