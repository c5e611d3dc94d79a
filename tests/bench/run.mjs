#!/usr/bin/env node
// `npm run bench`: the storefront measured the same way every time.
//  1. Builds the production client and worker bundles (`wrangler deploy --dry-run --minify`).
//  2. Starts the worker in workerd through the Miniflare API (not `wrangler dev`, whose proxy hop
//     costs 3–8×) with in-memory D1/KV seeded with the demo catalogue, once per catalogue scale.
//  3. Drives it with autocannon from this machine (1 s of warm-up per URL and state, not measured)
//     and prints one table per scale: req/s, p50, p99
//     for a static asset, home, category, category with two filters, a configurable product,
//     search, an AMP product, a signed-in shopper's category and product, and one small D1 read
//     through the API (the ceiling of any page that reads the database), in three states — cache
//     miss (embedded D1), cache hit, and via the upstream proxy (a second worker as the
//     vue-storefront-api) — with each row's ratio to the static asset. The table is measured
//     --rounds times (the static asset measured before the first row and after every row, each
//     row's ratio to the mean of the two static figures either side of it); each figure is the
//     median of the rounds, and each ratio is printed with the rounds' lowest and highest.
//  4. Measures the streamed shell's time to first byte with a 1 s deferred section, the
//     single-request latency of a category miss and of the static asset (their difference bounds
//     the category render time), and the worker bundle size.
//  5. Builds the largest catalogue search the engine accepts (every request limit at once, as
//     many clauses as fit the compiled-statement limit) and prints its compile time (the search
//     compiler bundled for Node, the seeded vocabulary), its SQL size, and its answer time per scale.
//  6. Cold after an import: one product's colour changes the way the importer writes it (document,
//     index rows, the persisted facet postings rebuilt, the version bumped), then one category
//     request is timed; the median of --cold-runs such requests, as a ratio to the steady state.
//     The same for the home page: its first request after each import against its steady state.
//  7. The worker isolate's V8 heap after the warm runs, measured through the inspector (a full
//     garbage collection first), next to each memo's own byte accounting.
// Writes bench-results/bench.json. Options: --scales 300,10000,100000 --duration 3 --connections 10
// --cold-runs 10 --rows category,search (a subset of the throughput rows; the static asset is always
// measured) --settle-ms N (also time cold runs N ms after the write) --second-request (also time
// the second request after an import) --states miss,hit,upstream (the columns measured) --quick (the
// throughput table only: no cold runs, largest search, heap or streaming measurement) --seeded DIR
// (copy DIR/state-SCALE, a state an earlier run seeded, instead of seeding again: two heads compared
// alternately then read the same catalogue) --rounds 3 (the throughput table's rounds).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import autocannon from 'autocannon'
import { build } from 'esbuild'
import { parseArgs } from '../../scripts/lib.mjs'
import { nestedChain } from '../helpers/nested-search.mjs'
import {
  benchPages,
  buildFixtureWorker,
  buildProduction,
  copyState,
  log,
  root,
  seedState,
  signedInShopper,
  staleState,
  startWorker,
} from '../helpers/workerd.mjs'

const o = parseArgs(
  `
usage: npm run bench -- [--scales 300,10000] [--duration 3] [--connections 10] [--cold-runs 10]
  [--rows category,search] [--settle-ms N] [--second-request] [--states miss,hit,upstream] [--quick]
  [--seeded DIR] [--rounds 3]
The storefront's throughput, latency, cold-after-import and heap figures (see the top of
tests/bench/run.mjs for what each option does).`,
  {
    flags: ['--second-request', '--quick'],
    options: [
      '--scales',
      '--duration',
      '--connections',
      '--cold-runs',
      '--rows',
      '--settle-ms',
      '--states',
      '--seeded',
      '--rounds',
    ],
    positionals: 0,
  },
)
const SCALES = (o.scales ?? '300,10000').split(',').map(Number)
const DURATION = Number(o.duration ?? '3')
const ROUNDS = Number(o.rounds ?? '3')
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error('--rounds: a whole number, 1 or more')
const CONNECTIONS = Number(o.connections ?? '10')
const COLD_RUNS = Number(o.coldRuns ?? '10')
const ROWS = (o.rows ?? '').split(',').filter(Boolean)
const SETTLE_MS = Number(o.settleMs ?? '0')
const SECOND_REQUEST = o.secondRequest
const STATES = (o.states ?? 'miss,hit,upstream').split(',')
const QUICK = o.quick
const SEEDED = o.seeded ?? ''
const { bundle, manifest } = await buildProduction()
// A fixture worker for the streaming measurement: the real renderPage with a 1 s deferred section.
const slowOut = await buildFixtureWorker(
  'tests/bench/slow-worker.tsx',
  path.join(root, '.tmp/bench/slow-worker.js'),
)

