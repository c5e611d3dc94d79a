#!/usr/bin/env node
// Catalogue search benchmark: p50/p95 of (1) a category listing with three filters + facets + sort
// and (2) a fuzzy full-text search, on the demo catalogue at --scale configurables (default 10,000,
// ~100,000 variants) in local D1 inside workerd (Miniflare API; no wrangler dev proxy hop). Each
// query is timed three ways from this process over HTTP keep-alive:
//   route   GET /api/catalog/... through the real app (middleware, parsing, engine, JSON)
//   engine  searchCatalog() in-process in the worker (what the Commerce port calls)
//   sql     the bare SQL the engine compiles to, run on the same D1 (prepare/bind/first + JSON)
// The bench worker is this file's inline fixture (bench-only endpoints under /__bench/, never in
// the production bundle). A fourth timing, `engine, new query`, changes the query a little every
// run (a price bound moved by a thousandth), so no cached result set answers it: the statement runs
// and the facets are counted from the facet index each time. Writes bench-results/search.json.
// Options: --scale N --iterations N. Targets (p95, route and new-query engine): listing 30 ms up to
// 10,000 products and 50 ms beyond, fuzzy search 50 ms.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { build } from 'esbuild'
import { Miniflare } from 'miniflare'
import { nestedChain } from '../helpers/nested-search.mjs'
import { COLOUR_PRICE_AGGS, catalogScope, shopListing } from '../helpers/search-requests.mjs'
import {
  migrationFiles,
  migrationStatements,
  migrationsDir,
  root,
  sh,
  workerBuild,
  workerOptions,
} from '../helpers/workerd.mjs'

const started = Date.now()
const args = process.argv.slice(2)
const opt = (name, fallback) => {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : fallback
}
const SCALE = Number(opt('--scale', '10000'))
const ITERATIONS = Number(opt('--iterations', '100'))
const WARMUP = 20
const TARGETS = { listingP95: SCALE > 10_000 ? 50 : 30, searchP95: 50, overhead: 1.5 }
const log = (...a) => console.error(...a)

const WORKER = `
import app from '../../worker/app'
import { seedDemoCatalogueSteps } from '../../scripts/catalogue/seed/write'
import { compileProductRequest, searchCatalog } from '../../worker/search'
import { resizeMemo } from '../../worker/platform/memo'
import { hotColumnsFor } from '../../worker/search/held/hot-columns'

let seeding = null
let products = 0

export default {
  async fetch(req, env, ctx) {
    const url = new URL(req.url)
    if (!url.pathname.startsWith('/__bench/')) return app.fetch(req, env, ctx)
    const op = url.pathname.slice('/__bench/'.length)
    if (op === 'migrate') {
      for (const s of await req.json()) await env.DB.prepare(s).run()
      return Response.json({ ok: true })
    }
    if (op === 'seed') {
      // Started here and carried on by later requests, about ten seconds each: a large seed never
      // keeps one request waiting for minutes. URL mappings are not written (the bench reads D1).
      if (url.searchParams.has('scale'))
        seeding = seedDemoCatalogueSteps(env.DB, undefined, { scale: Number(url.searchParams.get('scale')), skipKv: true })
      if (!seeding) return Response.json({ error: 'no seed in progress' }, { status: 409 })
      const until = Date.now() + 10_000
      while (Date.now() < until) {
        const step = await seeding.next()
        if (step.done) {
          seeding = null
          return Response.json({ done: true })
        }
        products = step.value.products
      }
      return Response.json({ done: false, products })
    }
    if (op === 'count') {
      const row = await env.DB.prepare("SELECT COUNT(*) AS products, (SELECT COUNT(*) FROM inventory WHERE parent_sku IS NOT NULL) AS variants FROM products").first()
      return Response.json(row)
    }
    if (op === 'engine') return Response.json(await searchCatalog(env.DB, await req.json()))
    if (op === 'compile') return Response.json(await compileProductRequest(env.DB, await req.json()))
    if (op === 'hot-read') {
      // The read a large search makes once per index version: the isolate's copies dropped first.
      resizeMemo('search hot columns', 0)
      resizeMemo('search hot columns', undefined)
      const columns = await hotColumnsFor(env.DB, await req.json())
      return Response.json({ columns: columns.size })
    }
    if (op === 'sql') {
      const { sql, params } = await req.json()
      return Response.json(await env.DB.prepare(sql).bind(...params).first())
    }
    return new Response('unknown bench op', { status: 404 })
  },
}
`

