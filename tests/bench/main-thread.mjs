#!/usr/bin/env node
// What a page's main thread does while it starts, task by task: loads each page cold in Debian
// Chromium (a 412 × 823 phone screen, no throttling) against the production worker with the demo
// catalogue, traces the load with JavaScript samples, and prints every task over --min-ms with the
// duration Lighthouse's simulated throttling would give it (the CPU slowdown, half of it for a task
// that lays the page out; docs/performance.md) and the functions it spent its samples in. For
// finding what makes Total Blocking Time; `npm run lighthouse` gives the scores themselves.
// Minified names read better after a build with esbuild's `minify: false` (scripts/build-client.mjs).
import { chromium } from '@playwright/test'
import { parseArgs } from '../../scripts/lib.mjs'
import { CHROMIUM_ARGS } from '../helpers/chromium.mjs'
import { auditPages, buildProduction, log, root, seedState, startWorker } from '../helpers/workerd.mjs'

const o = parseArgs(
  `
usage: node tests/bench/main-thread.mjs [--pages home,category,product,cart,checkout] [--slowdown 4]
  [--min-ms 10] [--top 8] [--no-build]
Traces one cold load of each page and lists its main-thread tasks over --min-ms (see the top of
tests/bench/main-thread.mjs).`,
  { flags: ['--no-build'], options: ['--pages', '--slowdown', '--min-ms', '--top'], positionals: 0 },
)
const slowdown = Number(o.slowdown ?? '4')
const minMs = Number(o.minMs ?? '10')
const top = Number(o.top ?? '8')

if (!o.noBuild) await buildProduction()
const state = `${root}/.tmp/lighthouse/state`
await seedState(state, 300)
const server = await startWorker({ cache: true, state })
const only = o.pages?.split(',')
const pages = (await auditPages(server)).filter(([name]) => !only || only.includes(name))
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS })

/** One cold load's trace events. */
async function trace(url) {
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
  })
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  const events = []
  cdp.on('Tracing.dataCollected', (e) => events.push(...e.value))
  await cdp.send('Tracing.start', {
    categories:
      'devtools.timeline,disabled-by-default-devtools.timeline,disabled-by-default-v8.cpu_profiler,v8.execute',
    transferMode: 'ReportEvents',
  })
  await page.goto(url, { waitUntil: 'load' })
  await page.waitForTimeout(3000)
  const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve))
  await cdp.send('Tracing.end')
  await done
  await context.close()
  return events
}

/** The page's main thread (the renderer thread that parsed the document) and its JS samples. */
function mainThread(events) {
  const parses = new Map()
  for (const e of events) {
    if (e.name === 'ParseHTML') parses.set(`${e.pid}:${e.tid}`, (parses.get(`${e.pid}:${e.tid}`) ?? 0) + 1)
  }
  const key = [...parses].sort((a, b) => b[1] - a[1])[0]?.[0]
  const pid = Number(key?.split(':')[0])
  const slices = events.filter((e) => `${e.pid}:${e.tid}` === key && e.ph === 'X').sort((a, b) => a.ts - b.ts)
  const nodes = new Map()
  const samples = []
  let t = 0
  for (const e of events.filter(
    (x) => x.pid === pid && (x.name === 'Profile' || x.name === 'ProfileChunk'),
  )) {
    if (e.name === 'Profile') {
      t = e.args.data.startTime
      continue
    }
    const profile = e.args.data.cpuProfile ?? {}
    for (const n of profile.nodes ?? []) nodes.set(n.id, n)
    const deltas = e.args.data.timeDeltas ?? []
    ;(profile.samples ?? []).forEach((id, i) => {
      t += deltas[i] ?? 0
      samples.push([t, id])
    })
  }
  const start = events.find((e) => e.name === 'navigationStart' && e.pid === pid)?.ts ?? slices[0]?.ts ?? 0
  return { slices, nodes, samples, start }
}

const frameName = (n) =>
  `${n.callFrame.functionName || '(anonymous)'} ${(n.callFrame.url ?? '').split('/').pop()}:${n.callFrame.lineNumber + 1}`

try {
  for (const [name, pagePath] of pages) {
    log(`${name} ${pagePath}…`)
    await fetch(server.url + pagePath).then((r) => r.arrayBuffer())
    const { slices, nodes, samples, start } = mainThread(await trace(server.url + pagePath))
    console.log(`\n## ${name} (${pagePath}): tasks over ${minMs} ms, simulated at ${slowdown}×`)
    console.log('| at ms | ms | simulated ms | browser work | JavaScript (samples, inclusive) |')
    console.log('|---:|---:|---:|---|---|')
    for (const task of slices.filter((e) => e.name === 'RunTask' && e.dur > minMs * 1000)) {
      const end = task.ts + task.dur
      const inside = slices.filter((e) => e !== task && e.ts >= task.ts && e.ts < end)
      const laysOut = inside.some((e) => e.name === 'Layout')
      const work = new Map()
      for (const e of inside) {
        if (
          ['Layout', 'UpdateLayoutTree', 'Paint', 'ParseHTML', 'v8.compile', 'MinorGC', 'MajorGC'].includes(
            e.name,
          )
        )
          work.set(e.name, (work.get(e.name) ?? 0) + e.dur / 1000)
      }
      const inclusive = new Map()
      for (const [ts, id] of samples) {
        if (ts < task.ts || ts >= end) continue
        const seen = new Set()
        for (let n = nodes.get(id); n; n = nodes.get(n.parent)) {
          const label = frameName(n)
          if (seen.has(label) || /^\((root|program|idle)\)/.test(label)) continue
          seen.add(label)
          inclusive.set(label, (inclusive.get(label) ?? 0) + 1)
        }
      }
      const ms = task.dur / 1000
      const simulated = ms * (laysOut ? slowdown / 2 : slowdown)
      const browserWork = [...work].map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')
      const js = [...inclusive]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([k, v]) => `${v} ${k}`)
        .join(' · ')
      console.log(
        `| ${((task.ts - start) / 1000).toFixed(0)} | ${ms.toFixed(1)} | ${simulated.toFixed(0)} | ${browserWork} | ${js} |`,
      )
    }
  }
} finally {
  await browser.close()
  await server.mf.dispose()
}