// The search compiler for Node (pure code: the DSL parser and the SQL compiler).
const compilerOut = path.join(root, '.tmp/bench/search-compiler.mjs')
await build({
  stdin: {
    contents: `export { MAX_QUERY_CLAUSES, MAX_QUERY_DEPTH, MAX_QUERY_VALUES,
      MAX_TERMS_VALUES, MAX_TEXT_CLAUSES, MAX_MULTI_MATCH_FIELDS, MAX_AGGREGATIONS, MAX_RANGE_BUCKETS,
      MAX_TERMS_AGG_SIZE, MAX_SORT_FIELDS, SearchError } from '../../worker/search/dsl'
    export { parseAggs } from '../../worker/search/request/parse-aggs'
    export { parseQuery } from '../../worker/search/request/parse-query'
    export { parseSort } from '../../worker/search/request/parse-sort'
    export { compileProductSearch } from '../../worker/search/sql/compile-sql'
    export { facetPostingsStatements, indexProductStatements, bumpIndexVersionStatement } from '../../worker/search'
    export { MAX_SQL_BYTES } from '../../worker/search/sql/sql-expr'
    export { estimateSearchCost, withinSearchBudget } from '../../worker/search/request/cost'`,
    resolveDir: path.join(root, 'tests/bench'),
    loader: 'ts',
  },
  bundle: true,
  format: 'esm',
  platform: 'node',
  logLevel: 'warning',
  outfile: compilerOut,
})
const search = await import(compilerOut)

/**
 * The largest search the engine accepts: depth at the limit (alternating function_score with
 * min_score and bool.should), every terms value allowed, the most full-text clauses over the most
 * fields, the most aggregations (terms at the largest size, the most range buckets, min, max), the
 * most sort fields, and as many further should clauses as the compiled-statement limit lets in.
 */
function largestSearch(wide, narrow = 0) {
  const ids = (n, from) => Array.from({ length: n }, (_, i) => from + i)
  // Narrowing steps, for a catalogue where even the narrowest `wide` is over the cost budget: each
  // step keeps the previous ones (fewer sort fields, range buckets, terms aggregations, full-text
  // clauses and fields, then a shallower nesting).
  const depth = narrow >= 5 ? Math.max(2, search.MAX_QUERY_DEPTH - 2 * (narrow - 4)) : search.MAX_QUERY_DEPTH
  const chain = nestedChain(depth)
  const perList = search.MAX_TERMS_VALUES
  // Every terms value the query may hold: the chain's, visibility's, three lists at the per-clause
  // limit, and the rest in a fourth list.
  const chainValues = 2 + Math.floor((depth - 2) / 2)
  const values = search.MAX_QUERY_VALUES - chainValues - 3 - 3 * perList
  const textFields = ['name^4', 'sku^2', 'category.name', 'description', 'color', 'size', 'designer']
  const fields = [
    ...textFields,
    ...ids(search.MAX_MULTI_MATCH_FIELDS - textFields.length, 1).map((i) => `attr_${i}`),
  ]
  const leaves = [
    (i) => ({ range: { price: { gte: i * 10, lt: i * 10 + 500 } } }),
    (i) => ({ exists: { field: `attr_${i}` } }),
    (i) => ({ range: { created_at: { gte: `2026-01-${String(1 + (i % 28)).padStart(2, '0')}` } } }),
  ]
  const termsAggs = narrow >= 3 ? 5 : search.MAX_AGGREGATIONS - 3
  const textClauses = narrow >= 4 ? 1 : search.MAX_TEXT_CLAUSES
  const matchFields = narrow >= 4 ? fields.slice(0, 3) : fields
  return {
    query: {
      bool: {
        filter: [
          { terms: { category_ids: ids(perList, 1) } },
          { terms: { visibility: [2, 3, 4] } },
          {
            bool: {
              should: [
                { terms: { 'configurable_children.sku': ids(perList, 1).map((i) => `CHILD-${i}`) } },
                { terms: { sku: ids(perList, 1).map((i) => `SKU-${i}`) } },
                { terms: { id: ids(values, 1) } },
                { range: { price: { gte: 0 } } },
              ],
            },
          },
        ],
        must: [chain],
        should: [
          ...ids(textClauses, 1).map((k) => ({
            multi_match: {
              query: 'silk saree with zari border',
              fields: matchFields,
              fuzziness: 'AUTO',
              tie_breaker: 0.3,
              boost: k,
            },
          })),
          ...ids(wide, 0).map((i) => leaves[i % leaves.length](i)),
        ],
        minimum_should_match: 2,
      },
    },
    aggs: {
      ...Object.fromEntries(
        ids(termsAggs, 0).map((i) => [
          `agg_terms_${i}`,
          { terms: { field: i === 0 ? 'color' : `attr_${i}`, size: search.MAX_TERMS_AGG_SIZE } },
        ]),
      ),
      agg_range_price: {
        range: {
          field: 'price',
          ranges: ids(narrow >= 2 ? 10 : search.MAX_RANGE_BUCKETS, 0).map((i) => ({
            from: i * 500,
            to: i * 500 + 1000,
          })),
        },
      },
      agg_min_price: { min: { field: 'final_price' } },
      agg_max_price: { max: { field: 'final_price' } },
    },
    sort: ['_score', { final_price: 'desc' }, 'position', 'name', { type_id: 'asc' }].slice(
      0,
      narrow >= 1 ? 2 : search.MAX_SORT_FIELDS,
    ),
    size: 24,
    min_score: 0.02,
  }
}

