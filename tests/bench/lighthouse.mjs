#!/usr/bin/env node
// `npm run lighthouse`: Lighthouse 13 (mobile preset, simulated throttling) in Debian Chromium,
// offline, against the production worker in workerd with the demo catalogue and the output cache
// on. Prints the four category scores and LCP / TBT / CLS per page; writes HTML + JSON reports to
// lh/. Pages: home, category, product, cart, checkout.
// Options: --pages=home,category (a subset), --runs=N (each page N times; the run with the median
// performance score is reported and kept as lh/<page>.report.*; simulated throttling still varies
// with the machine's load, so compare medians, not single runs), --cpu-slowdown=N (Lighthouse's
// CPU multiplier, 4 unless given). Lighthouse's 4× assumes a high-end desktop host (benchmarkIndex
// 1500-2000) and stands for a mid-tier phone from there; its throttling guide (docs/throttling.md,
// "Calibrating the CPU slowdown") gives 2× (range 1-5) for a low-end desktop host (1000-1500).
// Each run's benchmarkIndex is printed, so a run can be read against that guide.
import { spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import path from 'node:path'
import { CHROMIUM_ARGS } from '../helpers/chromium.mjs'
import { auditPages, buildProduction, log, root, seedState, startWorker } from '../helpers/workerd.mjs'

const CHROME_FLAGS = CHROMIUM_ARGS.join(' ')

await buildProduction()
const state = path.join(root, '.tmp/lighthouse/state')
await seedState(state, 300)
const server = await startWorker({ cache: true, state })
const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]
const only = arg('pages')?.split(',')
const runs = Math.max(1, Number(arg('runs') ?? 1))
const cpuSlowdown = Number(arg('cpu-slowdown') ?? 4)
if (!(cpuSlowdown >= 1 && cpuSlowdown <= 20)) throw new Error('--cpu-slowdown takes a number from 1 to 20')
const allPages = await auditPages(server)
const pages = only ? allPages.filter(([name]) => only.includes(name)) : allPages

function runLighthouse(url, base, name, p, retries = 1) {
  const res = spawnSync(
    path.join(root, 'node_modules/.bin/lighthouse'),
    [
      url,
      `--chrome-flags=${CHROME_FLAGS}`,
      '--output=json',
      '--output=html',
      `--output-path=${base}`,
      '--quiet',
      '--only-categories=performance,accessibility,best-practices,seo',
      `--throttling.cpuSlowdownMultiplier=${cpuSlowdown}`,
    ],
    {
      cwd: root,
      env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' },
      encoding: 'utf8',
    },
  )
  if (res.status !== 0) {
    // Lighthouse occasionally loses the trace (NO_NAVSTART, NO_FCP): run that page again once.
    if (retries > 0) return runLighthouse(url, base, name, p, retries - 1)
    throw new Error(`lighthouse failed for ${name}: ${res.stderr}`)
  }
  const report = JSON.parse(readFileSync(`${base}.report.json`, 'utf8'))
  const score = (k) => Math.round((report.categories[k]?.score ?? 0) * 100)
  const audit = (k) => report.audits[k]?.numericValue ?? null
  return {
    base,
    page: name,
    path: p,
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    lcpMs: Math.round(audit('largest-contentful-paint')),
    tbtMs: Math.round(audit('total-blocking-time')),
    cls: +Number(audit('cumulative-layout-shift')).toFixed(3),
    fcpMs: Math.round(audit('first-contentful-paint')),
    siMs: Math.round(audit('speed-index')),
    domElements: report.audits['dom-size-insight']?.details?.debugData?.totalElements ?? null,
    benchmarkIndex: Math.round(report.environment?.benchmarkIndex ?? 0),
    ...lcpBreakdown(report),
    mainThreadMs: Object.fromEntries(
      (report.audits['mainthread-work-breakdown']?.details?.items ?? []).map((i) => [
        i.group,
        Math.round(i.duration),
      ]),
    ),
    failing: Object.values(report.audits)
      .filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode === 'binary')
      .map((a) => a.id),
  }
}