// Build the bench worker (the real app plus the bench endpoints) the way the production bundle is
// built: the client manifest first (the app imports it), Node built-ins from nodejs_compat.
const tmp = path.join(root, '.tmp/bench-search')
mkdirSync(tmp, { recursive: true })
const script = path.join(tmp, 'worker.js')
sh(process.execPath, [path.join(root, 'scripts/build-client.mjs'), '--quiet'])
await build({
  ...workerBuild,
  stdin: {
    contents: WORKER,
    resolveDir: path.join(root, 'tests/bench'),
    loader: 'ts',
    sourcefile: 'search-bench-worker.ts',
  },
  minify: true,
  outfile: script,
})

// Persisted D1 per (scale, schema, indexer, generator): seeding 10k products is done once.
const hash = createHash('sha256')
for (const f of migrationFiles) hash.update(readFileSync(path.join(migrationsDir, f)))
for (const f of [
  'worker/search/semantics/facts.ts',
  ...readdirSync(path.join(root, 'worker/search/builds'))
    .filter((n) => n.endsWith('.ts'))
    .sort()
    .map((n) => `worker/search/builds/${n}`),
  ...readdirSync(path.join(root, 'scripts/catalogue/seed'))
    .filter((n) => n.endsWith('.ts'))
    .sort()
    .map((n) => `scripts/catalogue/seed/${n}`),
]) {
  hash.update(readFileSync(path.join(root, f)))
}
const state = path.join(tmp, `state-${SCALE}-${hash.digest('hex').slice(0, 12)}`)
const fresh = !existsSync(path.join(state, '.seeded'))
if (fresh) {
  // Drop stale states of this scale (an older schema, indexer or generator).
  for (const d of readdirSync(tmp))
    if (d.startsWith(`state-${SCALE}-`)) rmSync(path.join(tmp, d), { recursive: true, force: true })
}
mkdirSync(state, { recursive: true })

const mf = new Miniflare(workerOptions({ script, state, port: 0 }))
const base = (await mf.ready).href.replace(/\/$/, '')

async function call(pathname, body) {
  const res = await fetch(
    `${base}${pathname}`,
    body === undefined
      ? {}
      : { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } },
  )
  const text = await res.text()
  if (!res.ok) throw new Error(`${pathname} → ${res.status}: ${text.slice(0, 300)}`)
  return JSON.parse(text)
}

