// The engine's layout rule (worker/search/README.md): its folders are the stages a search goes
// through, and a file imports only from its own stage or the stages below it — so the engine has
// no import cycle, and a newcomer can read it bottom-up. Type imports count: a cycle of types is a
// cycle a reader has to hold in their head too.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const engine = path.resolve(import.meta.dirname, '../../../../worker/search')

/** The stages from the bottom up: a file may import from its own stage and those listed before it. */
const STAGES = [
  'dsl.ts',
  'semantics',
  'request',
  'memory',
  'held',
  'narrow',
  'sql',
  'results',
  'builds',
  'index.ts',
]

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) sources(full, out)
    else if (name.endsWith('.ts')) out.push(full)
  }
  return out
}

/** A file's stage: its top folder under worker/search, or its own name at the top. */
const stageOf = (file: string) => path.relative(engine, file).split(path.sep)[0] as string

/** The engine files a file imports or re-exports from (relative specifiers that stay in the engine). */
function engineImports(file: string, all: Set<string>): string[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
  const out: string[] = []
  for (const s of sf.statements) {
    const spec =
      (ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) &&
      s.moduleSpecifier &&
      ts.isStringLiteral(s.moduleSpecifier)
        ? s.moduleSpecifier.text
        : null
    if (!spec?.startsWith('.')) continue
    const base = path.resolve(path.dirname(file), spec)
    const target = [`${base}.ts`, path.join(base, 'index.ts')].find((f) => all.has(f))
    if (target) out.push(target)
  }
  return out
}

const files = sources(engine)
const graph = new Map(files.map((f) => [f, engineImports(f, new Set(files))]))

describe('worker/search by stage', () => {
  it('has every file in a known stage', () => {
    const unknown = files.map(stageOf).filter((s) => !STAGES.includes(s))
    expect([...new Set(unknown)]).toEqual([])
  })

  it('imports only from the same stage or the stages below', () => {
    const upward: string[] = []
    for (const [file, targets] of graph)
      for (const target of targets)
        if (STAGES.indexOf(stageOf(target)) > STAGES.indexOf(stageOf(file)))
          upward.push(`${path.relative(engine, file)} -> ${path.relative(engine, target)}`)
    expect(upward).toEqual([])
  })

  it('has no import cycle, within a stage either', () => {
    // Depth-first search; a file met again while still on the path closes a cycle.
    const cycles: string[] = []
    const state = new Map<string, 'open' | 'done'>()
    const walk = (file: string, trail: string[]) => {
      state.set(file, 'open')
      for (const next of graph.get(file) ?? []) {
        if (state.get(next) === 'open') {
          const loop = [...trail.slice(trail.indexOf(next)), next]
          cycles.push(loop.map((f) => path.relative(engine, f)).join(' -> '))
        } else if (!state.has(next)) walk(next, [...trail, next])
      }
      state.set(file, 'done')
    }
    for (const f of files) if (!state.has(f)) walk(f, [f])
    expect(cycles).toEqual([])
  })

  it('keeps every source file within 400 lines, unless its header says why', () => {
    const long = files.filter((f) => {
      const text = readFileSync(f, 'utf8')
      return text.split('\n').length > 400 && !/^\/\*\*[\s\S]*?longer than 400 lines/.test(text)
    })
    expect(long.map((f) => path.relative(engine, f))).toEqual([])
  })
})
