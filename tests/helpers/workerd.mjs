// The workerd fixture of the Node-driven runs (benchmarks, Lighthouse, soak) and of the migration
// unit test: builds the production worker (`wrangler deploy --dry-run --minify`) and fixture
// workers, splits the migrations into the single statements D1 accepts, seeds persisted D1/KV
// with the demo catalogue inside workerd (tests/helpers/seed-worker.ts) and runs workers in
// workerd through the Miniflare API. One copy of each step: the runs import it from here.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'
import { convertV4MiniflareOptions, Log, LogLevel, Miniflare } from 'miniflare'

export const root = path.resolve(import.meta.dirname, '../..')
/** The D1 migrations, applied in file-name order. */
export const migrationsDir = path.join(root, 'worker/db/migrations')
const wranglerToml = readFileSync(path.join(root, 'wrangler.toml'), 'utf8')
export const COMPAT_DATE = wranglerToml.match(/compatibility_date = "([^"]+)"/)[1]
/** The flags wrangler.toml deploys with (nodejs_compat: React's node renderer, see render-page). */
export const COMPAT_FLAGS = JSON.parse(wranglerToml.match(/compatibility_flags = (\[[^\]]*\])/)?.[1] ?? '[]')
/** The top-level [[ratelimits]] bindings of wrangler.toml, as Miniflare takes them. */
const RATE_LIMITS = Object.fromEntries(
  [
    ...wranglerToml.matchAll(
      /^\[\[ratelimits\]\]\s*name = "(\w+)"\s*namespace_id = "(\w+)"\s*simple = \{ limit = (\d+), period = (\d+) \}/gm,
    ),
  ].map(([, name, ns, limit, period]) => [
    name,
    { namespace_id: ns, simple: { limit: Number(limit), period: Number(period) } },
  ]),
)
const bin = (n) => path.join(root, 'node_modules/.bin', n)
const env = {
  ...process.env,
  PATH: `${path.join(root, 'node_modules/.bin')}:${process.env.PATH}`,
  WRANGLER_SEND_METRICS: 'false',
}
export const log = (...a) => console.error(...a)

export function sh(cmd, cmdArgs) {
  const res = spawnSync(cmd, cmdArgs, { cwd: root, env, encoding: 'utf8' })
  if (res.status !== 0) throw new Error(`${cmd} ${cmdArgs.join(' ')} failed:\n${res.stderr}\n${res.stdout}`)
  return res.stdout
}

/** esbuild options for bundling a fixture worker for workerd. */
export const workerBuild = {
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  conditions: ['workerd', 'worker', 'browser'],
  mainFields: ['module', 'main'],
  define: { 'process.env.NODE_ENV': '"production"' },
  external: ['cloudflare:*', 'node:*'],
  logLevel: 'warning',
  plugins: [
    {
      // React's node renderer (worker/platform/render/render-page) require()s Node built-ins; with
      // nodejs_compat workerd provides them as `node:*` modules, which an ESM bundle must import.
      name: 'node-builtins',
      setup(b) {
        b.onResolve({ filter: /^(util|crypto|async_hooks|stream|events|buffer)$/ }, (a) => ({
          path: a.path,
          namespace: 'node-builtin',
        }))
        b.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (a) => ({
          contents: `export * from 'node:${a.path}'`,
          loader: 'js',
        }))
      },
    },
  ],
}

/** The client build's manifest (worker/platform/render/manifest.generated.json): hashed files per page. */
export function readManifest() {
  return JSON.parse(readFileSync(path.join(root, 'worker/platform/render/manifest.generated.json'), 'utf8'))
}

/** Bundles a fixture worker (`entry`, relative to the repository root) for workerd into `outfile`. */
export async function buildFixtureWorker(entry, outfile) {
  await build({ ...workerBuild, entryPoints: [path.join(root, entry)], outfile })
  return outfile
}

/**
 * Builds the client, the production worker (into `dir`/dist) and the seeding fixture worker;
 * returns their paths, the worker's size and the client manifest.
 */
export async function buildProduction(dir = path.join(root, '.tmp/bench')) {
  log('building client and worker (production)…')
  sh(process.execPath, [path.join(root, 'scripts/build-client.mjs'), '--quiet'])
  const outdir = path.join(dir, 'dist')
  sh(bin('wrangler'), ['deploy', '--dry-run', '--minify', '--outdir', outdir])
  const workerJs = readFileSync(path.join(outdir, 'index.js'))
  const bundle = { bytes: workerJs.length, gzipBytes: gzipSync(workerJs, { level: 9 }).length }
  // The seeder runs inside workerd (a fixture worker) and writes the persisted D1/KV.
  const seedOut = await buildFixtureWorker('tests/helpers/seed-worker.ts', path.join(dir, 'seed-worker.js'))
  return { outdir, script: path.join(outdir, 'index.js'), bundle, manifest: readManifest(), seedOut }
}

