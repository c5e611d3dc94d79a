#!/usr/bin/env node
// `node tests/bench/profile.mjs`: where an uncached page spends the worker's CPU time.
// Builds the worker unminified (so the profile names functions and source files), seeds the demo
// catalogue (or reuses a seeded state with --state DIR), starts it in workerd with the output cache
// off, warms each page up, then records a V8 CPU profile through the isolate's inspector while
// autocannon drives one page at a time. Prints, per page: requests per second during the profile,
// the JavaScript CPU time per request, and the self time by source file and by function (top N), so a change
// can be judged by where the time went. Options: --scale 300 --pages home,category,product,search
// --duration 3 --connections 10 --top 25 --state DIR (a seeded state, seeded there when missing or seeded with other migrations; default .tmp/profile/state-SCALE)
// --out DIR (writes each page's .cpuprofile there, for DevTools). A page named with -signed-in
// (category-signed-in) is requested with a signed-in shopper's cookies. The page `order` is order
// placement: a guest's cash-on-delivery order of one simple product, each from an address and
// e-mail of its own (so no placement or hold limit refuses it), the product's stock set high first;
// `order-refused` sends the same orders from one address, so after the hour's first ones the
// address's placement counter refuses each (the cost of a refusal: this worker has no burst
// binding). With either, every page of the run is requested from India.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import autocannon from 'autocannon'
// Node 20 has no global WebSocket; miniflare's own client.
import { WebSocket } from 'ws'
import { importTs, parseArgs } from '../../scripts/lib.mjs'
import { sampleTimes } from '../helpers/cpuprofile.mjs'
import {
  benchPages,
  buildFixtureWorker,
  log,
  root,
  seedState,
  sh,
  signedInShopper,
  staleState,
  startWorker,
} from '../helpers/workerd.mjs'

const HELP = `
usage: node tests/bench/profile.mjs [--scale 300] [--pages home,category,product,search]
  [--duration 3] [--connections 10] [--top 25] [--state DIR] [--out DIR]
A V8 CPU profile of each page's cache miss in workerd: CPU time a request, and self and total time
by package, source file and function. A page named NAME-signed-in is requested with a signed-in
shopper's cookies; the page \`order\` places guest orders, each from an address of its own, and
\`order-refused\` sends them from one address (refused by its hourly placement counter).`
const opts = parseArgs(HELP, {
  options: ['--scale', '--pages', '--duration', '--connections', '--top', '--state', '--out'],
  positionals: 0,
})
const SCALE = Number(opts.scale ?? '300')
const PAGES = (opts.pages ?? 'home,category,product,search').split(',')
const DURATION = Number(opts.duration ?? '3')
const CONNECTIONS = Number(opts.connections ?? '10')
const TOP = Number(opts.top ?? '25')
const OUT = opts.out ?? ''
const HEADERS = {
  accept: 'text/html',
  'accept-encoding': 'identity',
  'user-agent':
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36',
}

log('building the client and the worker (unminified)…')
sh(process.execPath, [path.join(root, 'scripts/build-client.mjs'), '--quiet'])
const script = await buildFixtureWorker('worker/index.ts', path.join(root, '.tmp/profile/worker.js'))
const seedOut = await buildFixtureWorker(
  'tests/helpers/seed-worker.ts',
  path.join(root, '.tmp/profile/seed-worker.js'),
)
const state = opts.state ?? path.join(root, `.tmp/profile/state-${SCALE}`)
const stale = staleState(state)
if (stale) {
  log(`seeding ${SCALE} products (the kept state cannot be used: ${stale})…`)
  await seedState(state, SCALE, seedOut)
}
// Orders are placed from India, the shop's home (cash on delivery is offered only there); the pages
// of the same run are then India's too.
const worker = await startWorker({
  cache: false,
  state,
  script,
  port: 0,
  inspect: true,
  country: PAGES.some((p) => p.startsWith('order')) ? 'IN' : undefined,
})

