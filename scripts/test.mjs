#!/usr/bin/env node
// `npm test`: build the client, then typecheck, lint and the three test tiers, stopping at the
// first failure. Pass tier names to run a subset: npm test -- unit worker
//
// Order and overlap: the build comes first (every tier reads it). Then three lanes run side by
// side, each step of a lane after the one before: typecheck, lint and the unit tier; the worker
// tier; the browser tier's shop state (migrated and seeded) and then the browser tier. A tier's
// time is mostly waiting (on workerd, on a browser, on a page), so the lanes fill each other's idle
// time on two cores. One browser spec rebuilds the client (a simulated deploy), which no other
// step may see: the browser tier holds that spec back until the build's other readers (the unit
// tier's budgets, the worker tier) have ended (E2E_DEPLOY_AFTER, tests/e2e/playwright.config.ts).
// With --e2e-last the browser tier follows the unit lane instead, and all its specs wait for the
// worker tier to end (E2E_START_AFTER) while its shops start.
// A step's output is printed whole when it ends (the worker and browser tiers' as it comes), each
// step with its time, and a summary of every step's time closes the run.
import { spawn } from 'node:child_process'
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { die, ensureDevVars, parseArgs, quietEnv, root, signalProcessTree } from './lib.mjs'

const { positionals, e2eLast } = parseArgs(
  `
usage: npm test [-- TIER...] [--e2e-last]

Builds, typechecks, lints and runs the test tiers, stopping at the first failure.
TIER: build typecheck lint unit worker e2e (default: all)
  --e2e-last   run the browser tier's tests alone after the others instead of beside them (its
               shops start while the worker tier ends); for a machine too busy for three lanes
  -h, --help   print this help and do nothing else
`,
  { flags: ['--e2e-last'] },
)
const all = ['build', 'typecheck', 'lint', 'unit', 'worker', 'e2e']
const unknown = positionals.find((a) => !all.includes(a))
if (unknown) die(`unknown tier ${unknown}: use ${all.join(', ')}`)
const picked = new Set(positionals.length ? positionals : all)

