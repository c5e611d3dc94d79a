#!/usr/bin/env node
// Prints the cycles of the repository's import graph. An edge is a static import or re-export,
// of values or of types (`import type` included: a type cycle ties the files' design as much as a
// value cycle does); `import('…')` is not an edge, since a lazy load is how a module defers a
// dependency on purpose. Files are the sources scripts/dead-exports.mjs reads (tests and scripts
// included), so a cycle anywhere in the repository is reported.
//
//   node scripts/import-cycles.mjs           the cycles (exit 1 if any is not allowed)
//   node scripts/import-cycles.mjs --graph   also every edge, one `from -> to (kind)` a line
//
// A cycle is a strongly connected group of files; each is printed with one path around it.
// tests/unit/build/import-cycles.test.ts fails on a cycle not in import-cycles.allow.json.
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from './lib.mjs'

const repoRoot = path.resolve(import.meta.dirname, '..')

// Run as a script, the command line is read before the scanner (and TypeScript) loads, so --help
// and a wrong argument answer at once.
const cli =
  import.meta.url === pathToFileURL(process.argv[1] ?? '').href
    ? parseArgs(
        `
usage: node scripts/import-cycles.mjs [--graph]

Prints the cycles of the static import graph (imports of values and of types; import() is not an
edge); fails on a cycle not allowed in tests/unit/build/import-cycles.allow.json.
  --graph      also print every edge: from -> to (value|type)
  -h, --help   print this help and do nothing else
`,
        { flags: ['--graph'], positionals: 0 },
      )
    : null
const { listSources, readExportList, scanModule } = await import('./dead-exports.mjs')

/**
 * The static import graph of every source file under `root`: Map(file → Map(target → kind)),
 * kind 'value' when any import of the target loads it, else 'type'. Paths are relative to `root`.
 */
export function importGraph({ root = repoRoot } = {}) {
  const graph = new Map()
  const rel = (f) => path.relative(root, f)
  for (const file of listSources(root)) {
    const mod = scanModule(file)
    const edges = new Map()
    const add = (target, kind) => {
      if (target === file || kind === 'lazy') return
      const key = rel(target)
      if (edges.get(key) !== 'value') edges.set(key, kind)
    }
    for (const u of mod.uses) add(u.target, u.kind)
    for (const r of mod.reexports.values()) add(r.target, r.kind)
    for (const t of mod.stars) add(t, 'value')
    graph.set(rel(file), edges)
  }
  return graph
}

/**
 * The graph's cycles: every strongly connected group of two or more files (Tarjan's algorithm,
 * iterative), each as { files (sorted), path: [a, b, …, a] } where the path is a shortest way
 * round from the group's first file.
 */
export function findCycles(graph) {
  const index = new Map()
  const low = new Map()
  const stack = []
  const onStack = new Set()
  const groups = []
  let next = 0
  for (const start of graph.keys()) {
    if (index.has(start)) continue
    const work = [{ node: start, targets: [...(graph.get(start)?.keys() ?? [])], i: 0 }]
    index.set(start, next)
    low.set(start, next++)
    stack.push(start)
    onStack.add(start)
    while (work.length) {
      const frame = work[work.length - 1]
      if (frame.i < frame.targets.length) {
        const w = frame.targets[frame.i++]
        if (!graph.has(w)) continue
        if (!index.has(w)) {
          index.set(w, next)
          low.set(w, next++)
          stack.push(w)
          onStack.add(w)
          work.push({ node: w, targets: [...graph.get(w).keys()], i: 0 })
        } else if (onStack.has(w)) low.set(frame.node, Math.min(low.get(frame.node), index.get(w)))
        continue
      }
      work.pop()
      const v = frame.node
      if (work.length) {
        const parent = work[work.length - 1].node
        low.set(parent, Math.min(low.get(parent), low.get(v)))
      }
      if (low.get(v) !== index.get(v)) continue
      const group = []
      let w
      do {
        w = stack.pop()
        onStack.delete(w)
        group.push(w)
      } while (w !== v)
      if (group.length > 1) groups.push(group.sort())
    }
  }
  groups.sort((a, b) => a[0].localeCompare(b[0]))
  return groups.map((files) => ({ files, path: shortestLoop(graph, files) }))
}

/** A shortest path from the group's first file back to itself, inside the group. */
function shortestLoop(graph, files) {
  const inGroup = new Set(files)
  const from = files[0]
  const prev = new Map()
  const queue = [from]
  while (queue.length) {
    const v = queue.shift()
    for (const w of graph.get(v).keys()) {
      if (!inGroup.has(w)) continue
      if (w === from) {
        const between = []
        for (let at = v; at !== from; at = prev.get(at)) between.unshift(at)
        return [from, ...between, from]
      }
      if (!prev.has(w)) {
        prev.set(w, v)
        queue.push(w)
      }
    }
  }
  return files
}

/** Whether an allow-list entry (a folder ending in '/') holds every file of the cycle. */
export function cycleAllowed(cycle, allowed) {
  return Object.keys(allowed).some((folder) => cycle.files.every((f) => f.startsWith(folder)))
}

if (cli) {
  const { graph: printGraph } = cli
  const graph = importGraph()
  const allowed = readExportList(path.join(repoRoot, 'tests/unit/build/import-cycles.allow.json'))
  if (printGraph)
    for (const [from, edges] of graph)
      for (const [to, kind] of edges) console.log(`${from} -> ${to} (${kind})`)
  const cycles = findCycles(graph)
  const edgeCount = [...graph.values()].reduce((n, e) => n + e.size, 0)
  for (const c of cycles) {
    const kinds = c.path.slice(1).map((to, i) => graph.get(c.path[i]).get(to))
    const steps = c.path.map((f, i) => (i === 0 ? f : `-(${kinds[i - 1]})-> ${f}`)).join('\n    ')
    const note = cycleAllowed(c, allowed) ? '  (allowed)' : ''
    console.log(`cycle of ${c.files.length} files${note}:\n    ${steps}`)
  }
  const failing = cycles.filter((c) => !cycleAllowed(c, allowed))
  console.log(
    `${graph.size} files, ${edgeCount} import edges; cycles: ${cycles.length || 'none'}` +
      (cycles.length ? `, ${failing.length} not allowed` : ''),
  )
  process.exitCode = failing.length ? 1 : 0
}
