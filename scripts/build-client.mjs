#!/usr/bin/env node
// Builds the browser bundle: one hashed ESM entry per page type (client/entries/*.ts), shared code
// split into chunks, one hashed stylesheet, and the service worker (client/sw, if present).
// Writes public/build/* and worker/platform/render/manifest.generated.json (entry -> file + the chunks it
// imports, for <script type=module> and <link rel=modulepreload>), and prints the gzip size of the
// JS each page loads. Usage: node scripts/build-client.mjs [--quiet] [--analyze]
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import * as esbuild from 'esbuild'
import { rolldown } from 'rolldown'
import { parseArgs } from './lib.mjs'

const { quiet, analyze } = parseArgs(
  `
usage: npm run build [-- --quiet] [-- --analyze]

Builds the hashed, code-split client bundle into public/build/ and the manifest the worker reads,
then prints the gzip JS each page loads and the CSS size (--quiet: print nothing).
  --analyze    also list the largest source modules in each page's JS
  -h, --help   print this help and do nothing else
`,
  { flags: ['--quiet', '--analyze'], positionals: 0 },
)
const root = path.resolve(import.meta.dirname, '..')
const outdir = path.join(root, 'public/build')

rmSync(outdir, { recursive: true, force: true })
mkdirSync(outdir, { recursive: true })

const entryDir = path.join(root, 'client/entries')
const entryPoints = Object.fromEntries(
  readdirSync(entryDir)
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => [f.replace(/\.tsx?$/, ''), path.join(entryDir, f)]),
)

const define = { 'process.env.NODE_ENV': '"production"' }

/** The page each entry module stands for, by module id. */
const pageOfEntry = new Map(Object.entries(entryPoints).map(([name, file]) => [file, name]))
/** The module that starts the engines on every page once it has hydrated, by `import()`. */
const BOOT = path.join(root, 'client/engines/runtime/boot.ts')
/** Module id → who loads it at the start of a page; filled on the first call of loadersOf. */
let loadersOfModule = null
/**
 * Who loads a module at the start of a page: the pages whose entry reaches it through static
 * imports, and 'boot' when a module that boot.ts imports on every page does. An on-demand part (any
 * other `import()`) is not a loader. Found once for every module, by following each loader's static
 * imports down from where it starts.
 */
function loadersOf(id, ctx) {
  if (!loadersOfModule) {
    loadersOfModule = new Map()
    const mark = (start, loader) => {
      const stack = [start]
      while (stack.length) {
        const next = stack.pop()
        const loaders = loadersOfModule.get(next) ?? new Set()
        if (loaders.has(loader)) continue
        loadersOfModule.set(next, loaders.add(loader))
        stack.push(...(ctx.getModuleInfo(next)?.importedIds ?? []))
      }
    }
    for (const [file, page] of pageOfEntry) mark(file, page)
    for (const started of ctx.getModuleInfo(BOOT)?.dynamicallyImportedIds ?? []) mark(started, 'boot')
  }
  return loadersOfModule.get(id) ?? new Set()
}

// Chunking rule: the modules loaded at the start of the same set of pages (a page's own imports and
// what boot.ts loads on every page) share one chunk. A page's first load then asks for one file per
// set it belongs to (home 16 scripts, checkout 21) instead of one per combination of pages and
// on-demand parts as well (home 29, checkout 41); no page's first load grows. Each request costs
// the browser about 8 ms of CPU and the server about 2 (docs/decisions/0016). The price is paid by
// the on-demand parts (search panel, sign-in forms…): one that shares a module with a set loads that
// set's chunk whole. A module that only on-demand parts load keeps the default splitting.
const ALL_PAGES = Object.keys(entryPoints).length
function chunkName(id, ctx) {
  if (pageOfEntry.has(id)) return null
  const loaders = [...loadersOf(id, ctx)].sort()
  if (!loaders.length) return null
  const pages = loaders.filter((l) => l !== 'boot')
  if (pages.length === ALL_PAGES) return loaders.includes('boot') ? 'common-boot' : 'common'
  if (loaders.length <= 3) return loaders.join('-')
  return `shared-${createHash('sha256').update(loaders.join()).digest('hex').slice(0, 6)}`
}