/** The migration file names, in the order they apply. */
export const migrationFiles = readdirSync(migrationsDir)
  .filter((f) => f.endsWith('.sql'))
  .sort()

/** One migration file's text as the separate statements D1's prepare() accepts. */
export function splitSql(sql) {
  // Statements end with ';' at the end of a line; triggers (BEGIN … END;) are kept whole. A
  // comment after the closing ';' is left out: D1 reads it as a second, empty statement.
  const out = []
  let buf = ''
  let inTrigger = false
  for (const line of sql.split('\n')) {
    const code = line.replace(/--.*$/, '')
    const t = code.trim()
    if (!t && !buf) continue
    if (/\bBEGIN\b/i.test(t) && /CREATE\s+TRIGGER/i.test(buf + line)) inTrigger = true
    if (inTrigger ? /^END;$/i.test(t) : t.endsWith(';')) {
      out.push(`${buf}${code}`.trim())
      buf = ''
      inTrigger = false
    } else buf += `${line}\n`
  }
  if (buf.trim()) out.push(buf.trim())
  return out
}

/** Every migration's statements, in order (for seeding inside workerd). */
export const migrationStatements = migrationFiles.flatMap((f) =>
  splitSql(readFileSync(path.join(migrationsDir, f), 'utf8')),
)

/** Miniflare options for the production worker (or a fixture script) on 127.0.0.1:`port`. */
export function workerOptions({
  script = path.join(root, '.tmp/bench/dist/index.js'),
  state,
  port,
  cache = false,
  upstream = '',
  tokenSecret = 'bench-secret-0123456789abcdef0123456789abcdef',
  invalidateKey = 'bench-invalidate',
  // The soak run's worker: wrangler.toml's rate limits, the image bucket and the Images binding.
  full = false,
}) {
  const options = convertV4MiniflareOptions({
    modules: true,
    ...(full
      ? { ratelimits: RATE_LIMITS, r2Buckets: ['CATALOGUE_IMAGES'], images: { binding: 'IMAGES' } }
      : {}),
    scriptPath: script,
    compatibilityDate: COMPAT_DATE,
    compatibilityFlags: COMPAT_FLAGS,
    d1Databases: { DB: 'db' },
    kvNamespaces: { URL_MAPPINGS: 'urls' },
    assets: {
      directory: path.join(root, 'public'),
      binding: 'ASSETS',
      routerConfig: { has_user_worker: true },
    },
    bindings: {
      API_UPSTREAM: upstream,
      STORE_CODE: 'default',
      STORE_NAME: 'Ode Atelier',
      STORE_ID: '1',
      DEFAULT_CURRENCY: 'INR',
      DEFAULT_COUNTRY: 'IN',
      SUPPORT_EMAIL: 'care@ode-atelier.example',
      PRICE_TIERS_ENABLED: 'false',
      OFFLINE_ORDERS_AUTO_TRANSMIT: 'false',
      OUTPUT_CACHE_ENABLED: cache ? 'true' : 'false',
      ENVIRONMENT: 'production',
      TOKEN_SECRET: tokenSecret,
      INVALIDATE_KEY: invalidateKey,
    },
    port,
    host: '127.0.0.1',
  })
  // Miniflare 5: one persistence root for D1/KV, so the seeder and the measured workers share data.
  options.resourcePersistencePath = state
  return options
}

let nextPort = Number(process.env.BENCH_PORT_BASE ?? 8840)
/**
 * Starts a worker script in workerd (Miniflare) with persisted state under `state`, on the next
 * port from BENCH_PORT_BASE (8840) unless `port` is given (0: any free port). With `inspect`, the
 * isolate's V8 inspector is opened too and `heap()` measures it (see isolateHeap).
 */
