// The deployed worker must not depend on the developer tools under scripts/ (the demo generator
// and the importer): those may change or vanish without the shop noticing.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name)
    if (e.isDirectory()) return sources(p)
    return /\.(ts|tsx)$/.test(e.name) ? [p] : []
  })
}

describe('production code layering', () => {
  it('no module of worker/, shared/ or client/ imports from scripts/', () => {
    const offenders = ['worker', 'shared', 'client']
      .flatMap(sources)
      .filter((file) => /from\s+['"][./]*scripts\//.test(readFileSync(file, 'utf8')))
    expect(offenders).toEqual([])
  })
})
