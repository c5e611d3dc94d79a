#!/usr/bin/env node
// Two builds of the worker measured side by side on one machine state: this checkout's production
// bundle (built here) and another's (`--old DIR`: a checkout whose `npm run bench` built
// DIR/.tmp/bench/dist/index.js), each in its own workerd on its own copy of one seeded catalogue,
// the output cache off. Each row is measured in short slices, old and new alternately (old first in
// odd rounds, new first in even ones), so a change in the machine's load falls on both alike; the
// static asset is measured the same way. Prints per row each build's req/s (the sum of its slices),
// its ratio to the static asset measured in the same rounds, the new/old ratio, and the CPU time
// its workerd process spent per request (read from /proc; the steadier figure on a loaded machine).
// DIR must lie under this checkout (workerd refused a script from another checkout here: copy its
// .tmp/bench/dist to e.g. .tmp/olddist/.tmp/bench/dist). Options: --old DIR (required) --seeded DIR (state-SCALE and its .json, as `npm run bench --
// --seeded`) --scale 300 --rounds 6 --slice 1 (seconds) --connections 10 --rows home,category,product (search too)
// --no-build (reuse .tmp/bench/dist).
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import autocannon from 'autocannon'
import { parseArgs } from '../../scripts/lib.mjs'
import {
  benchPages,
  buildProduction,
  copyState,
  log,
  readManifest,
  root,
  staleState,
  startWorker,
} from '../helpers/workerd.mjs'

const o = parseArgs(
  `
usage: node tests/bench/pair.mjs --old DIR [--seeded DIR] [--scale 300] [--rounds 6] [--slice 1]
  [--connections 10] [--rows home,category,product,search] [--no-build]
Two builds of the worker measured side by side in alternating slices (see the top of
tests/bench/pair.mjs).`,
  {
    flags: ['--no-build'],
    options: ['--old', '--seeded', '--scale', '--rounds', '--slice', '--connections', '--rows'],
    positionals: 0,
  },
)
const OLD = o.old ?? ''
const SEEDED = o.seeded ?? path.join(root, '.tmp/bench')
const SCALE = o.scale ?? '300'
const ROUNDS = Number(o.rounds ?? '6')
const SLICE = Number(o.slice ?? '1')
const CONNECTIONS = Number(o.connections ?? '10')
const ROWS = (o.rows ?? 'home,category,product').split(',')
if (!OLD)
  throw new Error('usage: node tests/bench/pair.mjs --old DIR [--seeded DIR] [--scale 300] [--rounds 6]')
const oldScript = path.join(OLD, '.tmp/bench/dist/index.js')
if (!existsSync(oldScript)) throw new Error(`${oldScript} is missing: run the bench there first`)
const kept = path.join(SEEDED, `state-${SCALE}`)
if (!existsSync(`${kept}.json`)) throw new Error(`${kept}.json is missing: seed with npm run bench first`)
const stale = staleState(kept)
if (stale) throw new Error(`${kept} cannot be used (${stale}): seed it again with npm run bench`)

const newScript = o.noBuild ? path.join(root, '.tmp/bench/dist/index.js') : (await buildProduction()).script
const manifest = readManifest()
const heads = {}
for (const [name, script] of [
  ['old', oldScript],
  ['new', newScript],
]) {
  const state = path.join(root, `.tmp/bench/pair-${name}-${SCALE}`)
  copyState(kept, state)
  heads[name] = await startWorker({ cache: false, state, script })
}
const { category, product, search } = await benchPages(await heads.new.mf.getD1Database('DB'))
const paths = {
  static: manifest.entries.home.file,
  home: '/',
  category: `/c/${category.slug}`,
  product: `/p/${encodeURIComponent(product.sku)}/${product.slug}`,
  search: `/search?q=${encodeURIComponent(search)}`,
}
const BROWSER = {
  accept: 'text/html',
  'user-agent':
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36',
  'accept-encoding': 'identity',
}

/**
 * The workerd process listening on `url`'s port (its CPU time is the worker's and its local D1's),
 * or null when it cannot be told (then no CPU column is printed).
 */
function processOf(url) {
  try {
    const port = new URL(url).port
    const out = execFileSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8' })
    return Number(/pid=(\d+)/.exec(out)?.[1]) || null
  } catch {
    return null
  }
}

/** CPU seconds (user + system) process `pid` has used so far. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

/** Requests answered in one slice of `SLICE` seconds. */
function slice(url, duration = SLICE) {
  return new Promise((resolve, reject) =>
    autocannon({ url, connections: CONNECTIONS, duration, headers: BROWSER }, (err, r) =>
      err
        ? reject(err)
        : resolve({ requests: r.requests.total, errors: r.errors + r.timeouts + (r.non2xx ?? 0) }),
    ),
  )
}

const rows = ['static', ...ROWS]
const totals = Object.fromEntries(
  rows.map((r) => [r, { old: 0, new: 0, errors: 0, cpu: { old: 0, new: 0 } }]),
)
const pids = { old: processOf(heads.old.url), new: processOf(heads.new.url) }
for (const row of rows) {
  // Warm-up, not counted: every cache of both isolates filled.
  for (const h of ['old', 'new']) await slice(heads[h].url + paths[row])
}
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? ['old', 'new'] : ['new', 'old']
  for (const row of rows)
    for (const h of order) {
      const cpuFrom = pids[h] ? cpuSeconds(pids[h]) : 0
      const r = await slice(heads[h].url + paths[row])
      if (pids[h]) totals[row].cpu[h] += cpuSeconds(pids[h]) - cpuFrom
      totals[row][h] += r.requests
      totals[row].errors += r.errors
    }
  log(`round ${round + 1} of ${ROUNDS} done`)
}
const seconds = ROUNDS * SLICE
const rps = (row, h) => totals[row][h] / seconds
console.log(
  `\n## ${JSON.parse(readFileSync(`${kept}.json`, 'utf8')).products} products, ${ROUNDS} rounds of ${SLICE} s, ${CONNECTIONS} connections, old and new alternately`,
)
// CPU per request: the workerd process's CPU time over the requests it answered (load on the
// machine slows a request down, but hardly changes the CPU it costs).
const cpuMs = (row, h) => (totals[row].cpu[h] * 1000) / Math.max(1, totals[row][h])
console.log(
  '| row | old req/s | ×static | new req/s | ×static | new/old | old CPU ms a request | new | new/old | errors |',
)
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
for (const row of rows)
  console.log(
    `| ${row} | ${rps(row, 'old').toFixed(0)} | ${(rps(row, 'old') / rps('static', 'old')).toFixed(2)} | ${rps(row, 'new').toFixed(0)} | ${(rps(row, 'new') / rps('static', 'new')).toFixed(2)} | ${(rps(row, 'new') / rps(row, 'old')).toFixed(2)} | ${cpuMs(row, 'old').toFixed(2)} | ${cpuMs(row, 'new').toFixed(2)} | ${(cpuMs(row, 'new') / cpuMs(row, 'old')).toFixed(2)} | ${totals[row].errors} |`,
  )
await Promise.all(Object.values(heads).map((h) => h.mf.dispose()))
