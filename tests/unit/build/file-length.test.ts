// The guard against long files: a source file of worker/, client/, shared/ or scripts/ longer than
// 400 lines says at its top why it is kept whole, in a line of its opening comment starting
// "Length:". A long file without one is split by responsibility instead. Paths being split by
// their own work are allowed in file-length.allow.json, each with its reason.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { readExportList } from '../../../scripts/dead-exports.mjs'

const root = path.resolve(import.meta.dirname, '../../..')
const allowed = readExportList(path.join(import.meta.dirname, 'file-length.allow.json'))
const MAX_LINES = 400
/** How far down the opening comment the reason may stand. */
const REASON_WITHIN = 30
const SOURCE = /\.(ts|tsx|mts|mjs|js|css)$/

const sources = ['worker', 'client', 'shared', 'scripts']
  .flatMap((dir) =>
    readdirSync(path.join(root, dir), { recursive: true }).map((f) => path.join(dir, String(f))),
  )
  .filter((f) => SOURCE.test(f) && !f.includes('.generated.') && !/\.d\.m?ts$/.test(f))
  .map((file) => ({
    file,
    lines: readFileSync(path.join(root, file), 'utf8').replace(/\n$/, '').split('\n'),
  }))
const long = sources.filter((s) => s.lines.length > MAX_LINES)
const isAllowed = (file: string) =>
  Object.keys(allowed).some((p) => file === p || (p.endsWith('/') && file.startsWith(p)))
/** A line of the opening comment (`//`, `/*`, ` *`, or inside a block comment) that starts with "Length:". */
const hasReason = (lines: string[]) =>
  lines.slice(0, REASON_WITHIN).some((l) => /^\s*(\/\/\s*|\/?\*+\s*)?Length: \S/.test(l))

describe(`source files over ${MAX_LINES} lines`, () => {
  it('say at their top why they are kept whole', () => {
    const unexplained = long
      .filter((s) => !isAllowed(s.file) && !hasReason(s.lines))
      .map((s) => `${s.file} (${s.lines.length} lines)`)
    expect(
      unexplained,
      'split the file by responsibility, or write "Length: <why>" in its opening comment',
    ).toEqual([])
  })

  it('the allow-list names paths that still hold a long file, each with its reason', () => {
    for (const [p, reason] of Object.entries(allowed)) {
      expect(
        long.some((s) => s.file === p || (p.endsWith('/') && s.file.startsWith(p))),
        `${p} is no longer over ${MAX_LINES} lines: drop it from file-length.allow.json`,
      ).toBe(true)
      expect(reason.length).toBeGreaterThan(10)
    }
  })

  it('a reason only counts at the top of the file, as a comment line', () => {
    expect(hasReason(['/**', ' * Length: one table of every route.', ' */'])).toBe(true)
    expect(hasReason(['/* Length: the whole stylesheet of one screen. */'])).toBe(true)
    expect(hasReason(['// Length: one parser, one state machine.'])).toBe(true)
    expect(hasReason(['/* The frame.', '   Length: every width of the header. */'])).toBe(true)
    expect(hasReason([...Array(REASON_WITHIN).fill('x'), '// Length: too far down'])).toBe(false)
    expect(hasReason(["const s = 'Length: in a string'"])).toBe(false)
    expect(hasReason(['// Length:'])).toBe(false)
  })
})