/** Parses and compiles a search like the engine does (every request limit is checked here). */
function compileSearch(body, vocab) {
  const plan = {
    query: search.parseQuery(body.query),
    aggs: search.parseAggs(body.aggs),
    sort: search.parseSort(body.sort),
    from: 0,
    size: body.size,
    minScore: body.min_score,
  }
  const fields = [...new Set(plan.aggs.filter((a) => a.kind === 'terms').map((a) => a.field))]
  return search.compileProductSearch(plan, vocab, { js: [], load: fields }, { fullOrder: 10000 })
}

/**
 * The widest variant the engine accepts on a catalogue of `products`: it compiles (more clauses
 * than fit are rejected with a 400 naming the limit) and its estimated work is within the search
 * cost budget (over it, a 400 saying what to narrow). The widest of all when `products` is 0.
 */
function largestAccepted(vocab, products = 0) {
  for (let narrow = 0; narrow <= 9; narrow++) {
    for (let wide = search.MAX_QUERY_CLAUSES; wide >= 0; wide--) {
      const body = largestSearch(wide, narrow)
      let compiled
      try {
        compiled = compileSearch(body, vocab)
      } catch (err) {
        if (!(err instanceof search.SearchError)) throw err
        continue
      }
      const plan = {
        query: search.parseQuery(body.query),
        aggs: search.parseAggs(body.aggs),
        sort: search.parseSort(body.sort),
      }
      const units = search.estimateSearchCost(plan).perProduct
      if (products > 0 && !search.withinSearchBudget(units, products)) continue
      if (narrow > 0 || products > 0)
        log(
          `largest search accepted at ${products} products: ${wide} extra should clauses, narrowing step ${narrow}, ${units} units a product (${Math.round(units * products)} in all)`,
        )
      return { body, wide, compiled }
    }
  }
  throw new Error('no variant of the largest search compiles within the cost budget')
}

/**
 * Compile time with cold typo-expansion caches (p50 of 5, each on a fresh copy of the vocabulary)
 * and warm (p50 of 50 after 10 warm-up runs), SQL bytes and bound parameters.
 */
function measureCompile(vocab, products) {
  const { body, wide, compiled } = largestAccepted(vocab, products)
  const cold = []
  for (let i = 0; i < 5; i++) {
    const fresh = new Map([...vocab].map(([f, tokens]) => [f, [...tokens]]))
    const t = performance.now()
    compileSearch(body, fresh)
    cold.push(performance.now() - t)
  }
  for (let i = 0; i < 10; i++) compileSearch(body, vocab)
  const xs = []
  for (let i = 0; i < 50; i++) {
    const t = performance.now()
    compileSearch(body, vocab)
    xs.push(performance.now() - t)
  }
  const clauses = JSON.stringify(body.query).match(
    /"(terms|range|exists|multi_match|bool|function_score)":/g,
  ).length
  return {
    body,
    wide,
    clauses,
    requestBytes: JSON.stringify(body).length,
    compileColdP50Ms: +median(cold).toFixed(2),
    compileP50Ms: +median(xs).toFixed(2),
    sqlBytes: Buffer.byteLength(compiled.sql),
    sqlLimitBytes: search.MAX_SQL_BYTES,
    boundParams: compiled.params.length,
  }
}

/** A column left out by --states. */
const NOT_MEASURED = { rps: 0, p50: 0, p99: 0, errors: 0 }

function cannon(url, connections = CONNECTIONS, duration = DURATION, headers = {}) {
  return new Promise((resolve, reject) => {
    autocannon(
      { url, connections, duration, headers: { accept: 'text/html', ...BROWSER, ...headers } },
      (err, r) => {
        if (err) return reject(err)
        resolve({
          rps: Math.round(r.requests.average),
          p50: r.latency.p50,
          p99: r.latency.p99,
          errors: r.errors + r.timeouts + (r.non2xx ?? 0),
        })
      },
    )
  })
}

