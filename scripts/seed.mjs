#!/usr/bin/env node
// `npm run seed`: writes the deterministic demo catalogue into D1 and the URL mappings into KV.
// Options: --if-empty (skip when products exist; used by `npm start`), --persist-to DIR (local
// state dir), --scale N (N configurable products; 10000 for benchmarks), --seed N, --remote
// (the deployed D1/KV instead of local state).
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import { capture, persistArgs, root, spawnLong } from './lib.mjs'

const args = process.argv.slice(2)
const opt = (name, fallback) => {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : fallback
}
const has = (name) => args.includes(name)
const persist = opt('--persist-to', undefined)
const remote = has('--remote')
const scale = opt('--scale', undefined)
const seed = opt('--seed', undefined)
if (scale !== undefined && !(Number(scale) >= 1)) {
  console.error('--scale must be a positive number of configurable products (e.g. 10000)')
  process.exit(2)
}
const where = remote ? ['--remote'] : ['--local', ...persistArgs(persist)]
const started = Date.now()

if (has('--if-empty')) {
  let count = 0
  try {
    const out = capture('wrangler', [
      'd1',
      'execute',
      'DB',
      ...where,
      '--json',
      '--command',
      'SELECT COUNT(*) AS n FROM products',
    ])
    count = JSON.parse(out)?.[0]?.results?.[0]?.n ?? 0
  } catch (err) {
    console.error(`could not count products (${String(err.message ?? err).split('\n')[0]}); seeding`)
  }
  if (count > 0) {
    console.log(`catalogue already seeded (${count} products); skipping`)
    await seedDemoPincodesIfEmpty()
    process.exit(0)
  }
}

/** Bundles the seed's node entry (TypeScript) and imports it. */
async function seedEntry() {
  const tmpDir = path.join(root, '.tmp')
  mkdirSync(tmpDir, { recursive: true })
  const out = path.join(tmpDir, 'seed-bundle.mjs')
  await build({
    entryPoints: [path.join(root, 'scripts/catalogue/seed/node-entry.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile: out,
    logLevel: 'warning',
  })
  return import(`${pathToFileURL(out).href}?t=${Date.now()}`)
}

/**
 * A local state seeded before the cash-on-delivery PIN-code table existed gets the demo PIN codes
 * (only while the table is empty: an operator's import is never touched).
 */
async function seedDemoPincodesIfEmpty() {
  try {
    const out = capture('wrangler', [
      'd1',
      'execute',
      'DB',
      ...where,
      '--json',
      '--command',
      'SELECT COUNT(*) AS n FROM cod_pincodes',
    ])
    if ((JSON.parse(out)?.[0]?.results?.[0]?.n ?? 0) > 0) return
    const { demoPincodeSql } = await seedEntry()
    const file = path.join(root, '.tmp', 'seed-pincodes.sql')
    writeFileSync(file, demoPincodeSql())
    capture('wrangler', ['d1', 'execute', 'DB', ...where, '--file', file])
    console.log('D1: demo cash-on-delivery PIN codes written')
  } catch (err) {
    console.error(`could not seed the demo PIN codes (${String(err.message ?? err).split('\n')[0]})`)
  }
}

const tmp = path.join(root, '.tmp')
mkdirSync(tmp, { recursive: true })
const { buildSeedSql } = await seedEntry()
const result = buildSeedSql({
  scale: scale ? Number(scale) : undefined,
  seed: seed ? Number(seed) : undefined,
})
console.log(
  `generated ${result.counts.products} products (${result.counts.variants} variants), ${result.counts.categories} categories, ${result.counts.urlMappings} URL mappings`,
)

// D1 and KV are written in parallel (each wrangler run costs seconds of start-up).
const runAsync = (cmdArgs) =>
  new Promise((resolve, reject) => {
    const child = spawnLong('wrangler', cmdArgs, { stdio: ['ignore', 'ignore', 'inherit'] })
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`wrangler ${cmdArgs.join(' ')} failed (exit ${code})`)),
    )
  })

async function writeD1() {
  for (const [i, sql] of result.sqlChunks.entries()) {
    const file = path.join(tmp, `seed-${i}.sql`)
    writeFileSync(file, sql)
    console.log(
      `D1: executing ${path.relative(root, file)} (${i + 1}/${result.sqlChunks.length}, ${(sql.length / 1e6).toFixed(1)} MB)`,
    )
    await runAsync(['d1', 'execute', 'DB', ...where, '--file', file])
  }
}

async function writeKv() {
  const KV_CHUNK = 10000
  for (let i = 0; i < result.kv.length; i += KV_CHUNK) {
    const file = path.join(tmp, `seed-kv-${i / KV_CHUNK}.json`)
    writeFileSync(file, JSON.stringify(result.kv.slice(i, i + KV_CHUNK)))
    await runAsync(['kv', 'bulk', 'put', file, '--binding', 'URL_MAPPINGS', ...where])
  }
  console.log(`KV: ${result.kv.length} URL mappings written`)
}

try {
  await Promise.all([writeD1(), writeKv()])
} catch (err) {
  console.error(`\n✖ ${err.message}`)
  process.exit(1)
}
console.log(`seeded the demo catalogue in ${((Date.now() - started) / 1000).toFixed(1)} s`)
