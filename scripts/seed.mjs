#!/usr/bin/env node
// `npm run seed`: writes the deterministic demo catalogue into D1 and the URL mappings into KV.
import { rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import {
  capture,
  confirm,
  die,
  firstLine,
  importTs,
  queryLocalD1,
  root,
  shopCommandLine,
  spawnLong,
  withListedValue,
} from './lib.mjs'

const HELP = `
usage: npm run seed -- [options]

Writes the demo catalogue (products, categories, content, demo coupons) into D1 and its URL
mappings into KV. Replacing an existing catalogue asks first (or needs --yes without a terminal);
orders, customers and carts are never touched; live reviews and stock levels are kept unless
--reset-reviews / --reset-stock; existing coupons are never changed.

options:
  --if-empty          do nothing when the catalogue already has products (used by npm start)
  --yes               do not ask before replacing a catalogue or writing to a deployed shop
  --reset-reviews     replace all reviews with the demo ones
  --reset-stock       replace all stock levels with the demo ones
  --scale N           N configurable products (e.g. 10000 for benchmarks)
  --seed N            another deterministic catalogue
  --persist-to DIR    local state directory (default .wrangler/state)
  --env NAME          the deployed shop of wrangler.toml's [env.NAME] (staging | production)
  --remote            same as --env (needs it)
  -h, --help          print this help and do nothing else
`

const {
  ifEmpty,
  yes,
  resetReviews,
  resetStock,
  env,
  persistTo: persist,
  scale,
  seed,
  where,
  deployed,
} = shopCommandLine(HELP, {
  flags: ['--if-empty', '--reset-reviews', '--reset-stock'],
  options: ['--scale', '--seed'],
  positionals: 0,
})
if (scale !== undefined && !(Number(scale) >= 1))
  die('--scale must be a positive number of configurable products (e.g. 10000)')
if (seed !== undefined && !Number.isInteger(Number(seed))) die('--seed must be an integer')
const started = Date.now()

/** The seed generator (TypeScript, bundled for Node). */
const seedEntry = () => importTs('scripts/catalogue/seed/node-entry.ts')

/** How many rows a D1 table of the shop holds (throws when the database cannot be read). */
async function countRows(table) {
  const local = deployed ? undefined : await queryLocalD1(persist, `SELECT COUNT(*) AS n FROM ${table}`)
  if (local) return local[0]?.n ?? 0
  const out = capture('wrangler', [
    'd1',
    'execute',
    'DB',
    ...where,
    '--json',
    '--command',
    `SELECT COUNT(*) AS n FROM ${table}`,
  ])
  return JSON.parse(out)?.[0]?.results?.[0]?.n ?? 0
}

/**
 * A local state seeded before the cash-on-delivery PIN-code table existed gets the demo PIN codes
 * (only while the table is empty: an operator's import is never touched).
 */
async function seedDemoPincodesIfEmpty() {
  try {
    if ((await countRows('cod_pincodes')) > 0) return
    const { demoPincodeSql } = await seedEntry()
    const file = path.join(root, '.tmp', 'seed-pincodes.sql')
    writeFileSync(file, demoPincodeSql())
    capture('wrangler', ['d1', 'execute', 'DB', ...where, '--file', file])
    console.log('D1: demo cash-on-delivery PIN codes written')
  } catch (err) {
    console.error(`could not seed the demo PIN codes (${firstLine(err)})`)
  }
}

const target = deployed ? `the DEPLOYED ${env} shop` : 'the local shop'
// A deployed shop is confirmed before anything is read from it.
if (deployed && !ifEmpty)
  await confirm(`write the demo catalogue into ${target}, replacing its catalogue if it has one`, { yes })
let count = 0
try {
  count = await countRows('products')
} catch (err) {
  if (deployed) die(`could not read the ${env} database: ${firstLine(err)}`, 1)
  // A local database that does not exist yet is empty.
}
if (count > 0 && ifEmpty) {
  console.log(`catalogue already seeded (${count} products); skipping`)
  if (!deployed) await seedDemoPincodesIfEmpty()
  process.exit(0)
}
if (count > 0 && !deployed) {
  const kept = [resetReviews ? null : 'reviews', resetStock ? null : 'stock levels'].filter(Boolean)
  await confirm(
    `replace the catalogue of ${target} (${count} products) with the demo catalogue${kept.length ? `, keeping its ${kept.join(' and ')}` : ''}`,
    { yes },
  )
} else if (deployed && ifEmpty) {
  await confirm(`write the demo catalogue into ${target}`, { yes })
}

const tmp = path.join(root, '.tmp')
const { seedSqlChunks, noSeedCounts } = await seedEntry()
const counts = noSeedCounts()

const runAsync = (cmdArgs) =>
  new Promise((resolve, reject) => {
    const child = spawnLong('wrangler', cmdArgs, { stdio: ['ignore', 'ignore', 'inherit'] })
    child.on('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`wrangler ${cmdArgs.slice(0, 3).join(' ')} failed (exit ${code})`)),
    )
  })

// D1 one file at a time, in order (clears first, the version bump last); the next file is
// generated while wrangler runs the previous one, and each file is removed once it has run. The
// URL mappings go into files of KV_CHUNK, each written to KV once the D1 files holding its rows
// have run, alongside the D1 files that follow (KV is a separate store; one KV file at a time).
const KV_CHUNK = 10000
let kvPending = []
let kvFiles = 0
let kvRunning = Promise.resolve()
/** Queues the pending mappings for KV once `rowsWritten` (the D1 run holding their rows) is done. */
const flushKv = (rowsWritten) => {
  const file = path.join(tmp, `seed-kv-${kvFiles++}.json`)
  writeFileSync(file, JSON.stringify(withListedValue(kvPending)))
  kvPending = []
  kvRunning = Promise.all([kvRunning, rowsWritten])
    .then(() => runAsync(['kv', 'bulk', 'put', file, '--binding', 'URL_MAPPINGS', ...where]))
    .then(() => rmSync(file))
}
let running = Promise.resolve()
let files = 0
const chunks = seedSqlChunks(
  {
    scale: scale ? Number(scale) : undefined,
    seed: seed ? Number(seed) : undefined,
    maxChunkBytes: 32_000_000,
    keep: { reviews: !resetReviews, stock: !resetStock },
  },
  counts,
)
for (const chunk of chunks) {
  if (chunk.sql) {
    const file = path.join(tmp, `seed-${files++}.sql`)
    writeFileSync(file, chunk.sql)
    await running
    console.log(
      `D1: executing ${path.relative(root, file)} (${(chunk.sql.length / 1e6).toFixed(1)} MB; ${counts.products} products generated)`,
    )
    running = runAsync(['d1', 'execute', 'DB', ...where, '--file', file]).then(() => rmSync(file))
  }
  // A chunk's mappings point at rows of this chunk or earlier ones.
  for (const entry of chunk.kv) {
    kvPending.push(entry)
    if (kvPending.length === KV_CHUNK) flushKv(running)
  }
}
await running
console.log(
  `D1: ${counts.products} products (${counts.variants} variants), ${counts.categories} categories, ${counts.coupons} demo coupons in ${counts.statements} statements (${(counts.sqlBytes / 1e6).toFixed(1)} MB of SQL)`,
)
if (kvPending.length) flushKv(running)
await kvRunning
console.log(`KV: ${counts.urlMappings} URL mappings written`)
console.log(`seeded the demo catalogue in ${((Date.now() - started) / 1000).toFixed(1)} s`)
