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

const js = await esbuild.build({
  entryPoints,
  bundle: true,
  splitting: true,
  format: 'esm',
  minify: true,
  target: ['es2022', 'chrome111', 'safari16', 'firefox115'],
  outdir,
  entryNames: '[name]-[hash]',
  chunkNames: 'chunks/[name]-[hash]',
  metafile: true,
  define,
  jsx: 'automatic',
  // The browser runs the islands on Preact (through preact/compat) while the worker renders them
  // with React: the code is written against React's API, and this alias swaps only the runtime the
  // client ships, about 10 KB gzip instead of React's 69 (docs/decisions/0014).
  alias: {
    react: 'preact/compat',
    'react-dom': 'preact/compat',
    'react-dom/client': 'preact/compat/client',
    'react/jsx-runtime': 'preact/jsx-runtime',
  },
  legalComments: 'none',
  logLevel: 'warning',
})

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
const outputs = js.metafile.outputs
const gz = (p) => gzipSync(readFileSync(path.join(root, p)), { level: 9 }).length

/** All chunks an output statically imports, transitively. */
function staticImports(file, seen = new Set()) {
  for (const imp of outputs[file]?.imports ?? []) {
    if (imp.kind !== 'import-statement' || seen.has(imp.path)) continue
    seen.add(imp.path)
    staticImports(imp.path, seen)
  }
  return seen
}

const cssFile = Object.keys(css.metafile.outputs).find((f) => f.endsWith('.css'))
// The faces a page's first screen draws with, preloaded by its document so that they arrive with the
// inlined stylesheet (font-display is optional: a face that is late is not used on that page, and a
// face that lands after the first layout costs a second layout of the whole page). Body text and
// headings are on every page; the semibold face draws the prices and labels of the pages that open
// on products. The other faces load when a page uses them.
const PRELOADED_FACES = [
  { face: 'inter-latin-400-normal' },
  { face: 'cormorant-garamond-latin-500-normal' },
  { face: 'inter-latin-600-normal', entries: ['home', 'category', 'product'] },
]
const fontFiles = Object.keys(css.metafile.outputs).filter((f) => f.endsWith('.woff2'))
const fonts = {
  preload: PRELOADED_FACES.map(({ face, entries }) => {
    const file = fontFiles.find((f) => path.basename(f).startsWith(`${face}-`))
    if (!file) throw new Error(`build-client: no font file for the preloaded face ${face}`)
    return entries ? { href: rel(file), entries } : { href: rel(file) }
  }),
  all: fontFiles.map(rel),
}
const cssGzip = gz(cssFile)
const entries = {}
for (const [file, meta] of Object.entries(outputs)) {
  // Dynamically imported modules are outputs with an entryPoint too; only page entries count here.
  if (!meta.entryPoint || !file.endsWith('.js') || !meta.entryPoint.startsWith('client/entries/')) continue
  const name = path.basename(meta.entryPoint).replace(/\.tsx?$/, '')
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
    `fonts: ${fontFiles.length} woff2 files, ${fontKb.toFixed(1)} KB (preloaded: ${fonts.preload.filter((f) => !f.entries).length} on every page, ${fonts.preload.filter((f) => f.entries).length} on some)`,
  )
}

// --analyze: the largest source modules in each page's JS (minified bytes before gzip).
if (analyze) {
  for (const [name, e] of Object.entries(entries).sort()) {
    const files = [e.file, ...e.imports].map((f) => `public${f}`)
    const sizes = new Map()
    for (const f of files) {
      for (const [input, info] of Object.entries(outputs[f]?.inputs ?? {})) {
        const key = input.replace(/^node_modules\/((@[^/]+\/)?[^/]+).*/, 'node_modules/$1')
        sizes.set(key, (sizes.get(key) ?? 0) + info.bytesInOutput)
      }
    }
    const top = [...sizes.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12)
    console.log(`\n${name}:`)
    for (const [input, bytes] of top) console.log(`  ${(bytes / 1024).toFixed(1).padStart(7)} KB  ${input}`)
  }
}
