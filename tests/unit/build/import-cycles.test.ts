// The guard against import cycles: no file of the repository reaches itself again through static
// imports (of values or of types), except inside a folder allowed in import-cycles.allow.json with
// its reason. The first describe block pins what the detector counts, on a small project of its own.
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { readExportList } from '../../../scripts/dead-exports.mjs'
import { cycleAllowed, findCycles, importGraph } from '../../../scripts/import-cycles.mjs'
import { scratchFolder } from '../../helpers/scratch'

const root = path.resolve(import.meta.dirname, '../../..')
const allowed = readExportList(path.join(import.meta.dirname, 'import-cycles.allow.json'))

describe('the import-cycle detector', () => {
  const project = scratchFolder('import-cycles')
  const write = project.write
  beforeAll(() => {
    // values: a → b → c → a, and a side road c → d that leads nowhere back
    write('values/a.ts', "import { b } from './b'\nexport const a = () => b()\n")
    write('values/b.ts', "import { c } from './c'\nexport const b = () => c()\n")
    write('values/c.ts', "import { a } from './a'\nimport './d'\nexport const c = () => a\n")
    write('values/d.ts', 'export const d = 1\n')
    // types only, through a re-export: t1 → t2 (export type … from) → t1
    write('types/t1.ts', "import type { T2 } from './t2'\nexport type T1 = { next: T2 }\n")
    write('types/t2.ts', "export type { T1 as T2 } from './t1'\n")
    // an inline type import counts too: i1 → i2 → i1
    write('inline/i1.ts', "import { type I2, i2 } from './i2'\nexport const i1: I2 = i2\n")
    write(
      'inline/i2.ts',
      "import { type I1 } from './i1'\nexport type I2 = number\nexport const i2 = 1 as I1 as I2\n",
    )
    // a lazy import() back is not an edge; a file importing itself is not a cycle
    write('lazy/l1.ts', "import { l2 } from './l2'\nexport const l1 = l2\n")
    write('lazy/l2.ts', "export const l2 = () => import('./l1')\n")
    write('self/s.ts', "export * from './s'\nexport const s = 1\n")
  })

  it('finds exactly the groups of files that import each other, with a path round each', () => {
    const graph = importGraph({ root: project.dir })
    const cycles = findCycles(graph)
    expect(cycles.map((c) => c.files)).toEqual([
      ['inline/i1.ts', 'inline/i2.ts'],
      ['types/t1.ts', 'types/t2.ts'],
      ['values/a.ts', 'values/b.ts', 'values/c.ts'],
    ])
    expect(cycles[2]?.path).toEqual(['values/a.ts', 'values/b.ts', 'values/c.ts', 'values/a.ts'])
    expect(graph.get('types/t1.ts')?.get('types/t2.ts')).toBe('type')
    expect(graph.get('values/c.ts')?.get('values/d.ts')).toBe('value')
    expect(graph.get('lazy/l2.ts')?.size).toBe(0)
  })

  it('allows a cycle only when one allowed folder holds all of its files', () => {
    const cycle = { files: ['a/x.ts', 'a/y.ts'], path: [] }
    expect(cycleAllowed(cycle, { 'a/': 'why' })).toBe(true)
    expect(cycleAllowed(cycle, { 'a/x': 'why' })).toBe(false)
    expect(cycleAllowed({ files: ['a/x.ts', 'b/y.ts'], path: [] }, { 'a/': 'why' })).toBe(false)
  })
})

describe('the import graph of the repository', () => {
  let cycles: ReturnType<typeof findCycles>
  beforeAll(() => {
    cycles = findCycles(importGraph({ root }))
  }, 300_000)

  it('has no cycle outside the allowed folders (node scripts/import-cycles.mjs prints them)', () => {
    const unlisted = cycles.filter((c) => !cycleAllowed(c, allowed)).map((c) => c.path.join(' -> '))
    expect(unlisted, 'break the cycle: move what both sides need below them').toEqual([])
  })

  it('the allow-list names folders that still hold a cycle, each with its reason', () => {
    for (const [folder, reason] of Object.entries(allowed)) {
      expect(
        cycles.some((c) => cycleAllowed(c, { [folder]: reason })),
        `${folder} has no cycle any more: drop it from import-cycles.allow.json`,
      ).toBe(true)
      expect(reason.length).toBeGreaterThan(10)
    }
  })
})
