// Client budgets (performance issue): gzip bytes are deterministic, so they are a test, not a
// benchmark. Reads the manifest `npm run build` writes (npm test builds first).
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const manifestPath = path.resolve(
  import.meta.dirname,
  '../../../worker/platform/render/manifest.generated.json',
)

// Each page's budget leaves room to grow over what it loads now (home 20 KB, category 31, product
// 37, cart 45, checkout 57), and none fits a build that ships react-dom (home alone was 79.7 KB):
// the islands run on preact/compat (docs/decisions/0014).
const JS_BUDGET_KB: Record<string, number> = {
  home: 40,
  category: 50,
  product: 60,
  cart: 70,
  checkout: 80,
}
const CSS_BUDGET_KB = 30

describe('client budgets', () => {
  const manifest = existsSync(manifestPath)
    ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as {
        cssGzipBytes: number
        entries: Record<string, { gzipBytes: number; imports: string[] }>
      })
    : null

  it('has a client build to measure (run npm run build)', () => {
    expect(manifest).not.toBeNull()
  })

  for (const [entry, kb] of Object.entries(JS_BUDGET_KB)) {
    it(`the ${entry} page loads at most ${kb} KB gzip of JS`, () => {
      const e = manifest?.entries[entry]
      expect(e, `entry ${entry} missing from the build`).toBeDefined()
      expect(e!.gzipBytes / 1024).toBeLessThanOrEqual(kb)
    })
  }

  it(`every page loads at most ${CSS_BUDGET_KB} KB gzip of CSS`, () => {
    expect(manifest!.cssGzipBytes / 1024).toBeLessThanOrEqual(CSS_BUDGET_KB)
  })
})
