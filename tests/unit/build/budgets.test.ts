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
// The scripts a page's first load asks for (its entry and the chunks it imports): each costs the
// browser and the server CPU whatever its size, so the build groups the modules the same pages load
// at start into one chunk (docs/decisions/0016). Now home 6, category 11, product 16, cart 14,
// checkout 17; splitting by every combination of pages and on-demand parts gave 17, 26, 34, 31, 38.
const JS_FILES_BUDGET: Record<string, number> = {
  home: 8,
  category: 14,
  product: 20,
  cart: 18,
  checkout: 21,
}

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

  for (const [entry, files] of Object.entries(JS_FILES_BUDGET)) {
    it(`the ${entry} page's first load asks for at most ${files} scripts`, () => {
      const e = manifest?.entries[entry]
      expect(e, `entry ${entry} missing from the build`).toBeDefined()
      expect(1 + e!.imports.length).toBeLessThanOrEqual(files)
    })
  }

  it(`every page loads at most ${CSS_BUDGET_KB} KB gzip of CSS`, () => {
    expect(manifest!.cssGzipBytes / 1024).toBeLessThanOrEqual(CSS_BUDGET_KB)
  })
})
