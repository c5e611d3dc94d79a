// The guard against dead exports: every export of worker/, client/, shared/ and scripts/ is imported
// by some other file (tests count), is deliberate public API (dead-exports.allow.json, each with its
// reason), or is still waiting to be removed (dead-exports.pending.json, meant to become empty).
// The first describe block pins what the detector counts as a use, on a small project of its own.
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { exportKey, findDeadExports, readExportList } from '../../../scripts/dead-exports.mjs'
import { scratchFolder } from '../../helpers/scratch'

const root = path.resolve(import.meta.dirname, '../../..')
const allowed = readExportList(path.join(import.meta.dirname, 'dead-exports.allow.json'))
const pending = readExportList(path.join(import.meta.dirname, 'dead-exports.pending.json'))

describe('the dead-export detector', () => {
  const project = scratchFolder('dead-exports')
  const write = project.write
  beforeAll(() => {
    write(
      'src/a.ts',
      [
        'export const usedValue = 1',
        'export const unusedValue = 2',
        'export function usedOnlyHere() { return usedValue }',
        'export type UsedType = { a: number }',
        'export interface UnusedType { b: string }',
        'const local = 3',
        'export { local as renamed }',
        'export default function main() { return usedOnlyHere() }',
      ].join('\n'),
    )
    write('src/b.ts', 'export const viaStar = 1\nexport const starUnused = 2\nexport const viaNamed = 3\n')
    write('src/index.ts', "export * from './b'\nexport { viaNamed as renamedAgain } from './b'\n")
    write('src/c.ts', 'export const viaDynamic = 1\nexport const alsoDynamic = 2\n')
    write('src/d.ts', 'export const viaString = 1\nexport const notInString = 2\n')
    write('src/e.ts', 'export type ViaImportType = number\n')
    write(
      'tests/user.test.ts',
      [
        "import main, { usedValue, type UsedType } from '../src/a'",
        "import { viaStar, renamedAgain } from '../src/index'",
        "type T = import('../src/e').ViaImportType",
        "const later = () => import('../src/c')",
        "const stdin = `export { viaString } from '../src/d'`",
        'export const t: UsedType = { a: usedValue + viaStar + renamedAgain }',
        'void [main, later, stdin, 0 as unknown as T]',
      ].join('\n'),
    )
  })

  it('reports exactly the exports no other file imports', () => {
    const { dead } = findDeadExports({ root: project.dir, dirs: ['src'] })
    expect(dead.map(exportKey).sort()).toEqual(
      [
        'src/a.ts#unusedValue',
        'src/a.ts#usedOnlyHere',
        'src/a.ts#UnusedType',
        'src/a.ts#renamed',
        'src/b.ts#starUnused',
        'src/d.ts#notInString',
      ].sort(),
    )
  })

  it('checks only the folders it is given (importers are every file)', () => {
    const { exports } = findDeadExports({ root: project.dir, dirs: ['tests'] })
    expect(exports.map(exportKey)).toEqual(['tests/user.test.ts#t'])
  })
})

describe('exports of worker/, client/, shared/ and scripts/', () => {
  let scan: ReturnType<typeof findDeadExports>
  beforeAll(() => {
    scan = findDeadExports({ root })
  }, 300_000)

  it('are each imported somewhere, allowed as public API or pending removal', () => {
    const unlisted = scan.dead
      .filter((d) => !(exportKey(d) in allowed) && !(exportKey(d) in pending))
      .map((d) => `${d.file}:${d.line} ${d.name}`)
    expect(unlisted, 'remove the export (or the code), or allow it with a reason').toEqual([])
  })

  it('the allow-list names exports that exist, each with its reason', () => {
    const existing = new Set(scan.exports.map(exportKey))
    for (const [key, reason] of Object.entries(allowed)) {
      expect(existing.has(key), `${key} is no longer exported: drop it from the allow-list`).toBe(true)
      expect(reason.length).toBeGreaterThan(10)
    }
  })

  it('an export is either allowed or pending, never both', () => {
    expect(Object.keys(allowed).filter((k) => k in pending)).toEqual([])
  })
})
