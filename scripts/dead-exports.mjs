#!/usr/bin/env node
// Lists the exports of worker/, client/, shared/ and scripts/ that no other file imports (tests,
// configs and bench/soak scripts count as importers). An export nobody imports is either dead code
// or a name that should be module-private; deliberate public API (entry points, bundles loaded by
// path, names merged into global declarations) is listed with its reason in
// tests/unit/build/dead-exports.allow.json.
//
//   node scripts/dead-exports.mjs          unused exports that are not allowed (exit 1 if any)
//   node scripts/dead-exports.mjs --all    every unused export, allowed or not
//
// What counts as a use: a static import (named, default, namespace), a type import, `import('…')`
// (a dynamic import or an import type: all of the module's exports or the named one), a re-export
// that is itself used, and module text handed to esbuild as a string (`export { x } from '…'`
// inside a string literal, resolved from the file's folder), and `importTs('path')` of scripts/lib.mjs
// (a module bundled for Node, named from the repo root: all of its exports). A use inside the exporting file
// itself does not count: such a name needs no `export`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from './lib.mjs'

const repoRoot = path.resolve(import.meta.dirname, '..')

// Run as a script, the command line is read before TypeScript loads (seconds), so --help and a
// wrong argument answer at once.
const cli =
  import.meta.url === pathToFileURL(process.argv[1] ?? '').href
    ? parseArgs(
        `
usage: node scripts/dead-exports.mjs [--all]

Lists exports nobody imports (--all: also the allowed ones); fails on one neither allowed nor
pending (tests/unit/build/dead-exports.*.json).
  -h, --help   print this help and do nothing else
`,
        { flags: ['--all'], positionals: 0 },
      )
    : null
const { default: ts } = await import('typescript')

/** The folders whose exports are checked. */
const CHECKED_DIRS = ['worker', 'client', 'shared', 'scripts']
const SOURCE = /\.(ts|tsx|mts|mjs|js)$/
const DECLARATION = /\.d\.(ts|mts)$/
const SKIP_DIRS = new Set(['node_modules', '.git', '.tmp', 'public', 'dist', 'bench-results', 'lh'])
const RESOLVE_SUFFIXES = ['', '.ts', '.tsx', '.mts', '.mjs', '.js', '/index.ts', '/index.tsx', '/index.mjs']

export function listSources(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (SKIP_DIRS.has(name)) continue
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) listSources(full, out)
    else if (SOURCE.test(name) && !name.includes('.generated.')) out.push(full)
  }
  return out
}

/**
 * The file a relative or `@shared/…` specifier names (TypeScript's bundler resolution, .js → .ts
 * included; `@shared/*` is the tsconfig path of the shared/ tree).
 */
function resolveSpecifier(fromFile, spec) {
  const aliased = spec.startsWith('@shared/')
  if (!aliased && !spec.startsWith('.')) return null
  const base = aliased
    ? path.join(repoRoot, 'shared', spec.slice('@shared/'.length))
    : path.resolve(path.dirname(fromFile), spec)
  const stems = [base, base.replace(/\.(m?js)$/, (_, e) => (e === 'mjs' ? '.mts' : '.ts'))]
  for (const stem of stems)
    for (const suffix of RESOLVE_SUFFIXES) {
      const candidate = stem + suffix
      if (existsSync(candidate) && statSync(candidate).isFile() && !DECLARATION.test(candidate))
        return candidate
    }
  return null
}

const hasModifier = (node, kind) => (ts.getModifiers?.(node) ?? []).some((m) => m.kind === kind)
const lineOf = (sf, node) => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1

/**
 * A module's own exports, its re-exports and its imports of other modules. Each use says how the
 * module is reached: 'value' (a static import or re-export that loads it), 'type' (erased at
 * compile time) or 'lazy' (`import('…')` at run time, `importTs`, module text for esbuild).
 */