const bundle = await rolldown({
  input: entryPoints,
  cwd: root,
  platform: 'browser',
  tsconfig: path.join(root, 'tsconfig.json'),
  // The browser runs the islands on Preact (through preact/compat) while the worker renders them
  // with React: the code is written against React's API, and this alias swaps only the runtime the
  // client ships, about 10 KB gzip instead of React's 69 (docs/decisions/0014).
  resolve: {
    alias: {
      react: 'preact/compat',
      'react-dom': 'preact/compat',
      'react-dom/client': 'preact/compat/client',
      'react/jsx-runtime': 'preact/jsx-runtime',
    },
  },
  transform: {
    define,
    jsx: { runtime: 'automatic' },
    target: ['es2022', 'chrome111', 'safari16', 'firefox115'],
  },
  // An entry chunk may export what the chunks that import it need (a group's modules are not
  // pulled in with the modules that import them).
  preserveEntrySignatures: 'allow-extension',
  logLevel: 'warn',
})
const built = await bundle.write({
  dir: outdir,
  format: 'esm',
  minify: true,
  entryFileNames: '[name]-[hash].js',
  chunkFileNames: 'chunks/[name]-[hash].js',
  comments: { legal: false },
  // A group's modules are its own: pulling their imports in too would put a module every page
  // loads into the chunk of the first group that reaches it.
  codeSplitting: {
    groups: [{ name: chunkName, debugName: 'pages-sharing', includeDependenciesRecursively: false }],
  },
})
await bundle.close()

const css = await esbuild.build({
  entryPoints: { app: path.join(root, 'client/styles/app.css') },
  bundle: true,
  minify: true,
  outdir,
  entryNames: '[name]-[hash]',
  // Fonts named in the stylesheet's url()s (package paths) are copied, hashed, into /build/fonts:
  // only the faces the stylesheet declares reach the output.
  loader: { '.woff2': 'file' },
  assetNames: 'fonts/[name]-[hash]',
  publicPath: '/build',
  metafile: true,
  logLevel: 'warning',
})

const rel = (p) =>
  `/${path.relative(path.join(root, 'public'), path.join(root, p)).split(path.sep).join('/')}`
/** A written file's path from the repository root (public/build/…), by its name in the build. */
const outputOf = (fileName) => path.relative(root, path.join(outdir, fileName)).split(path.sep).join('/')
/** The JS files written, by path from the repository root. */
const outputs = Object.fromEntries(
  built.output.filter((o) => o.type === 'chunk').map((chunk) => [outputOf(chunk.fileName), chunk]),
)
const gz = (p) => gzipSync(readFileSync(path.join(root, p)), { level: 9 }).length

/** All chunks an output statically imports, transitively. */
function staticImports(file, seen = new Set()) {
  for (const imported of outputs[file]?.imports ?? []) {
    const imp = outputOf(imported)
    if (seen.has(imp)) continue
    seen.add(imp)
    staticImports(imp, seen)
  }
  return seen
}

const cssFile = Object.keys(css.metafile.outputs).find((f) => f.endsWith('.css'))
// The faces the first screen of every page draws with (body text and headings): preloaded by each
// document so they arrive with the stylesheet; the others load when a page uses them.
const PRELOADED_FACES = ['inter-latin-400-normal', 'cormorant-garamond-latin-500-normal']
const fontFiles = Object.keys(css.metafile.outputs).filter((f) => f.endsWith('.woff2'))
const fonts = {
  preload: fontFiles
    .filter((f) => PRELOADED_FACES.some((face) => path.basename(f).startsWith(`${face}-`)))
    .map(rel),
  all: fontFiles.map(rel),
}
const cssGzip = gz(cssFile)
const entries = {}
for (const [file, chunk] of Object.entries(outputs)) {
  // Dynamically imported modules are chunks with a module of their own too; only page entries count.
  if (!chunk.isEntry || !chunk.facadeModuleId || !pageOfEntry.has(chunk.facadeModuleId)) continue
  const name = pageOfEntry.get(chunk.facadeModuleId)
  const imports = [...staticImports(file)]
  const gzipBytes = [file, ...imports].reduce((sum, f) => sum + gz(f), 0)
  entries[name] = { file: rel(file), imports: imports.map(rel), gzipBytes }
}

