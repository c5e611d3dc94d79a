#!/usr/bin/env node
// `npm run import -- FILE…`: loads vue-storefront-api catalogue exports (elasticdump NDJSON of
// Elasticsearch 5 or 7, a JSON array of documents or of hits, the integration SDK's JSON files)
// into the local D1 (or the deployed one with --env) and keeps the KV URL mappings in step.
// Options: npm run import -- --help.
// A run is all-or-nothing: every file is read, coerced and validated first; one bad record
// anywhere is reported (every issue, grouped by kind) and NOTHING is written. A valid run is
// written with one `wrangler d1 execute --file` run.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { confirm, die, importTs, quietEnv, root, shopCommandLine, withListedValue } from './lib.mjs'

const HELP = `
usage: npm run import -- [options] FILE...

Imports vue-storefront-api catalogue exports into D1 and keeps the KV URL mappings in step:
elasticdump NDJSON (Elasticsearch 5: _type names the entity; Elasticsearch 7: _type is "_doc" and
the index name does, e.g. vue_storefront_catalog_product_1587031505), a JSON array of documents
or of such hits, and the integration SDK's JSON files. Values are read as Elasticsearch's mapping
reads them ("26" → 26, "0"/"1" → false/true, "49,50" → [49, 50]); every conversion is counted in
the summary. One bad record anywhere: every issue is reported, grouped by kind, and nothing is
written. Orders, customers and carts are never touched.

A FILE written as TYPE:FILE (product:products.json) has its own --type, so the SDK's files of
different entities go into one run: category:categories.json product:products.json

options:
  --type T          the entity of records whose _type and _index name none (plain JSON arrays,
                    the SDK's files, a single-index Elasticsearch 5 dump): product|category|
                    attribute|taxrule|cms_page|cms_block|review
  --replace         the files become the whole catalogue: every catalogue table (the demo
                    included) is emptied in the same run, and URL mappings no longer used deleted;
                    the shop's content (CMS pages and blocks, home page, size guides, stores) stays
  --replace-content with --replace, empty the shop's content too (the files' CMS pages and
                    blocks become all of it)
  --dry-run         read and validate, print the summary, write nothing
  --env NAME        the deployed shop of wrangler.toml's [env.NAME] (staging | production); asks
                    first (or needs --yes without a terminal)
  --remote          same as --env (needs it)
  --yes             do not ask before writing to a deployed shop or replacing a catalogue
  --persist-to DIR  local state directory (default .wrangler/state)
  --purge-url URL   the shop whose output cache to purge afterwards (local imports try
                    http://127.0.0.1:8787)
  --images DIR      also upload the catalogue's original images from DIR (the folder image paths
                    are relative to, e.g. pub/media/catalog/product) into the CATALOGUE_IMAGES
                    bucket; FILEs may then be omitted
  -h, --help        print this help and do nothing else
`
const {
  yes,
  replace,
  replaceContent,
  dryRun,
  env: envName,
  type,
  persistTo: persist,
  purgeUrl,
  images: imagesDir,
  positionals: files,
  where,
  deployed,
} = shopCommandLine(HELP, {
  flags: ['--replace', '--replace-content', '--dry-run'],
  options: ['--type', '--purge-url', '--images'],
})
if (files.length === 0 && !imagesDir)
  die('which files? npm run import -- [options] FILE... (--help lists the options)')
if (imagesDir && !existsSync(imagesDir)) die(`--images ${imagesDir}: no such folder`)
// A deployed shop is confirmed before any file is read or anything is asked of it.
if (deployed && !dryRun)
  await confirm(
    `import ${files.length} file(s)${imagesDir ? ` and the images of ${imagesDir}` : ''} into the DEPLOYED ${envName} shop${replace ? ', replacing its whole catalogue' : ''}`,
    { yes },
  )

const tmp = path.join(root, '.tmp')
mkdirSync(tmp, { recursive: true })
const { prepareRun, staleUrlKeys, groupIssues, warningLines, writeFailure } = await importTs(
  'scripts/catalogue/import/node-entry.ts',
)