/** The LCP element and the parts of its time (first byte, load delay, load, render delay). */
function lcpBreakdown(report) {
  const items = report.audits['lcp-breakdown-insight']?.details?.items ?? []
  const parts = items.find((i) => i.type === 'table')?.items ?? []
  return {
    lcpElement: items.find((i) => i.type === 'node')?.selector ?? null,
    lcpPartsMs: Object.fromEntries(parts.map((p) => [p.subpart, Math.round(p.duration)])),
  }
}

// Simulated throttling scales what the machine really took: a busy machine lowers the scores, so
// the load during the runs is printed with them.
const loadStart = loadavg()[0]
const outDir = path.join(root, 'lh')
mkdirSync(outDir, { recursive: true })
const rows = []
try {
  for (const [name, p] of pages) {
    log(`lighthouse ${name} ${p}…`)
    // Warm the output cache the way a deployed shop is warm.
    // (Retried once: an idle keep-alive socket may have been closed by the server meanwhile.)
    await fetch(server.url + p)
      .catch(() => fetch(server.url + p))
      .then((r) => r.arrayBuffer())
    const results = []
    for (let i = 0; i < runs; i++) {
      const base = path.join(outDir, runs > 1 ? `${name}-run${i + 1}` : name)
      results.push(runLighthouse(server.url + p, base, name, p))
    }
    results.sort((a, b) => a.performance - b.performance)
    const median = results[Math.floor((results.length - 1) / 2)]
    if (runs > 1) {
      for (const ext of ['json', 'html']) {
        cpSync(`${median.base}.report.${ext}`, path.join(outDir, `${name}.report.${ext}`))
      }
      median.allPerformance = results.map((r) => r.performance)
    }
    delete median.base
    rows.push(median)
  }
} finally {
  await server.mf.dispose()
}
console.log('| page | performance | accessibility | best practices | SEO | LCP ms | TBT ms | CLS |')
console.log('|---|---:|---:|---:|---:|---:|---:|---:|')
for (const r of rows) {
  console.log(
    `| ${r.page} | ${r.performance}${r.allPerformance ? ` (${r.allPerformance.join('/')})` : ''} | ${r.accessibility} | ${r.bestPractices} | ${r.seo} | ${r.lcpMs} | ${r.tbtMs} | ${r.cls} |`,
  )
}
console.log(
  '| page | FCP ms | SI ms | DOM elements | LCP element | LCP parts ms (TTFB / load delay / load / render delay) | main thread ms (script / style+layout / parse / other) |',
)
console.log('|---|---:|---:|---:|---|---|---|')
for (const r of rows) {
  const p = r.lcpPartsMs
  const m = r.mainThreadMs
  console.log(
    `| ${r.page} | ${r.fcpMs} | ${r.siMs} | ${r.domElements ?? ''} | ${r.lcpElement ?? ''} | ${[p.timeToFirstByte, p.resourceLoadDelay, p.resourceLoadDuration, p.elementRenderDelay].map((v) => v ?? '–').join(' / ')} | ${[m.scriptEvaluation, m.styleLayout, m.parseHTML, m.other].map((v) => v ?? '–').join(' / ')} |`,
  )
}
for (const r of rows) if (r.failing.length) console.log(`${r.page}: failing audits: ${r.failing.join(', ')}`)
console.log(
  `machine load (1-min average) ${loadStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end, on ${cpus().length} cores`,
)
console.log(
  `CPU slowdown ${cpuSlowdown}×; the host's benchmarkIndex in the reported runs: ${rows.map((r) => `${r.page} ${r.benchmarkIndex}`).join(', ')}`,
)
writeFileSync(path.join(outDir, 'summary.json'), `${JSON.stringify(rows, null, 2)}\n`)
console.log(`reports in ${path.relative(process.cwd(), outDir)}/`)
