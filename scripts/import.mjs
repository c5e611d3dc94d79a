#!/usr/bin/env node
// `npm run import -- FILE…`: loads vue-storefront-api catalogue exports (elasticdump NDJSON lines
// {_index,_type,_id,_source}, or a JSON array of documents) into the local D1 (or the deployed one
// with --remote) and keeps the KV URL mappings in step.
// Options: npm run import -- --help.
// Every file is validated completely first; a file with a bad record is reported (file:line: reason)
// and NOTHING from it is written. A valid file is written with one `wrangler d1 execute --file` run.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import {
  confirm,
  die,
  helpOrContinue,
  importTs,
  oneLineErrors,
  quietEnv,
  root,
  takeFlag,
  takeOption,
  whereArgs,
  withListedValue,
} from './lib.mjs'

const HELP = `
usage: npm run import -- [options] FILE...

Imports vue-storefront-api catalogue exports (elasticdump NDJSON or a JSON array) into D1 and
keeps the KV URL mappings in step. A file with a bad record is reported (file:line: reason) and
nothing of it is written. Orders, customers and carts are never touched.

options:
  --type T          the type of records without _type: product|category|attribute|taxrule|
                    cms_page|cms_block|review
  --env NAME        the deployed shop of wrangler.toml's [env.NAME] (staging | production); asks
                    first (or needs --yes without a terminal)
  --remote          same as --env (needs it)
  --yes             do not ask before writing to a deployed shop
  --persist-to DIR  local state directory (default .wrangler/state)
  --purge-url URL   the shop whose output cache to purge afterwards (local imports try
                    http://127.0.0.1:8787)
  --images DIR      also upload the catalogue's original images from DIR (the folder image paths
                    are relative to, e.g. pub/media/catalog/product) into the CATALOGUE_IMAGES
                    bucket; FILEs may then be omitted
  -h, --help        print this help and do nothing else
`
const argv = process.argv.slice(2)
helpOrContinue(argv, HELP)
oneLineErrors()
const yes = takeFlag(argv, '--yes')
const remote = takeFlag(argv, '--remote')
const envName = takeOption(argv, '--env')
const type = takeOption(argv, '--type')
const persist = takeOption(argv, '--persist-to')
const purgeUrl = takeOption(argv, '--purge-url')
const imagesDir = takeOption(argv, '--images')
const unknownOption = argv.find((a) => a.startsWith('--'))
if (unknownOption) die(`unknown option ${unknownOption} (npm run import -- --help lists them)`)
const files = argv
if (files.length === 0 && !imagesDir)
  die('which files? npm run import -- [options] FILE... (--help lists the options)')
const where = whereArgs({ remote, env: envName, persist })
const deployed = where.includes('--remote')
if (imagesDir && !existsSync(imagesDir)) die(`--images ${imagesDir}: no such folder`)
if (deployed) await confirm(`import ${files.length} file(s) into the DEPLOYED ${envName} shop`, { yes })

const tmp = path.join(root, '.tmp')
mkdirSync(tmp, { recursive: true })
const { prepareImport, staleUrlKeys } = await importTs('scripts/catalogue/import/node-entry.ts')