const isTty = process.stderr.isTTY
let lastPlain = 0
function bar(label, done, total) {
  const width = 28
  const ratio = total ? Math.min(1, done / total) : 1
  const filled = Math.round(ratio * width)
  const line = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(Math.round(ratio * 100)).padStart(3)}% ${label}`
  if (isTty) process.stderr.write(`\r\x1b[2K${line}`)
  else if (done === total || Date.now() - lastPlain > 5000) {
    // Without a terminal: a line every 5 s and at the end of each step.
    lastPlain = Date.now()
    process.stderr.write(`${line}\n`)
  }
}
const endBar = () => isTty && process.stderr.write('\n')

function wrangler(args) {
  const res = spawnSync(path.join(root, 'node_modules/.bin/wrangler'), args, {
    cwd: root,
    env: quietEnv,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  })
  if (res.status !== 0)
    throw new Error(
      (res.stderr || res.stdout || `exit ${res.status}`).trim().split('\n').slice(-5).join('\n'),
    )
  return res.stdout
}

/** Rows of a read-only statement (`wrangler d1 execute --json`). */
function d1Rows(sql) {
  const out = JSON.parse(wrangler(['d1', 'execute', 'DB', ...where, '--command', sql, '--json']))
  return out.flatMap((r) => r.results ?? [])
}

// Only images: no catalogue files to read.
if (files.length === 0) process.exit(dryRun ? 0 : await importImages(imagesDir))

const started = Date.now()
const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)} s`
const inputs = []
for (const arg of files) {
  // TYPE:FILE gives one file its entity (unless a file of that very name exists).
  const typed = /^(product|category|attribute|taxrule|tax_rule|cms_page|cms_block|review):(.+)$/.exec(arg)
  const [file, fileType] = typed && !existsSync(arg) ? [typed[2], typed[1]] : [arg, undefined]
  try {
    inputs.push({ file, text: readFileSync(file, 'utf8'), type: fileType })
  } catch (err) {
    die(`${file}:0: cannot read file (${err.code ?? err.message}); nothing imported`)
  }
}
const prepared = prepareRun(inputs, {
  type,
  replace,
  replaceContent,
  onProgress: (d, t, file) => bar(`validating ${file} ${d}/${t}`, d, t),
})
endBar()

function printCoercions(coercions) {
  if (!coercions.size) return
  console.log('Conversions (as Elasticsearch would read the values):')
  for (const [what, n] of [...coercions].sort((a, b) => b[1] - a[1]))
    console.log(`  ${String(n).padStart(8)}  ${what}`)
}

if (!prepared.ok) {
  const groups = groupIssues(prepared.errors)
  console.error(
    `✖ ${prepared.errors.length} issue(s) in ${new Set(prepared.errors.map((e) => `${e.file}:${e.line}`)).size} record(s); nothing imported`,
  )
  for (const g of groups)
    console.error(`  ${String(g.count).padStart(8)} × ${g.kind}\n             first at ${g.first.join(', ')}`)
  // Every issue, one per line, after the groups (file:line: reason).
  for (const e of prepared.errors) console.error(`${e.file}:${e.line}: ${e.reason}`)
  printCoercions(prepared.coercions)
  process.exit(1)
}

const countsText =
  Object.entries(prepared.counts)
    .map(([k, v]) => `${v} ${k}`)
    .join(', ') || 'no records'
console.log(`\nImport summary (${seconds()} to read and validate)`)
console.log(`  records     ${countsText}`)
console.log(`  URL maps    ${prepared.kv.length}`)
console.log(`  SQL         ${prepared.statements} statements, ${(prepared.sql.length / 1e6).toFixed(1)} MB`)
if (replace)
  console.log('  mode        --replace: the catalogue (the demo included) is emptied first, in the same run')
printCoercions(prepared.coercions)
if (prepared.warnings.length) {
  console.warn(
    `⚠ ${prepared.warnings.length} conversion(s) changed what a product says (older export format):`,
  )
  for (const line of warningLines(prepared.warnings)) console.warn(`  ${line}`)
}
if (dryRun) {
  console.log('--dry-run: nothing written')
  process.exit(0)
}
if (!deployed && replace)
  await confirm('replace the whole local catalogue (the demo included) with these files', { yes })

let stale = []
try {
  // The stored url paths before the write: keys the new mappings no longer use are deleted after.
  stale = prepared.previousUrlsSql ? staleUrlKeys(d1Rows(prepared.previousUrlsSql), prepared.kv) : []
  const sqlFile = path.join(tmp, 'import.sql')
  writeFileSync(sqlFile, prepared.sql)
  bar(`writing ${prepared.statements} statements to D1`, 1, 4)
  wrangler(['d1', 'execute', 'DB', ...where, '--file', sqlFile])
  bar(`D1 written (${seconds()})`, 2, 4)
  if (prepared.kv.length) {
    const kvFile = path.join(tmp, 'import-kv.json')
    writeFileSync(kvFile, JSON.stringify(withListedValue(prepared.kv)))
    bar(`writing ${prepared.kv.length} URL mappings to KV`, 2, 4)
    wrangler(['kv', 'bulk', 'put', kvFile, '--binding', 'URL_MAPPINGS', ...where])
  }
  if (stale.length) {
    const staleFile = path.join(tmp, 'import-kv-stale.json')
    writeFileSync(staleFile, JSON.stringify(stale))
    bar(`deleting ${stale.length} stale URL mappings from KV`, 3, 4)
    wrangler(['kv', 'bulk', 'delete', staleFile, '--binding', 'URL_MAPPINGS', '--force', ...where])
  }
  bar(`done (${seconds()})`, 4, 4)
  endBar()
} catch (err) {
  endBar()
  die(`writing failed: ${writeFailure(err.message, where)}`)
}
console.log(
  `imported ${countsText}; ${prepared.kv.length} URL mappings${stale.length ? `, ${stale.length} stale removed` : ''} in ${seconds()}`,
)
// Purge the edge output cache of the pages the import changed (by page type; GET /invalidate);
// a replaced catalogue changes every page type.
const types = new Set(replace ? ['product', 'category', 'cms_page'] : Object.keys(prepared.counts))
const tags = new Set()
if (types.has('product') || types.has('review') || types.has('taxrule') || types.has('attribute'))
  for (const t of ['product', 'category', 'home', 'search']) tags.add(t)
if (types.has('category')) for (const t of ['category', 'home', 'search']) tags.add(t)
if (types.has('cms_page') || types.has('cms_block')) for (const t of ['cms', 'home']) tags.add(t)
if (tags.size) await purgeOutputCache([...tags])
process.exit(imagesDir && !dryRun ? await importImages(imagesDir) : 0)

/** Uploads the original images of DIR (scripts/catalogue/import/images.ts); 1 when it failed. */
async function importImages(dir) {
  const { listImages, uploadImages } = await importTs('scripts/catalogue/import/images.ts')
  const { images, skipped } = listImages(dir)
  for (const s of skipped.slice(0, 50)) console.error(`${s.file}: skipped, ${s.reason}`)
  if (skipped.length > 50) console.error(`… and ${skipped.length - 50} more skipped`)
  try {
    const n = await uploadImages(images, { root, env: envName, persist }, (d, t) =>
      bar(`images ${d}/${t}`, d, t),
    )
    endBar()
    console.log(`images: ${n} uploaded, ${skipped.length} skipped`)
    return 0
  } catch (err) {
    endBar()
    console.error(`✖ images: ${err.message}`)
    return 1
  }
}

async function purgeOutputCache(tagList) {
  const base = purgeUrl ?? (deployed ? null : 'http://127.0.0.1:8787')
  if (!base) {
    console.log(`output cache: pass --purge-url https://your-shop to purge tags ${tagList.join(',')}`)
    return
  }
  let key = process.env.INVALIDATE_KEY
  if (!key && existsSync(path.join(root, '.dev.vars'))) {
    key = readFileSync(path.join(root, '.dev.vars'), 'utf8')
      .match(/^INVALIDATE_KEY=(.*)$/m)?.[1]
      ?.trim()
  }
  if (!key) {
    console.log('output cache: no INVALIDATE_KEY (env or .dev.vars); not purged')
    return
  }
  // The key travels in a header only: the shop refuses a key in the URL (URLs end up in logs).
  const url = `${base.replace(/\/+$/, '')}/invalidate?tag=${encodeURIComponent(tagList.join(','))}`
  try {
    const res = await fetch(url, { headers: { 'x-invalidate-key': key }, signal: AbortSignal.timeout(5000) })
    const body = await res.json().catch(() => null)
    console.log(
      `output cache: purge ${tagList.join(',')} → ${res.status} ${JSON.stringify(body?.result ?? body)}`,
    )
  } catch {
    // Nothing listening (e.g. the shop is not running locally): nothing cached to purge.
    console.log(`output cache: ${base} not reachable; nothing purged`)
  }
}