try {
  if (fresh) {
    log(`seeding ${SCALE} configurables into local D1 (once; kept in ${path.relative(root, state)})…`)
    const t0 = Date.now()
    await call('/__bench/migrate', migrationStatements)
    let step = await call(`/__bench/seed?scale=${SCALE}`, {})
    while (!step.done) {
      log(`  ${step.products} products written (${((Date.now() - t0) / 1000).toFixed(0)} s)`)
      step = await call('/__bench/seed', {})
    }
    writeFileSync(path.join(state, '.seeded'), new Date().toISOString())
    log(`  seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
  }
  const counts = await call('/__bench/count')
  log(`catalogue: ${counts.products} products, ${counts.variants} variants`)

  // The category listing: Women and its subcategories, visibility/status, three catalog filters
  // (colour, size, price range), the listing facets, and the default sort.
  const cats = await call('/__bench/engine', { entityType: 'category', body: {}, size: 4000 })
  const catDocs = cats.hits.hits.map((h) => h._source)
  const women = catDocs.find((c) => c.parent_id === 2 && c.position === 1)
  const catIds = [women.id, ...women.children_data.map((c) => c.id)]
  const facets = await call('/__bench/engine', {
    entityType: 'product',
    size: 1,
    body: {
      query: { terms: { category_ids: catIds } },
      aggs: {
        c: { terms: { field: 'color_options', size: 3 } },
        s: { terms: { field: 'size_options', size: 3 } },
      },
    },
  })
  const colours = facets.aggregations.c.buckets.slice(0, 2).map((b) => b.key)
  const sizes = facets.aggregations.s.buckets.slice(0, 2).map((b) => b.key)
  const range = (field) => ({ range: { [field]: { gte: 1000, lte: 60000 } } })
  const listingBody = {
    ...shopListing(
      { terms: { category_ids: catIds } },
      catalogScope('color', colours),
      catalogScope('size', sizes),
      {
        bool: {
          should: [
            range('final_price'),
            { bool: { must: [range('final_price'), { match: { type_id: 'configurable' } }] } },
          ],
        },
      },
    ),
    aggs: {
      ...COLOUR_PRICE_AGGS,
      agg_terms_size: { terms: { field: 'size', size: 100 } },
      agg_terms_size_options: { terms: { field: 'size_options', size: 100 } },
      agg_terms_designer: { terms: { field: 'designer', size: 100 } },
    },
  }
  const listingParams = { size: '24', from: '0', sort: 'created_at:desc' }
  const searchText = 'kurat'
  const searchBody = {
    query: {
      bool: {
        filter: { bool: { must: [{ terms: { visibility: [3, 4] } }, { terms: { status: [0, 1] } }] } },
        must: {
          function_score: {
            min_score: 1,
            query: {
              bool: {
                should: [
                  {
                    multi_match: {
                      fields: ['name^4', 'sku^2', 'category.name^1'],
                      query: searchText,
                      fuzziness: 2,
                      operator: 'or',
                      minimum_should_match: '75%',
                      tie_breaker: 1,
                    },
                  },
                  {
                    bool: {
                      should: [
                        { terms: { 'configurable_children.sku': [searchText] } },
                        { match_phrase: { sku: { query: searchText, boost: 1 } } },
                        { match_phrase: { 'configurable_children.sku': { query: searchText, boost: 1 } } },
                      ],
                    },
                  },
                ],
              },
            },
          },
        },
      },
    },
    min_score: 0.02,
  }
  const searchParams = { size: '24', from: '0' }
  const unknownText = '<script>alert(1)</script>'

  const cases = [
    {
      name: 'category listing (3 filters + 6 facets + sort)',
      body: listingBody,
      params: listingParams,
      target: TARGETS.listingP95,
    },
    {
      name: `fuzzy search '${searchText}'`,
      body: searchBody,
      params: searchParams,
      target: TARGETS.searchP95,
    },
    {
      // Words no product holds (what a bot or a pasted payload sends): each new one is expanded
      // against the vocabulary and matches nothing; it must cost what any other search costs.
      name: `the same for '${unknownText}'`,
      body: JSON.parse(
        JSON.stringify(searchBody).replaceAll(JSON.stringify(searchText), JSON.stringify(unknownText)),
      ),
      params: searchParams,
      target: TARGETS.searchP95,
    },
  ]

  function stats(samples) {
    const s = [...samples].sort((a, b) => a - b)
    const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))]
    return {
      p50: +q(0.5).toFixed(2),
      p95: +q(0.95).toFixed(2),
      mean: +(s.reduce((a, b) => a + b, 0) / s.length).toFixed(2),
    }
  }
  async function time(fn) {
    for (let i = 0; i < WARMUP; i++) await fn()
    const samples = []
    for (let i = 0; i < ITERATIONS; i++) {
      const t = performance.now()
      await fn()
      samples.push(performance.now() - t)
    }
    return stats(samples)
  }

  const results = []
  for (const c of cases) {
    const req = { entityType: 'product', body: c.body, ...c.params }
    const first = await call('/__bench/engine', req)
    const compiled = await call('/__bench/compile', req)
    writeFileSync(path.join(tmp, `compiled-${results.length}.json`), JSON.stringify(compiled))
    const qs = new URLSearchParams({ ...c.params, request: JSON.stringify(c.body) })
    const routeUrl = `${base}/api/catalog/vue_storefront_catalog/product/_search?${qs}`
    const check = await fetch(routeUrl)
    if (check.status !== 200) throw new Error(`route answered ${check.status}: ${await check.text()}`)
    await check.arrayBuffer()
    const route = await time(async () => (await fetch(routeUrl)).arrayBuffer())
    const engine = await time(() => call('/__bench/engine', req))
    let nudge = 0
    const uncached = await time(() => {
      nudge += 1
      const filter = { range: { final_price: { gte: -1 - nudge / 1000 } } }
      const body = { ...c.body, query: { bool: { must: [c.body.query], filter: [filter] } } }
      return call('/__bench/engine', { ...req, body })
    })
    const sql = await time(() => call('/__bench/sql', compiled))
    results.push({
      query: c.name,
      total: first.hits.total,
      hits: first.hits.hits.length,
      route,
      engine,
      uncached,
      sql,
      overhead: +(engine.p50 / sql.p50).toFixed(2),
      routeOverhead: +(route.p50 / sql.p50).toFixed(2),
      targetP95: c.target,
      sqlText: compiled.sql,
    })
  }

  // The widest search the request limits allow (nesting at the depth limit, 4 full-text clauses
  // over 16 fields, 24 should tests counted towards a minimum, 29 terms aggregations, 100 range
  // buckets, 5 sort fields): over the cost budget from about 6,000 products, it must then be refused
  // before its statement runs (on a smaller catalogue it is answered, and that time is printed).
  // statement runs. Timed through the route (the estimate and the index size read).
  const ids = (n, from = 1) => Array.from({ length: n }, (_, i) => from + i)
  const chain = nestedChain(12)
  const textFields = ['name^4', 'sku^2', 'category.name', 'description', 'color', 'size', 'designer']
  const widest = {
    query: {
      bool: {
        filter: [{ terms: { category_ids: ids(1024) } }, { terms: { visibility: [2, 3, 4] } }],
        must: [chain],
        should: [
          ...ids(4).map((k) => ({
            multi_match: {
              query: 'silk saree with zari border',
              fields: [...textFields, ...ids(9).map((i) => `attr_${i}`)],
              fuzziness: 'AUTO',
              boost: k,
            },
          })),
          ...ids(24).map((i) =>
            i % 2 ? { exists: { field: `attr_${i}` } } : { range: { price: { gte: i * 10 } } },
          ),
        ],
        minimum_should_match: 2,
      },
    },
    aggs: {
      ...Object.fromEntries(ids(29).map((i) => [`t${i}`, { terms: { field: `attr_${i}`, size: 1000 } }])),
      r: {
        range: { field: 'price', ranges: ids(100, 0).map((i) => ({ from: i * 500, to: i * 500 + 1000 })) },
      },
      lo: { min: { field: 'final_price' } },
      hi: { max: { field: 'final_price' } },
    },
    sort: ['_score', { final_price: 'desc' }, 'position', 'name', { type_id: 'asc' }],
    min_score: 0.02,
  }
  const widestUrl = `${base}/api/catalog/vue_storefront_catalog/product/_search`
  const postWidest = () =>
    fetch(widestUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(widest),
    })
  const refusal = await postWidest()
  const refusalText = await refusal.text()
  if (refusal.status !== 400 && refusal.status !== 200)
    throw new Error(`the widest search answered ${refusal.status}: ${refusalText.slice(0, 300)}`)
  const widestAnswer =
    refusal.status === 400 ? 'refused with a 400' : 'answered (under the cost budget at this size)'
  const refused = await time(async () => (await postWidest()).arrayBuffer())
  if (refusal.status === 400) log(`widest search: ${JSON.parse(refusalText).result}`)

  // Large pages: what a page of `size` documents (and a window reaching `from`) costs, answered or
  // refused. A refusal must come before the work (milliseconds); an accepted page is bounded by the
  // answer's bytes. Then a cheap request's p50 alone and with four of the heaviest in flight.
  const pageCases = [
    { name: 'size=1000, no query', params: { size: '1000' }, body: {} },
    { name: 'size=2000, no query', params: { size: '2000' }, body: {} },
    { name: 'from=9000 size=1000', params: { from: '9000', size: '1000' }, body: {} },
    {
      name: 'size=4000, depth-12 chain, 5 attribute sorts',
      params: { size: '4000' },
      body: {
        query: { bool: { should: [nestedChain(12)], minimum_should_match: 1 } },
        sort: ['color', 'size', 'designer', 'name', 'sku'],
      },
    },
  ]
  const pageUrl = (c) =>
    `${base}/api/catalog/vue_storefront_catalog/product/_search?${new URLSearchParams({ ...c.params, request: JSON.stringify(c.body) })}`
  const pages = []
  for (const c of pageCases) {
    const runs = []
    let status = 0
    let bytes = 0
    for (let i = 0; i < 5; i++) {
      const t = performance.now()
      const res = await fetch(pageUrl(c))
      bytes = (await res.arrayBuffer()).byteLength
      runs.push(performance.now() - t)
      status = res.status
    }
    runs.sort((a, b) => a - b)
    pages.push({ name: c.name, status, bytes, p50: +runs[2].toFixed(1), max: +runs[4].toFixed(1) })
  }
  const cheapUrl = `${base}/api/catalog/vue_storefront_catalog/product/_search?${new URLSearchParams({ ...searchParams, request: JSON.stringify(searchBody) })}`
  const cheapAlone = await time(async () => (await fetch(cheapUrl)).arrayBuffer())
  const heavy = pageCases[pageCases.length - 1]
  let flooding = true
  const flood = Array.from({ length: 4 }, async () => {
    while (flooding) await (await fetch(pageUrl(heavy))).arrayBuffer()
  })
  const cheapUnder = await time(async () => (await fetch(cheapUrl)).arrayBuffer())
  flooding = false
  await Promise.all(flood)

  const pad = (s, n) => String(s).padEnd(n)
  const lpad = (s, n) => String(s).padStart(n)
  console.log(
    `\nCatalogue search, ${counts.products} products / ${counts.variants} variants, local D1 in workerd (Miniflare), ${ITERATIONS} runs each (ms)\n`,
  )
  console.log(
    `${pad('query', 48)}${lpad('total', 7)} | ${lpad('route p50', 9)} ${lpad('p95', 7)} | ${lpad('engine p50', 10)} ${lpad('p95', 7)} | ${lpad('new query p50', 13)} ${lpad('p95', 7)} | ${lpad('bare SQL p50', 12)} ${lpad('p95', 7)} | ${lpad('engine/SQL', 10)} | target p95`,
  )
  for (const r of results) {
    console.log(
      `${pad(r.query, 48)}${lpad(r.total, 7)} | ${lpad(r.route.p50, 9)} ${lpad(r.route.p95, 7)} | ${lpad(r.engine.p50, 10)} ${lpad(r.engine.p95, 7)} | ${lpad(r.uncached.p50, 13)} ${lpad(r.uncached.p95, 7)} | ${lpad(r.sql.p50, 12)} ${lpad(r.sql.p95, 7)} | ${lpad(`${r.overhead}×`, 10)} | ≤ ${r.targetP95} ${Math.max(r.route.p95, r.uncached.p95) <= r.targetP95 ? 'ok' : 'MISSED'}`,
    )
  }
  console.log(
    `\nengine/SQL target ≤ ${TARGETS.overhead}×; route = the full /api/catalog request through the app.`,
  )
  console.log(
    `widest search the limits allow: ${widestAnswer} in p50 ${refused.p50} / p95 ${refused.p95} ms (through the route, the same request each run)`,
  )
  console.log('\nlarge pages through the route (5 runs each; ms):')
  for (const p of pages)
    console.log(
      `  ${pad(p.name, 48)} ${p.status}  ${lpad(p.bytes.toLocaleString('en-US'), 12)} bytes  p50 ${lpad(p.p50, 8)}  max ${lpad(p.max, 8)}`,
    )
  const worstPage = pages.reduce((a, b) => (b.max > a.max ? b : a))
  console.log(
    `  worst: ${worstPage.name} (${worstPage.status}) ${worstPage.max} ms; the fuzzy search's p50 alone ${cheapAlone.p50} ms, with four '${heavy.name}' in flight ${cheapUnder.p50} ms (${(cheapUnder.p50 / cheapAlone.p50).toFixed(1)}×)`,
  )
  // The hot columns' read (once per index version and isolate, by the first search visiting 5,000
  // products or more), as the listing and the search ask for them; p50 of 5 through the bench op.
  const hotRead = {}
  for (const [name, fields] of [
    ['listing', ['visibility', 'status', 'type_id', 'price', 'final_price', 'created_at']],
    ['search', ['visibility', 'status']],
  ]) {
    await call('/__bench/hot-read', fields)
    const runs = []
    for (let i = 0; i < 5; i++) {
      const t = performance.now()
      const r = await call('/__bench/hot-read', fields)
      runs.push(performance.now() - t)
      if (r.columns !== fields.length) throw new Error(`hot columns read: ${r.columns} of ${fields.length}`)
    }
    hotRead[name] = +runs.sort((a, b) => a - b)[2].toFixed(1)
  }
  console.log(
    `hot columns read once per index version by a search visiting 5,000 products or more (p50 of 5): the listing's six ${hotRead.listing} ms, the search's two ${hotRead.search} ms`,
  )
  const out = path.join(root, 'bench-results')
  mkdirSync(out, { recursive: true })
  writeFileSync(
    path.join(out, 'search.json'),
    `${JSON.stringify({ date: new Date().toISOString(), scale: SCALE, ...counts, iterations: ITERATIONS, targets: TARGETS, results, widest: { status: refusal.status, ...refused }, pages, cheapUnderLargePages: { alone: cheapAlone, underFour: cheapUnder }, hotReadMs: hotRead }, null, 2)}\n`,
  )
  log(`wrote bench-results/search.json (${((Date.now() - started) / 1000).toFixed(1)} s)`)
} finally {
  await mf.dispose()
}