// The bundle's source files by line: esbuild starts each module with a `// path` comment.
const bundleLines = readFileSync(script, 'utf8').split('\n')
const starts = []
bundleLines.forEach((line, i) => {
  const m = /^\/\/ ((?:node_modules|worker|shared|client|\.\.)\S*)$/.exec(line)
  if (m) starts.push([i, m[1].replace(/^.*node_modules\//, 'node_modules/')])
})
function fileOf(line) {
  let lo = 0
  let hi = starts.length - 1
  let found = '(bundle preamble)'
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (starts[mid][0] <= line) {
      found = starts[mid][1]
      lo = mid + 1
    } else hi = mid - 1
  }
  return found
}
/** The source file a profile frame's code comes from. */
const sourceOf = (frame) =>
  frame.url.endsWith('worker.js') ? fileOf(frame.lineNumber) : frame.url || '(native)'
const packageOf = (file) => {
  const m = /^node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)
  return m ? m[1] : file.split('/').slice(0, 2).join('/')
}

/** A CDP session on the worker isolate's inspector. */
async function inspector() {
  const { href } = await worker.mf.getInspectorURL()
  const ws = new WebSocket(`${href.replace(/\/$/, '')}/core:user:`)
  await new Promise((resolve, reject) => {
    ws.onopen = resolve
    ws.onerror = () => reject(new Error('cannot open the worker inspector'))
  })
  let id = 0
  const pending = new Map()
  ws.onmessage = (e) => {
    const m = JSON.parse(String(e.data))
    if (m.id !== undefined) pending.get(m.id)?.(m)
  }
  const call = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const i = ++id
      pending.set(i, (m) => {
        pending.delete(i)
        if (m.error) reject(new Error(`${method}: ${m.error.message}`))
        else resolve(m.result)
      })
      ws.send(JSON.stringify({ id: i, method, params }))
    })
  return { call, close: () => ws.close() }
}

const cannon = (url, duration, headers = {}, extra = {}) =>
  new Promise((resolve, reject) =>
    autocannon(
      { url, connections: CONNECTIONS, duration, headers: { ...HEADERS, ...headers }, ...extra },
      (err, r) =>
        err
          ? reject(err)
          : resolve({
              requests: r.requests.total,
              rps: Math.round(r.requests.average),
              errors: r.errors + r.non2xx,
            }),
    ),
  )

// The pages, from the seeded data.
const d1 = await worker.mf.getD1Database('DB')
const { category: cat, product: conf } = await benchPages(d1)
const urls = {
  home: '/',
  category: `/c/${cat.slug}`,
  product: `/p/${encodeURIComponent(conf.sku)}/${conf.slug}`,
  search: '/search?q=silk',
}
// A signed-in shopper's pages ("category-signed-in"): their cookies carry the D1 bookmark of a write.
const shopper = await signedInShopper(worker.url)
/** Order placement: a simple product with stock for every order of the run, and a fresh shopper per request. */
const { orderBody, testAddress } = await importTs('tests/helpers/orders.ts')
const orderSku = (
  await d1
    .prepare(
      `UPDATE inventory SET qty = 10000000, is_in_stock = 1 WHERE sku = (SELECT sku FROM products
         WHERE type_id = 'simple' AND status = 1 AND visibility = 4 LIMIT 1) RETURNING sku`,
    )
    .first()
).sku
let orderSeq = 0
let refusedOnly = false
const orderRequests = [
  {
    method: 'POST',
    setupRequest(req) {
      orderSeq++
      const email = `profile-${Date.now()}-${orderSeq}@example.com`
      return {
        ...req,
        headers: {
          ...req.headers,
          'content-type': 'application/json',
          'cf-connecting-ip': refusedOnly
            ? '10.255.255.255'
            : `10.${(orderSeq >> 16) & 255}.${(orderSeq >> 8) & 255}.${orderSeq & 255}`,
        },
        body: JSON.stringify(
          orderBody(
            `profile-${Date.now()}-${orderSeq}`,
            // The shop prices every line itself; the price a client sends is only required.
            [{ sku: orderSku, qty: 1, price: 1 }],
            testAddress(email),
          ),
        ),
      }
    },
  },
]
const target = (page) => {
  if (page === 'order' || page === 'order-refused') {
    refusedOnly = page === 'order-refused'
    return { path: '/api/order', headers: {}, extra: { requests: orderRequests } }
  }
  const signedIn = page.endsWith('-signed-in')
  const name = signedIn ? page.slice(0, -'-signed-in'.length) : page
  return { path: urls[name] ?? name, headers: signedIn ? shopper : {} }
}