// A browser's user agent (bots get the complete document) and no compression: workerd's local
// gzip buffers a small streamed body until it ends, which Cloudflare's edge does not do.
const BROWSER = {
  'user-agent':
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36',
  'accept-encoding': 'identity',
}

async function ttfb(url) {
  const t0 = performance.now()
  const res = await fetch(url, { headers: BROWSER })
  const reader = res.body.getReader()
  await reader.read()
  const first = performance.now() - t0
  while (!(await reader.read()).done) {}
  return { firstByteMs: first, totalMs: performance.now() - t0 }
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]
}

// ---------------------------------------------------------------------------------------------
const results = {
  date: new Date().toISOString(),
  duration: DURATION,
  connections: CONNECTIONS,
  bundle,
  scales: {},
}

for (const scale of SCALES) {
  log(`\nscale ${scale}: seeding…`)
  const t0 = Date.now()
  const state = path.join(root, `.tmp/bench/state-${scale}`)
  // Above 10,000 products the KV URL mappings are left out (local KV writes them at minutes per
  // 100,000): no measured row goes through the URL dispatcher; pages are read from D1.
  const kept = SEEDED ? path.join(SEEDED, `state-${scale}`) : ''
  let seeded
  if (kept && existsSync(`${kept}.json`) && !staleState(kept)) {
    // `--seeded .tmp/bench` names this run's own state: it is used where it is.
    if (path.resolve(kept) !== state) copyState(kept, state)
    seeded = JSON.parse(readFileSync(`${kept}.json`, 'utf8'))
  } else {
    seeded = await seedState(state, scale, undefined, { urlMappings: scale <= 10_000 })
    writeFileSync(`${state}.json`, JSON.stringify(seeded))
  }
  // Each workerd process gets its own copy of the seeded state (SQLite files are not shared).
  const cacheState = `${state}-cache`
  copyState(state, cacheState)
  log(
    `  ${seeded.products} products / ${seeded.variants} variants seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  )
  const backend = await startWorker({ cache: false, state, inspect: true })
  const d1 = await backend.mf.getD1Database('DB')

  // Pick the URLs from the seeded data.
  const { category: bigCat, product: conf, search: typo } = await benchPages(d1)
  const doc = JSON.parse(conf.doc)
  const color = doc.color_options?.[0] ?? doc.configurable_children?.[0]?.color
  const size = doc.size_options?.[0] ?? doc.configurable_children?.[0]?.size
  const variantSku = doc.configurable_children?.[0]?.sku ?? conf.sku
  const shopper = await signedInShopper(backend.url)
  const allRows = [
    ['static asset', manifest.entries.home.file],
    ['home', '/'],
    ['category', `/c/${bigCat.slug}`],
    ['category, 2 filters', `/c/${bigCat.slug}?color=${color}&size=${size}`],
    ['product (configurable)', `/p/${encodeURIComponent(conf.sku)}/${conf.slug}`],
    ['search', `/search?q=${encodeURIComponent(typo)}`],
    ['AMP product', `/amp/p/${encodeURIComponent(conf.sku)}/${conf.slug}`],
    // A signed-in shopper after a write of theirs: the pages read through the D1 session their
    // bookmark starts, and answer with the shopper's cookies (never stored: every state renders).
    ['category, signed in', `/c/${bigCat.slug}`, shopper],
    ['product, signed in', `/p/${encodeURIComponent(conf.sku)}/${conf.slug}`, shopper],
    // The ceiling of any page that reads D1: one API answer from one small D1 read, the stock of a
    // variant (a parent's sku would take a second read, for its variants).
    ['one D1 read (stock API)', `/api/stock/check?sku=${encodeURIComponent(variantSku)}`],
  ]
  const rows = allRows.filter(
    ([name], i) => i === 0 || ROWS.length === 0 || ROWS.some((r) => name.startsWith(r)),
  )

  // Every URL must answer 200 before it is measured.
  for (const [name, p, headers] of rows) {
    const res = await fetch(backend.url + p, { headers })
    if (res.status !== 200) throw new Error(`${name} ${p} answered ${res.status}`)
    await res.arrayBuffer()
  }

  const cached = await startWorker({ cache: true, state: cacheState })
  const upState = `${state}-upstream`
  let proxied = null
  if (STATES.includes('upstream')) {
    await seedState(upState, 1)
    proxied = await startWorker({ cache: false, upstream: backend.url, state: upState })
  }
  for (const [, p, headers] of rows) await (await fetch(cached.url + p, { headers })).arrayBuffer()

  // The throughput table is measured in ROUNDS rounds. In each round the static asset is measured
  // before the first row and again after every row, and each row's ratio is to the mean of the two
  // static measurements either side of it: a change in the machine's speed during the round moves
  // the numerator and its denominator alike (with one static figure a round, the later rows' ratios
  // drifted with the machine: the same page read 0.22 in one round and 0.32 in the next). Each
  // figure printed is the median of the rounds (the rounds' ratios are kept in bench.json); errors
  // are summed.
  const rounds = []
  // One second of warm-up per URL and state before its first measurement (JIT, per-isolate
  // caches), not measured.
  const warmed = new Set()
  const measure = async (url, headers) => {
    const key = `${url} ${JSON.stringify(headers ?? {})}`
    if (!warmed.has(key)) await cannon(url, CONNECTIONS, 1, headers)
    warmed.add(key)
    return cannon(url, CONNECTIONS, DURATION, headers)
  }
  for (let round = 0; round < ROUNDS; round++) {
    const [, staticPath, staticHeaders] = rows[0]
    const states = async (p, headers) => ({
      miss: await measure(backend.url + p, headers),
      hit: STATES.includes('hit') ? await measure(cached.url + p, headers) : { ...NOT_MEASURED },
      upstream: proxied ? await measure(proxied.url + p, headers) : { ...NOT_MEASURED },
    })
    log(`  round ${round + 1} of ${ROUNDS}: measuring ${rows[0][0]}…`)
    // The miss is always measured (the static asset's miss row is every ratio's denominator).
    const first = await states(staticPath, staticHeaders)
    let before = first.miss
    const statics = [before]
    const measured = [first]
    for (const [name, p, headers] of rows.slice(1)) {
      log(`  round ${round + 1} of ${ROUNDS}: measuring ${name}…`)
      const row = await states(p, headers)
      const after = await measure(backend.url + staticPath, staticHeaders)
      statics.push(after)
      const staticRps = (before.rps + after.rps) / 2
      for (const m of Object.values(row)) m.ratio = staticRps ? m.rps / staticRps : 0
      measured.push(row)
      before = after
    }
    // The static row: its miss is the median of the round's static measurements; its other
    // states are to the first of them.
    for (const m of Object.values(first)) m.ratio = first.miss.rps ? m.rps / first.miss.rps : 0
    first.miss = {
      rps: median(statics.map((x) => x.rps)),
      p50: median(statics.map((x) => x.p50)),
      p99: median(statics.map((x) => x.p99)),
      errors: statics.reduce((sum, x) => sum + x.errors, 0),
      ratio: 1,
    }
    rounds.push(measured)
  }
  const table = rows.map(([name, p], i) => {
    const row = { name, path: p }
    for (const state of ['miss', 'hit', 'upstream']) {
      const xs = rounds.map((measured) => measured[i][state])
      row[state] = {
        rps: median(xs.map((x) => x.rps)),
        p50: median(xs.map((x) => x.p50)),
        p99: median(xs.map((x) => x.p99)),
        errors: xs.reduce((sum, x) => sum + x.errors, 0),
        ratio: +median(xs.map((x) => x.ratio)).toFixed(3),
        ratios: xs.map((x) => +x.ratio.toFixed(3)),
      }
    }
    return row
  })
  if (QUICK) {
    results.scales[scale] = { products: seeded.products, variants: seeded.variants, rows: table }
    await Promise.all([backend.mf.dispose(), cached.mf.dispose(), proxied?.mf.dispose()])
    continue
  }
  // One request at a time on an idle worker: a category miss and the static asset. Their
  // difference is the category's render + D1 time without the HTTP hop — an upper bound of its
  // render CPU time (workerd does not report CPU time per request locally).
  const oneAtATime = async (p, base = backend.url) => {
    const xs = []
    for (let i = 0; i < 40; i++) {
      const t = performance.now()
      await (await fetch(base + p, { headers: BROWSER })).arrayBuffer()
      xs.push(performance.now() - t)
    }
    return +median(xs).toFixed(2)
  }
  const categorySingle = await oneAtATime(`/c/${bigCat.slug}`)
  const staticSingle = await oneAtATime(manifest.entries.home.file)
  const hitSingle = await oneAtATime(`/c/${bigCat.slug}`, cached.url)
  // The isolate's heap after the warm runs (every row measured, then the single requests).
  const heap = await backend.heap()
  // Cold after an import: the importer's write of one product whose colour changes (document, index
  // rows, facet postings rebuilt, version bumped), then one category request on the next version.
  const target = await d1
    .prepare(
      `SELECT p.id, p.doc FROM products p WHERE p.visibility IN (2,3,4) AND p.status IN (0,1)
         AND EXISTS (SELECT 1 FROM json_each(p.doc, '$.category_ids') j WHERE j.value = ?) LIMIT 1`,
    )
    .bind(bigCat.id)
    .first()
  const original = JSON.parse(target.doc)
  // The importer's write of one product: the document and its index rows, each build, then the
  // version bump, one statement after another with the bump last (the same end state as one batch;
  // one batch of all of them outlives a local D1 request at 100,000 products).
  const importWrite = async (doc, { bump = true } = {}) => {
    await d1.batch([
      d1.prepare('UPDATE products SET doc = ?1 WHERE id = ?2').bind(JSON.stringify(doc), doc.id),
      ...search.indexProductStatements(d1, doc),
    ])
    for (const st of search.facetPostingsStatements(d1)) await d1.batch([st])
    if (bump) await d1.batch([search.bumpIndexVersionStatement(d1)])
  }
  // Each cold run is paired with one that writes the same rows without the version bump: every
  // per-isolate cache stays valid, so its time is the database's own after a write (what no cache
  // can save), measured interleaved with the cold runs.
  const cold = []
  const afterWriteOnly = []
  // And with --settle-ms N, two more per round: a cold run (the bump) and a write-only run, each timed
  // N ms after the write returned (does the difference last, or is it the write still settling?).
  const settled = []
  const settledWriteOnly = []
  // And with --second-request, one more: the second category request after an import (the first untimed).
  const secondRequest = []
  const importWrites = []
  const timedCategory = async () => {
    const t = performance.now()
    await (await fetch(`${backend.url}/c/${bigCat.slug}`, { headers: BROWSER })).arrayBuffer()
    return performance.now() - t
  }
  let writes = 0
  for (let i = 0; i < COLD_RUNS; i++) {
    const kinds = ['cold', 'write only']
    if (SETTLE_MS > 0) kinds.push('settled', 'settled write only')
    if (SECOND_REQUEST) kinds.push('second')
    for (const kind of kinds) {
      const doc =
        writes++ % 2 === 0
          ? { ...original, color_options: [...(original.color_options ?? []), 999_001 + i] }
          : original
      const w = performance.now()
      const writeOnly = kind.endsWith('write only')
      await importWrite(doc, { bump: !writeOnly })
      if (!writeOnly) importWrites.push(performance.now() - w)
      if (kind.startsWith('settled')) await new Promise((r) => setTimeout(r, SETTLE_MS))
      if (kind === 'second') await timedCategory()
      const ms = await timedCategory()
      const into = {
        cold,
        'write only': afterWriteOnly,
        settled,
        'settled write only': settledWriteOnly,
        second: secondRequest,
      }[kind]
      into.push(ms)
    }
  }
  if (writes % 2 === 1) await importWrite(original)
  // The home page the same way: one request at a time in the steady state, then the first home
  // request after each of --cold-runs imports (the version moved: every page of stock, tile and
  // tile markup the isolate kept is worked out again).
  const homeSingle = await oneAtATime('/')
  const homeCold = []
  for (let i = 0; i < COLD_RUNS; i++) {
    await importWrite(
      i % 2 === 0
        ? { ...original, color_options: [...(original.color_options ?? []), 999_101 + i] }
        : original,
    )
    const t = performance.now()
    await (await fetch(`${backend.url}/`, { headers: BROWSER })).arrayBuffer()
    homeCold.push(performance.now() - t)
  }
  if (COLD_RUNS % 2 === 1) await importWrite(original)
  log(
    `  home one at a time, p50: ${homeSingle} ms; the first home request after an import: ${homeCold.map((x) => x.toFixed(1)).join(', ')} (median ${median(homeCold).toFixed(2)}, ${(median(homeCold) / homeSingle).toFixed(2)}×)`,
  )
  const coldSingle = +median(cold).toFixed(2)
  log(
    `  cold runs (ms): ${cold.map((x) => x.toFixed(1)).join(', ')}; after the same write without a version bump (every cache valid): ${afterWriteOnly.map((x) => x.toFixed(1)).join(', ')} (median ${median(afterWriteOnly).toFixed(2)}, ${(median(afterWriteOnly) / categorySingle).toFixed(2)}×)${
      SETTLE_MS > 0
        ? `; ${SETTLE_MS} ms after the write: cold ${settled.map((x) => x.toFixed(1)).join(', ')} (median ${median(settled).toFixed(2)}, ${(median(settled) / categorySingle).toFixed(2)}×), write only ${settledWriteOnly.map((x) => x.toFixed(1)).join(', ')} (median ${median(settledWriteOnly).toFixed(2)}, ${(median(settledWriteOnly) / categorySingle).toFixed(2)}×)`
        : ''
    }${
      SECOND_REQUEST
        ? `; the second request after an import: ${secondRequest.map((x) => x.toFixed(1)).join(', ')} (median ${median(secondRequest).toFixed(2)}, ${(median(secondRequest) / categorySingle).toFixed(2)}×)`
        : ''
    }`,
  )
  // The largest accepted search: compiled in Node with this catalogue's vocabulary, then answered
  // by the worker (min_score nudged per run so no cached result set answers it).
  const { results: tokens } = await d1.prepare('SELECT DISTINCT field, token FROM search_tokens').all()
  const vocab = new Map()
  for (const r of tokens) vocab.set(r.field, [...(vocab.get(r.field) ?? []), r.token])
  const idleFrom = performance.now()
  const largest = measureCompile(vocab, seeded.products)
  log(`  compiled the largest search in Node for ${((performance.now() - idleFrom) / 1000).toFixed(1)} s`)
  const answers = []
  for (let i = 0; i < 5; i++) {
    const body = { ...largest.body, min_score: largest.body.min_score + i / 1000 }
    const post = () =>
      fetch(`${backend.url}/api/catalog/vue_storefront_catalog/product/_search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    const t = performance.now()
    // The keep-alive connection sat idle while the search compiled above, and workerd may have
    // closed it: a request that finds it closed is sent again, on a new one.
    const res = await post().catch(async (err) => {
      if (err?.cause?.code !== 'UND_ERR_SOCKET') throw err
      log(`  the idle connection was closed (${err.cause.message}); sent again`)
      return post()
    })
    const text = await res.text()
    if (res.status !== 200)
      throw new Error(`the largest accepted search answered ${res.status}: ${text.slice(0, 300)}`)
    answers.push(performance.now() - t)
  }
  const { body: _largestBody, ...largestFigures } = largest
  results.scales[scale] = {
    largestSearch: { ...largestFigures, answerP50Ms: +median(answers).toFixed(1) },
    products: seeded.products,
    variants: seeded.variants,
    rows: table,
    categoryMissSingleRequestP50Ms: categorySingle,
    staticSingleRequestP50Ms: staticSingle,
    categoryRenderUpperBoundMs: +(categorySingle - staticSingle).toFixed(2),
    categoryMissColdSingleRequestP50Ms: coldSingle,
    homeMissSingleRequestP50Ms: homeSingle,
    homeMissColdSingleRequestP50Ms: +median(homeCold).toFixed(2),
    categoryHitSingleRequestP50Ms: hitSingle,
    coldToSteady: +(coldSingle / categorySingle).toFixed(2),
    coldRunsMs: cold.map((x) => +x.toFixed(2)),
    afterWriteWithoutBumpRunsMs: afterWriteOnly.map((x) => +x.toFixed(2)),
    settledColdRunsMs: settled.map((x) => +x.toFixed(2)),
    settledWriteOnlyRunsMs: settledWriteOnly.map((x) => +x.toFixed(2)),
    secondRequestRunsMs: secondRequest.map((x) => +x.toFixed(2)),
    importWriteP50Ms: +median(importWrites).toFixed(1),
    heap: {
      usedBytes: heap.usedBytes,
      totalBytes: heap.totalBytes,
      memoBytes: (heap.memos ?? []).reduce((n, m) => n + m.bytes, 0),
      memoBudgetBytes: (heap.memos ?? []).reduce((n, m) => n + m.maxBytes, 0),
      memos: heap.memos,
    },
  }
  await Promise.all([backend.mf.dispose(), cached.mf.dispose(), proxied?.mf.dispose()])
}