export function scanModule(file, text = readFileSync(file, 'utf8'), sf = null) {
  const source = sf ?? ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file))
  const mod = { exports: new Map(), reexports: new Map(), stars: [], uses: [] }
  const own = (name, node) => mod.exports.set(name, lineOf(source, node))
  const use = (spec, name, kind = 'value') => {
    const target = resolveSpecifier(file, spec)
    if (target) mod.uses.push({ target, name, kind })
  }
  for (const st of source.statements) scanStatement(st, { mod, own, use, file })
  const visit = (node) => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0]
      if (arg && ts.isStringLiteralLike(arg)) use(arg.text, '*', 'lazy')
    } else if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'importTs' &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      // scripts/lib.mjs importTs('worker/…'): a module bundled for Node, named from the repo root.
      use(
        path
          .relative(path.dirname(file), path.join(repoRoot, node.arguments[0].text))
          .replace(/^(?!\.)/, './'),
        '*',
        'lazy',
      )
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const spec = node.argument.literal.text
      const first = node.qualifier && (ts.isIdentifier(node.qualifier) ? node.qualifier : node.qualifier.left)
      use(spec, first && ts.isIdentifier(first) ? first.text : '*', 'type')
    } else if (ts.isStringLiteralLike(node) && /\bfrom\s+['"]\./.test(node.text)) {
      // Module text built for esbuild (stdin contents): its imports count from this file's folder.
      const inner = scanModule(file, node.text)
      mod.uses.push(
        ...[...inner.uses, ...inner.reexports.values()].map((u) => ({ ...u, kind: 'lazy' })),
        ...inner.stars.map((t) => ({ target: t, name: '*', kind: 'lazy' })),
      )
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return mod
}

function scriptKind(file) {
  if (file.endsWith('.tsx')) return ts.ScriptKind.TSX
  return /\.(mjs|js)$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS
}

/** One top-level statement: what it exports, re-exports or imports. */
function scanStatement(st, { mod, own, use, file }) {
  if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
    const spec = st.moduleSpecifier.text
    const clause = st.importClause
    // `import './x'` loads the module for its effects and names nothing.
    if (!clause) return use(spec, null)
    const kind = (typeOnly) => (clause.isTypeOnly || typeOnly ? 'type' : 'value')
    if (clause.name) use(spec, 'default', kind(false))
    const bindings = clause.namedBindings
    if (bindings && ts.isNamespaceImport(bindings)) use(spec, '*', kind(false))
    else if (bindings)
      for (const el of bindings.elements) use(spec, (el.propertyName ?? el.name).text, kind(el.isTypeOnly))
    return
  }
  if (ts.isExportDeclaration(st)) {
    const spec = st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) ? st.moduleSpecifier.text : null
    const target = spec ? resolveSpecifier(file, spec) : null
    const kind = (typeOnly) => (st.isTypeOnly || typeOnly ? 'type' : 'value')
    if (!st.exportClause) {
      if (target) mod.stars.push(target)
      return
    }
    if (ts.isNamespaceExport(st.exportClause)) {
      own(st.exportClause.name.text, st)
      if (target) mod.reexports.set(st.exportClause.name.text, { target, name: '*', kind: kind(false) })
      return
    }
    for (const el of st.exportClause.elements) {
      const exported = el.name.text
      own(exported, el)
      if (spec && target)
        mod.reexports.set(exported, {
          target,
          name: (el.propertyName ?? el.name).text,
          kind: kind(el.isTypeOnly),
        })
    }
    return
  }
  if (ts.isExportAssignment(st)) return own('default', st)
  if (!hasModifier(st, ts.SyntaxKind.ExportKeyword)) return
  if (hasModifier(st, ts.SyntaxKind.DefaultKeyword)) return own('default', st)
  if (ts.isVariableStatement(st)) {
    for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) own(d.name.text, d)
  } else if (st.name && ts.isIdentifier(st.name)) own(st.name.text, st)
}

/**
 * The exports of the files under `dirs` (relative to `root`) and those of them no other file of
 * the repository imports: { exports, dead }, each [{ file, line, name }] sorted by file and line.
 */
export function findDeadExports({ root = repoRoot, dirs = CHECKED_DIRS } = {}) {
  const files = listSources(root)
  const modules = new Map(files.map((f) => [f, scanModule(f)]))
  const used = new Set()
  const mark = (target, name) => {
    const key = `${target}#${name}`
    if (used.has(key)) return
    used.add(key)
    const mod = modules.get(target)
    if (!mod) return
    if (name === '*') {
      for (const n of mod.exports.keys()) mark(target, n)
      for (const t of mod.stars) mark(t, '*')
      return
    }
    const re = mod.reexports.get(name)
    if (re) mark(re.target, re.name)
    else if (!mod.exports.has(name)) for (const t of mod.stars) mark(t, name)
  }
  for (const [file, mod] of modules)
    for (const u of mod.uses) if (u.target !== file && u.name !== null) mark(u.target, u.name)
  const checked = (f) => dirs.some((d) => f.startsWith(path.join(root, d) + path.sep)) && !DECLARATION.test(f)
  const exports = []
  for (const [file, mod] of modules) {
    if (!checked(file)) continue
    for (const [name, line] of mod.exports)
      exports.push({ file: path.relative(root, file), line, name, used: used.has(`${file}#${name}`) })
  }
  exports.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line)
  return { exports, dead: exports.filter((e) => !e.used) }
}

/** The key an allow-list or pending file uses for an export: 'path/from/root.ts#name'. */
export const exportKey = (e) => `${e.file}#${e.name}`

/** An allow-list or pending file: { "path#name": "why it stays" } (empty when the file is missing). */
export function readExportList(file) {
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {}
}

if (cli) {
  const { all } = cli
  const lists = path.join(repoRoot, 'tests/unit/build')
  const allowed = readExportList(path.join(lists, 'dead-exports.allow.json'))
  const pending = readExportList(path.join(lists, 'dead-exports.pending.json'))
  const { dead } = findDeadExports()
  const shown = all ? dead : dead.filter((d) => !(exportKey(d) in allowed))
  for (const d of shown) {
    const key = exportKey(d)
    const note = key in allowed ? '  (allowed)' : key in pending ? '  (pending)' : ''
    console.log(`${d.file}:${d.line}  ${d.name}${note}`)
  }
  const failing = shown.filter((d) => !(exportKey(d) in allowed || exportKey(d) in pending))
  console.error(`${dead.length} unused exports; ${failing.length} neither allowed nor pending`)
  process.exitCode = failing.length ? 1 : 0
}