// The service worker is built separately (classic script at a fixed URL, not hashed).
let serviceWorker = null
const swEntry = ['ts', 'tsx'].map((x) => path.join(root, `client/sw/service-worker.${x}`)).find(existsSync)

// The build id names every file the service worker keeps under it: the build's own files, and the
// offline page it precaches with the build id as its revision (client/sw/service-worker.ts), so an
// edited offline page reaches the browsers that installed the worker before.
const hash = createHash('sha256')
for (const f of [...Object.keys(outputs), cssFile, ...fontFiles, 'public/offline.html'].sort())
  hash.update(readFileSync(path.join(root, f)))
// BUILD_SALT (optional): a different build id from the same bytes, i.e. a simulated new deploy
// (the service-worker update e2e, tests/e2e/pwa.spec.ts). Unset: the id depends on the bytes only.
if (process.env.BUILD_SALT) hash.update(`salt:${process.env.BUILD_SALT}`)
const buildId = hash.digest('hex').slice(0, 12)

if (swEntry) {
  const precache = [
    ...new Set([
      ...Object.keys(outputs)
        .filter((f) => f.endsWith('.js'))
        .map(rel),
      rel(cssFile),
      ...fonts.all,
    ]),
  ]
  await esbuild.build({
    entryPoints: [swEntry],
    bundle: true,
    format: 'iife',
    minify: true,
    outfile: path.join(root, 'public/service-worker.js'),
    define: {
      ...define,
      __BUILD_ID__: JSON.stringify(buildId),
      __PRECACHE__: JSON.stringify(precache),
    },
    logLevel: 'warning',
  })
  serviceWorker = '/service-worker.js'
}

// The stylesheet's text is inlined into every page's <head> (a nonce'd <style>, worker/platform/render/document.tsx):
// at ~6 KB gzip it costs less than the render-blocking request it replaces (Lighthouse: FCP waited for
// the CSS behind the modulepreloads on the same connection). The file stays for the service worker.
const cssText = readFileSync(path.join(root, cssFile), 'utf8').replace(/\n$/, '')
const manifest = { buildId, css: rel(cssFile), cssGzipBytes: cssGzip, cssText, fonts, entries, serviceWorker }
writeFileSync(
  path.join(root, 'worker/platform/render/manifest.generated.json'),
  `${JSON.stringify(manifest, null, 2)}\n`,
)

if (!quiet) {
  console.log(`client build ${buildId}`)
  console.log('| page entry | JS files | JS gzip (KB) |')
  console.log('|---|---|---|')
  for (const [name, e] of Object.entries(entries).sort()) {
    console.log(`| ${name} | ${1 + e.imports.length} | ${(e.gzipBytes / 1024).toFixed(1)} |`)
  }
  console.log(`| (css, every page) | 1 | ${(cssGzip / 1024).toFixed(1)} |`)
  const fontKb = fontFiles.reduce((sum, f) => sum + readFileSync(path.join(root, f)).length, 0) / 1024
  console.log(
    `fonts: ${fontFiles.length} woff2 files, ${fontKb.toFixed(1)} KB (${fonts.preload.length} preloaded)`,
  )
}

// --analyze: the largest source modules in each page's JS (minified bytes before gzip).
if (analyze) {
  for (const [name, e] of Object.entries(entries).sort()) {
    const files = [e.file, ...e.imports].map((f) => `public${f}`)
    const sizes = new Map()
    for (const f of files) {
      for (const [input, info] of Object.entries(outputs[f]?.modules ?? {})) {
        const key = path
          .relative(root, input)
          .replace(/^node_modules\/((@[^/]+\/)?[^/]+).*/, 'node_modules/$1')
        sizes.set(key, (sizes.get(key) ?? 0) + info.renderedLength)
      }
    }
    const top = [...sizes.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12)
    console.log(`\n${name}:`)
    for (const [input, bytes] of top) console.log(`  ${(bytes / 1024).toFixed(1).padStart(7)} KB  ${input}`)
  }
}