const cdp = await inspector()
await cdp.call('Profiler.enable')
/** The sampling interval asked of V8, in microseconds. */
const INTERVAL_US = 200
/** The most time one sample stands for (tests/helpers/cpuprofile.mjs says why). */
const SAMPLE_CAP_US = 5 * INTERVAL_US
await cdp.call('Profiler.setSamplingInterval', { interval: INTERVAL_US })
if (OUT) mkdirSync(OUT, { recursive: true })
for (const page of PAGES) {
  const { path: pagePath, headers, extra } = target(page)
  const url = worker.url + pagePath
  await cannon(url, 1, headers, extra)
  await cdp.call('Profiler.start')
  const run = await cannon(url, DURATION, headers, extra)
  const { profile } = await cdp.call('Profiler.stop')
  if (OUT) writeFileSync(path.join(OUT, `${page}.cpuprofile`), JSON.stringify(profile))
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const { self, gaps } = sampleTimes(profile, SAMPLE_CAP_US)
  const byFile = new Map()
  const byPackage = new Map()
  const byFunction = new Map()
  let busy = 0
  for (const [nodeId, us] of self) {
    const { callFrame } = byId.get(nodeId)
    const name = callFrame.functionName || '(anonymous)'
    if (name === '(idle)' || name === '(program)' || name === '(garbage collector)') {
      if (name !== '(idle)') busy += us
      const k = name
      byFile.set(k, (byFile.get(k) ?? 0) + us)
      continue
    }
    busy += us
    const file = sourceOf(callFrame)
    byFile.set(file, (byFile.get(file) ?? 0) + us)
    byPackage.set(packageOf(file), (byPackage.get(packageOf(file)) ?? 0) + us)
    const fn = `${name} ${file}:${callFrame.lineNumber + 1}`
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us)
  }
  // Total (inclusive) time: each sample counts once for every function on its stack.
  const parent = new Map()
  for (const n of profile.nodes) for (const ch of n.children ?? []) parent.set(ch, n.id)
  const total = new Map()
  for (const [nodeId, us] of self) {
    const seen = new Set()
    for (let id = nodeId; id !== undefined; id = parent.get(id)) {
      const { callFrame } = byId.get(id)
      const name = callFrame.functionName
      if (!name || name.startsWith('(')) continue
      const file = sourceOf(callFrame)
      const fn = `${name} ${file}`
      if (seen.has(fn)) continue
      seen.add(fn)
      total.set(fn, (total.get(fn) ?? 0) + us)
    }
  }
  const perRequest = (us) => (us / 1000 / Math.max(1, run.requests)).toFixed(3)
  console.log(
    `\n## ${page} (${pagePath}): ${run.rps} req/s, ${run.requests} requests, ${run.errors} errors; busy CPU ${perRequest(busy)} ms a request`,
  )
  console.log(
    `(JavaScript only, a sample counted for at most ${SAMPLE_CAP_US / 1000} ms; ${perRequest(gaps)} ms a request of longer gaps between samples left out: waiting, or workerd outside JavaScript)`,
  )
  const top = (m, title) => {
    console.log(`\n${title} (ms a request, share of busy):`)
    for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, TOP))
      console.log(`  ${perRequest(us).padStart(7)}  ${((100 * us) / busy).toFixed(1).padStart(5)} %  ${k}`)
  }
  top(byPackage, 'self time by package or folder')
  top(byFile, 'self time by file')
  top(byFunction, 'self time by function')
  top(total, 'total time by function (itself and what it calls)')
}
cdp.close()
await worker.mf.dispose()