export async function startWorker({
  cache,
  upstream,
  state,
  script,
  port = nextPort++,
  inspect = false,
  country,
}) {
  const options = workerOptions({ script, state, port, cache, upstream })
  // Where requests come from (\`request.cf.country\`); without it, the local runtime's placeholder
  // names the United States.
  if (country) options.cf = { country }
  // workerd's own errors (uncaught exceptions, crashes) reach stderr; request logs stay quiet.
  options.log = new Log(process.env.BENCH_LOG === 'debug' ? LogLevel.DEBUG : LogLevel.WARN)
  if (inspect) options.inspectorPort = 0
  const mf = new Miniflare(options)
  const url = await mf.ready
  const inspector = inspect ? (await mf.getInspectorURL()).href.replace(/\/$/, '') : null
  return {
    mf,
    url: url.href.replace(/\/$/, ''),
    heap: () => {
      if (!inspector) throw new Error('startWorker: heap() needs { inspect: true }')
      return isolateHeap(`${inspector}/core:user:`)
    },
  }
}

/**
 * The worker isolate's V8 heap, measured through the Chrome DevTools Protocol: a heap snapshot
 * first (V8 runs a full garbage collection before taking one; workerd does not answer
 * HeapProfiler.collectGarbage), then Runtime.getHeapUsage, and the isolate's own byte accounting
 * of its memos (memoTable(), reachable from a debugger only, see worker/platform/memo.ts).
 */
export async function isolateHeap(wsUrl) {
  const ws = new WebSocket(wsUrl)
  await new Promise((resolve, reject) => {
    ws.onopen = resolve
    ws.onerror = () => reject(new Error(`cannot open the worker inspector at ${wsUrl}`))
  })
  let id = 0
  let context = null
  let snapshotBytes = 0
  const pending = new Map()
  ws.onmessage = (e) => {
    const m = JSON.parse(String(e.data))
    if (m.method === 'Runtime.executionContextCreated') context ??= m.params.context.id
    else if (m.method === 'HeapProfiler.addHeapSnapshotChunk') snapshotBytes += m.params.chunk.length
    // workerd answers a snapshot request with the request echoed back (its id, no result).
    else if (m.id !== undefined) pending.get(m.id)?.(m)
  }
  const call = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const i = ++id
      const timer = setTimeout(() => reject(new Error(`inspector: ${method} timed out`)), 120_000)
      pending.set(i, (m) => {
        clearTimeout(timer)
        pending.delete(i)
        if (m.error) reject(new Error(`inspector: ${method}: ${m.error.message}`))
        else resolve(m.result)
      })
      ws.send(JSON.stringify({ id: i, method, params }))
    })
  try {
    await call('Runtime.enable')
    await call('HeapProfiler.enable')
    await call('HeapProfiler.takeHeapSnapshot', { reportProgress: false, captureNumericValue: false })
    const usage = await call('Runtime.getHeapUsage')
    const evaluated = await call('Runtime.evaluate', {
      expression: "JSON.stringify(globalThis[Symbol.for('memo.table')]?.() ?? null)",
      returnByValue: true,
      ...(context !== null ? { contextId: context } : {}),
    })
    return {
      usedBytes: usage.usedSize,
      totalBytes: usage.totalSize,
      embedderBytes: usage.embedderHeapUsedSize,
      snapshotBytes,
      memos: JSON.parse(evaluated.result.value ?? 'null'),
    }
  } finally {
    ws.close()
  }
}

/**
 * Seeds `state` (wiped first) with the demo catalogue at `scale` inside workerd; returns what was
 * written ({products, variants, statements, sqlBytes, urlMappings, ms}). The seed worker writes
 * for about ten seconds per request, so a long seed is many short requests; progress is logged
 * every 30 s.
 */
export async function seedState(
  state,
  scale,
  seedOut = path.join(root, '.tmp/bench/seed-worker.js'),
  { urlMappings = true } = {},
) {
  rmSync(state, { recursive: true, force: true })
  const seeder = await startWorker({ cache: false, state, script: seedOut, port: 0 })
  try {
    const call = async (url, init) => {
      const res = await fetch(url, { method: 'POST', ...init })
      if (!res.ok) throw new Error(`seeding failed: ${res.status} ${await res.text()}`)
      return res.json()
    }
    let progress = await call(`${seeder.url}/seed?scale=${scale}${urlMappings ? '' : '&kv=0'}`, {
      body: JSON.stringify(migrationStatements),
    })
    let logged = Date.now()
    while (!progress.done) {
      if (Date.now() - logged > 30_000) {
        logged = Date.now()
        log(`  seeding: ${progress.products} products written (${Math.round(progress.ms / 1000)} s)`)
      }
      progress = await call(`${seeder.url}/seed/continue`)
    }
    const { done: _done, ...counts } = progress
    writeFileSync(path.join(state, MIGRATIONS_STAMP), migrationFiles.join('\n'))
    return counts
  } finally {
    await seeder.mf.dispose()
  }
}