// Streaming: first byte vs the 1 s deferred section.
if (!QUICK) {
  const slow = await startWorker({
    cache: false,
    state: path.join(root, '.tmp/bench/state-slow'),
    script: slowOut,
  })
  const samples = []
  for (let i = 0; i < 5; i++) samples.push(await ttfb(`${slow.url}/slow`))
  await slow.mf.dispose()
  results.streaming = {
    deferredMs: 1000,
    firstByteP50Ms: +median(samples.map((s) => s.firstByteMs)).toFixed(1),
    completeP50Ms: +median(samples.map((s) => s.totalMs)).toFixed(1),
  }
}

// ---------------------------------------------------------------------------------------------
for (const [scale, r] of Object.entries(results.scales)) {
  console.log(
    `\n## ${r.products} products / ${r.variants} variants (scale ${scale}), ${CONNECTIONS} connections, ${DURATION} s each, median of ${ROUNDS} rounds`,
  )
  console.log(
    '| row | miss req/s | p50 ms | p99 ms | ×static | hit req/s | p50 | p99 | ×static | upstream req/s | p50 | p99 | ×static |',
  )
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
  for (const row of r.rows) {
    const cells = ['miss', 'hit', 'upstream'].map((k) => {
      const s = row[k]
      // A column --states left out.
      if (k !== 'miss' && !STATES.includes(k)) return '— | — | — | —'
      // The median ratio, and the rounds' lowest and highest.
      const spread =
        s.ratios.length > 1
          ? ` (${Math.min(...s.ratios).toFixed(2)}–${Math.max(...s.ratios).toFixed(2)})`
          : ''
      return `${s.rps} | ${s.p50} | ${s.p99} | ${s.ratio.toFixed(2)}${spread}`
    })
    console.log(`| ${row.name} | ${cells.join(' | ')} |`)
    if (row.miss.errors || row.hit.errors || row.upstream.errors)
      console.log(
        `|   errors: miss ${row.miss.errors}, hit ${row.hit.errors}, upstream ${row.upstream.errors} |`,
      )
  }
  if (QUICK) continue
  const ls = r.largestSearch
  console.log(
    `largest accepted search (${ls.clauses} clauses, ${(ls.requestBytes / 1024).toFixed(0)} KB request): compiles in ${ls.compileColdP50Ms} ms with cold typo caches, ${ls.compileP50Ms} ms warm (p50) to ${ls.sqlBytes} bytes of SQL (limit ${ls.sqlLimitBytes}) with ${ls.boundParams} bound parameters; answered in ${ls.answerP50Ms} ms (p50 of 5)`,
  )
  console.log(
    `one request at a time, p50: category miss ${r.categoryMissSingleRequestP50Ms} ms, static asset ${r.staticSingleRequestP50Ms} ms → category render + D1 ≤ ${r.categoryRenderUpperBoundMs} ms; category miss after an import (cold search caches) ${r.categoryMissColdSingleRequestP50Ms} ms = ${r.coldToSteady}× the steady state (the import write itself ${r.importWriteP50Ms} ms)`,
  )
}
if (QUICK) {
  mkdirSync(path.join(root, 'bench-results'), { recursive: true })
  writeFileSync(path.join(root, 'bench-results/bench.json'), `${JSON.stringify(results, null, 2)}\n`)
  process.exit(0)
}
// The scale table: one request at a time (ms, p50) and as a multiple of the static asset's time.
const MB = (b) => (b / 1024 / 1024).toFixed(1)
console.log(
  '\n| products | static ms | category miss ms (×static) | hit ms (×static) | cold after import ms (×static, ×miss) | heap after warm-up MB | memos MB (budget) |',
)
console.log('|---:|---:|---:|---:|---:|---:|---:|')
for (const r of Object.values(results.scales)) {
  const x = (ms) => `${ms} (${(ms / r.staticSingleRequestP50Ms).toFixed(1)}×)`
  console.log(
    `| ${r.products.toLocaleString('en')} | ${r.staticSingleRequestP50Ms} | ${x(r.categoryMissSingleRequestP50Ms)} | ${x(r.categoryHitSingleRequestP50Ms)} | ${r.categoryMissColdSingleRequestP50Ms} (${(r.categoryMissColdSingleRequestP50Ms / r.staticSingleRequestP50Ms).toFixed(1)}×, ${r.coldToSteady}×) | ${MB(r.heap.usedBytes)} | ${MB(r.heap.memoBytes)} (${MB(r.heap.memoBudgetBytes)}) |`,
  )
}
for (const [scale, r] of Object.entries(results.scales)) {
  console.log(`\nmemos after warm-up at scale ${scale} (the isolate's own accounting):`)
  for (const m of r.heap.memos ?? [])
    console.log(
      `  ${m.name.padEnd(22)} ${String(m.entries).padStart(6)} entries  ${MB(m.bytes).padStart(6)} of ${MB(m.maxBytes)} MB`,
    )
}
const scaleKeys = Object.keys(results.scales)
if (scaleKeys.length > 1) {
  const first = results.scales[scaleKeys[0]]
  const last = results.scales[scaleKeys[scaleKeys.length - 1]]
  results.categoryScaleRatio = +(last.categoryRenderUpperBoundMs / first.categoryRenderUpperBoundMs).toFixed(
    2,
  )
  const coldRender = (r) => r.categoryMissColdSingleRequestP50Ms - r.staticSingleRequestP50Ms
  results.categoryColdScaleRatio = +(coldRender(last) / coldRender(first)).toFixed(2)
  console.log(
    `category render at ${last.products} vs ${first.products} products: ${results.categoryScaleRatio}× (one request at a time, HTTP hop subtracted); ${results.categoryColdScaleRatio}× with cold search caches`,
  )
}
console.log(
  `\nstreamed shell: first byte p50 ${results.streaming.firstByteP50Ms} ms with a ${results.streaming.deferredMs} ms deferred section (complete ${results.streaming.completeP50Ms} ms)`,
)
console.log(
  `worker bundle: ${(bundle.bytes / 1024).toFixed(0)} KiB, ${(bundle.gzipBytes / 1024).toFixed(0)} KiB gzip`,
)
mkdirSync(path.join(root, 'bench-results'), { recursive: true })
writeFileSync(path.join(root, 'bench-results/bench.json'), `${JSON.stringify(results, null, 2)}\n`)
console.log('wrote bench-results/bench.json')