/** Every module under shared/domain (the sources whose related tests run again in IST). */
function domainModules() {
  return readdirSync(path.join(root, 'shared/domain'), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .map((f) => path.join('shared/domain', f))
}

/**
 * The file whose presence tells the browser tier that no other step reads the client build any
 * more, so its deploy spec may rebuild it. Absent until the steps that read the build (the unit and
 * worker tiers, when picked) have passed; written at once when none of them runs.
 */
const BUILD_READERS_DONE = path.join(root, '.tmp/build-readers-done')

const bin = (name) => path.join(root, 'node_modules/.bin', name)
const commands = {
  build: [process.execPath, [path.join(root, 'scripts/build-client.mjs')]],
  // The type check runs TypeScript 7, the native compiler (the same checker ported to Go): about a
  // quarter of TypeScript 5's CPU time for this repository. TypeScript 5 stays installed for its
  // parser API, which scripts/dead-exports.mjs and scripts/import-cycles.mjs read sources with.
  typecheck: [process.execPath, [path.join(root, 'node_modules/typescript-native/bin/tsc'), '--noEmit']],
  lint: [bin('biome'), ['check', '.']],
  unit: [bin('vitest'), ['run', '-c', 'vitest.unit.config.ts'], { TZ: 'UTC' }],
  // The domain rules also run in shoppers' browsers, so every unit test that reaches shared/domain
  // (prices and special-price windows, delivery dates, the cart and order models built on them)
  // runs a second time in India's zone (UTC+05:30); the first run pins UTC. A rule that quietly
  // uses the runtime's local time gives a different answer in one of the two zones and fails there.
  'unit-ist': [
    bin('vitest'),
    ['related', '--run', '-c', 'vitest.unit.config.ts', ...domainModules()],
    { TZ: 'Asia/Kolkata' },
  ],
  worker: [bin('vitest'), ['run', '-c', 'vitest.worker.config.ts']],
  // The browser tier's two shops (tests/e2e/playwright.config.ts), migrated and seeded once and
  // copied for the second: the shops then only start their servers.
  'e2e-state': [
    process.execPath,
    [
      path.join(root, 'scripts/start.mjs'),
      '--prepare-only',
      '--persist-to',
      '.tmp/e2e-state',
      '--copy-state-to',
      '.tmp/e2e-state-b',
    ],
  ],
  // Beside the other tiers only the deploy spec waits for the build's readers to end; with
  // --e2e-last every spec does, while the shops start (tests/e2e/playwright.config.ts).
  e2e: [
    bin('playwright'),
    ['test', '-c', 'tests/e2e/playwright.config.ts'],
    { [e2eLast ? 'E2E_START_AFTER' : 'E2E_DEPLOY_AFTER']: BUILD_READERS_DONE },
  ],
}

/** The steps in order: a stage's lanes run side by side, a lane's steps one after another. */
const tierOf = { 'unit-ist': 'unit', 'e2e-state': 'e2e' }
const stages = (
  e2eLast
    ? [[['build']], [['typecheck', 'lint', 'unit', 'unit-ist', 'e2e-state', 'e2e'], ['worker']]]
    : [[['build']], [['typecheck', 'lint', 'unit', 'unit-ist'], ['worker'], ['e2e-state', 'e2e']]]
)
  .map((lanes) =>
    lanes.map((lane) => lane.filter((s) => picked.has(tierOf[s] ?? s))).filter((lane) => lane.length),
  )
  .filter((lanes) => lanes.length)

const buildReaders = new Set(['unit', 'unit-ist', 'worker'].filter((s) => picked.has(tierOf[s] ?? s)))
/** Marks a step passed; the last of the build's readers writes the file. */
function buildReaderEnded(step) {
  buildReaders.delete(step)
  if (buildReaders.size) return
  mkdirSync(path.dirname(BUILD_READERS_DONE), { recursive: true })
  writeFileSync(BUILD_READERS_DONE, `${new Date().toISOString()}\n`)
}
rmSync(BUILD_READERS_DONE, { force: true })
if (!buildReaders.size) buildReaderEnded()

const running = new Set()
const times = []
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`

/** Writes complete lines only, so two steps' output never mixes within a line. */
function lineWriter() {
  let rest = ''
  return {
    write(chunk) {
      const text = rest + chunk
      const end = text.lastIndexOf('\n') + 1
      if (end) process.stdout.write(text.slice(0, end))
      rest = text.slice(end)
    },
    end() {
      if (rest) process.stdout.write(`${rest}\n`)
      rest = ''
    },
  }
}

/**
 * The long steps whose output streams as it comes, one at a time: a second one keeps its output
 * until the first has ended, then prints it and streams on. Every other step prints its output
 * whole when it ends.
 */
const STREAMED = new Set(['worker', 'e2e'])
let streaming = null
const waitingToStream = []

/** Runs one step, printing its output as STREAMED says, and its time when it ends. */
function runStep(step) {
  const [cmd, args, env = {}] = commands[step]
  const started = Date.now()
  // The browser tests start from freshly migrated and seeded shops, never from an earlier run's
  // catalogue (a changed demo generator) or orders; the shops share one set of local secrets.
  if (step === 'e2e-state') {
    mkdirSync(path.join(root, '.tmp'), { recursive: true })
    for (const dir of readdirSync(path.join(root, '.tmp'), { withFileTypes: true }).filter(
      (d) => d.isDirectory() && d.name.startsWith('e2e-state'),
    ))
      rmSync(path.join(root, '.tmp', dir.name), { recursive: true, force: true })
    ensureDevVars()
  }
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: root,
      env: { ...quietEnv, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    running.add(child)
    const out = lineWriter()
    const buffered = []
    let live = false
    const goLive = () => {
      live = true
      streaming = step
      console.log(`\n▶ ${step}`)
      for (const chunk of buffered.splice(0)) out.write(chunk.toString())
    }
    if (STREAMED.has(step)) {
      if (streaming) waitingToStream.push(goLive)
      else goLive()
    }
    const take = (chunk) => (live ? out.write(chunk.toString()) : buffered.push(chunk))
    child.stdout.on('data', take)
    child.stderr.on('data', take)
    child.on('close', (code) => {
      running.delete(child)
      const ms = Date.now() - started
      if (live) out.end()
      else {
        if (waitingToStream.includes(goLive)) waitingToStream.splice(waitingToStream.indexOf(goLive), 1)
        process.stdout.write(`\n▶ ${step}\n${Buffer.concat(buffered).toString()}`)
      }
      times.push([step, ms])
      if (code === 0 && buildReaders.has(step)) buildReaderEnded(step)
      if (code === 0) console.log(`✔ ${step} (${seconds(ms)})`)
      else if (!ok) console.error(`■ ${step} stopped after ${seconds(ms)} (another step failed)`)
      else console.error(`\n✖ ${step} failed (exit ${code}) after ${seconds(ms)}`)
      if (live) {
        streaming = null
        waitingToStream.shift()?.()
      }
      resolve(code === 0)
    })
  })
}

/**
 * Stops every step still running: its process group and the groups its processes started (the
 * browser tier's shops run in groups of their own and would outlive it otherwise).
 */
function stopAll() {
  for (const child of running) signalProcessTree(child.pid, 'SIGTERM')
  running.clear()
}
// A stopped run (Ctrl-C, a CI time-out, a closed terminal) or one that ends by an error leaves no
// shop, workerd or browser behind.
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'])
  process.on(sig, () => {
    stopAll()
    process.exit(130)
  })
process.on('exit', stopAll)

const started = Date.now()
let ok = true
for (const lanes of stages) {
  const results = await Promise.all(
    lanes.map(async (lane) => {
      for (const step of lane) {
        if (!ok) return false
        const passed = await runStep(step)
        if (!passed) {
          ok = false
          stopAll()
          return false
        }
      }
      return true
    }),
  )
  if (!results.every(Boolean)) break
}

console.log(`\nstep times: ${times.map(([s, ms]) => `${s} ${seconds(ms)}`).join(' · ')}`)
console.log(`${ok ? '✔ all passed' : '✖ failed'} in ${seconds(Date.now() - started)}`)
process.exit(ok ? 0 : 1)