/** The file in a seeded state naming the migrations it was seeded with. */
const MIGRATIONS_STAMP = 'migrations.txt'

/**
 * Why a seeded state kept from an earlier run cannot be reused, or null when it can: it is missing,
 * or it was seeded with other migrations than this checkout's (an index added since is not in it,
 * and what is measured on it is not what this code does).
 */
export function staleState(state) {
  const stamp = path.join(state, MIGRATIONS_STAMP)
  if (!existsSync(stamp)) return existsSync(state) ? 'it names no migrations' : 'it is missing'
  return readFileSync(stamp, 'utf8') === migrationFiles.join('\n')
    ? null
    : 'it was seeded with other migrations'
}

/** Copies a seeded state for another workerd process (SQLite files are not shared). */
export function copyState(from, to) {
  rmSync(to, { recursive: true, force: true })
  cpSync(from, to, { recursive: true })
}

/**
 * A signed-in shopper's request headers: a customer registered and signed in, whose cart creation
 * (a write) gives the D1 bookmark their browser then sends with every page, with the currency
 * cookie a shopper who chose one carries.
 */
export async function signedInShopper(base) {
  const post = async (p, body, bearer) => {
    const res = await fetch(`${base}/api${p}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      },
      body: JSON.stringify(body),
    })
    const json = await res.json()
    if (res.status !== 200) throw new Error(`${p} answered ${res.status}: ${JSON.stringify(json)}`)
    return { json, headers: res.headers }
  }
  const email = `bench-${Date.now()}@example.com`
  const password = 'Bench-secret-123'
  await post('/user/create', { customer: { email, firstname: 'Asha', lastname: 'Rao' }, password })
  const login = await post('/user/login', { username: email, password })
  const cart = await post('/cart/create', {}, login.json.result)
  const bookmark = cart.headers.get('x-d1-bookmark')
  return { cookie: [bookmark ? `d1b=${bookmark}` : '', 'currency=INR'].filter(Boolean).join('; ') }
}

/**
 * The pages the runs measure, picked from the seeded catalogue: the category with the most listed
 * products (not the root) and a configurable product of it (with its document).
 */
export async function benchPages(d1) {
  const category = await d1
    .prepare(
      `SELECT c.id, c.slug, COUNT(*) AS n FROM categories c JOIN products p
         ON EXISTS (SELECT 1 FROM json_each(p.doc, '$.category_ids') j WHERE j.value = c.id)
       WHERE c.id <> 2 AND p.visibility IN (2,3,4) AND p.status IN (0,1)
       GROUP BY c.id ORDER BY n DESC LIMIT 1`,
    )
    .first()
  const product = await d1
    .prepare(
      `SELECT sku, slug, doc FROM products p WHERE type_id = 'configurable' AND status = 1 AND visibility = 4
         AND EXISTS (SELECT 1 FROM json_each(p.doc, '$.category_ids') j WHERE j.value = ?) LIMIT 1`,
    )
    .bind(category.id)
    .first()
  // The search row's query: the product name's last word with two letters swapped (a misspelling
  // the page corrects), or the word itself when it is short.
  const word = JSON.parse(product.doc).name.split(' ').pop().toLowerCase()
  const search = word.length > 4 ? word.slice(0, 2) + word[3] + word[2] + word.slice(4) : word
  return { category, product, search }
}

/**
 * The pages the browser-side measurements load, as [name, path] (`npm run lighthouse`,
 * tests/bench/main-thread.mjs): home, a category of 21 tiles, a configurable product with custom
 * options, cart and checkout, in a worker seeded with the 300-product catalogue.
 */
export async function auditPages(server) {
  const db = await server.mf.getD1Database('DB')
  const cat = await db.prepare('SELECT slug FROM categories WHERE id = 190').first()
  const prod = await db
    .prepare(
      "SELECT sku, slug FROM products WHERE type_id = 'configurable' AND status = 1 AND visibility = 4 LIMIT 1",
    )
    .first()
  return [
    ['home', '/'],
    ['category', `/c/${cat.slug}`],
    ['product', `/p/${encodeURIComponent(prod.sku)}/${prod.slug}`],
    ['cart', '/cart'],
    ['checkout', '/checkout'],
  ]
}