const isTty = process.stderr.isTTY
function bar(label, done, total) {
  const width = 28
  const ratio = total ? Math.min(1, done / total) : 1
  const filled = Math.round(ratio * width)
  const line = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(Math.round(ratio * 100)).padStart(3)}% ${label}`
  if (isTty) process.stderr.write(`\r\x1b[2K${line}`)
  else if (done === total) process.stderr.write(`${line}\n`)
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

const now = new Date().toISOString().slice(0, 19).replace('T', ' ')
const summary = []
let failed = 0
for (const [n, file] of files.entries()) {
  const name = path.basename(file)
  const prefix = `(${n + 1}/${files.length}) ${name}`
  let text
  try {
    text = readFileSync(file, 'utf8')
  } catch (err) {
    endBar()
    console.error(`${file}:0: cannot read file (${err.code ?? err.message})`)
    summary.push({ file, status: 'unreadable' })
    failed++
    continue
  }
  const prepared = prepareImport(text, file, {
    type,
    now,
    onProgress: (d, t) => bar(`${prefix}: validating ${d}/${t}`, d, t * 3),
  })
  if (!prepared.ok) {
    endBar()
    for (const e of prepared.errors.slice(0, 50)) console.error(`${e.file}:${e.line}: ${e.reason}`)
    if (prepared.errors.length > 50)
      console.error(`… and ${prepared.errors.length - 50} more errors in ${file}`)
    console.error(`✖ ${file}: ${prepared.errors.length} bad record(s); nothing imported from this file`)
    summary.push({ file, status: 'rejected', errors: prepared.errors.length })
    failed++
    continue
  }
  try {
    // The stored url paths before the write: keys the new mappings no longer use are deleted after.
    const stale = prepared.previousUrlsSql ? staleUrlKeys(d1Rows(prepared.previousUrlsSql), prepared.kv) : []
    const sqlFile = path.join(tmp, `import-${n}.sql`)
    writeFileSync(sqlFile, prepared.sql)
    bar(`${prefix}: writing ${prepared.statements} statements to D1`, 1, 3)
    wrangler(['d1', 'execute', 'DB', ...where, '--file', sqlFile])
    if (prepared.kv.length) {
      const kvFile = path.join(tmp, `import-kv-${n}.json`)
      writeFileSync(kvFile, JSON.stringify(withListedValue(prepared.kv)))
      bar(`${prefix}: writing ${prepared.kv.length} URL mappings to KV`, 2, 3)
      wrangler(['kv', 'bulk', 'put', kvFile, '--binding', 'URL_MAPPINGS', ...where])
    }
    if (stale.length) {
      const staleFile = path.join(tmp, `import-kv-stale-${n}.json`)
      writeFileSync(staleFile, JSON.stringify(stale))
      bar(`${prefix}: deleting ${stale.length} stale URL mappings from KV`, 2, 3)
      wrangler(['kv', 'bulk', 'delete', staleFile, '--binding', 'URL_MAPPINGS', '--force', ...where])
    }
    bar(`${prefix}: done`, 3, 3)
    endBar()
    summary.push({
      file,
      status: 'imported',
      counts: prepared.counts,
      urlMappings: prepared.kv.length,
      staleUrlMappings: stale.length,
    })
  } catch (err) {
    endBar()
    console.error(`✖ ${file}: writing failed: ${err.message}`)
    summary.push({ file, status: 'write failed' })
    failed++
  }
}

console.log('\nImport summary')
for (const s of summary) {
  const detail =
    s.status === 'imported'
      ? `${
          Object.entries(s.counts)
            .map(([k, v]) => `${v} ${k}`)
            .join(', ') || 'no records'
        }; ${s.urlMappings} URL mappings${s.staleUrlMappings ? `, ${s.staleUrlMappings} stale removed` : ''}`
      : s.errors
        ? `${s.errors} bad record(s)`
        : ''
  console.log(`  ${s.status.padEnd(12)} ${s.file}${detail ? `  (${detail})` : ''}`)
}
// Purge the edge output cache of the pages the import changed (by page type; GET /invalidate).
const imported = summary.filter((s) => s.status === 'imported')
const types = new Set(imported.flatMap((s) => Object.keys(s.counts)))
const tags = new Set()
if (types.has('product') || types.has('review') || types.has('taxrule') || types.has('attribute'))
  for (const t of ['product', 'category', 'home', 'search']) tags.add(t)
if (types.has('category')) for (const t of ['category', 'home', 'search']) tags.add(t)
if (types.has('cms_page') || types.has('cms_block')) for (const t of ['cms', 'home']) tags.add(t)
if (tags.size) await purgeOutputCache([...tags])
if (imagesDir) failed += await importImages(imagesDir)
process.exit(failed ? 1 : 0)

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
