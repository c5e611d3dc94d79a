#!/usr/bin/env node
// `npm test`: build the client, then typecheck, lint and the three test tiers, stopping at the
// first failure. Pass tier names to run a subset: npm test -- unit worker
import { readdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { die, parseArgs, quietEnv, root, run } from './lib.mjs'

const { positionals } = parseArgs(
  `
usage: npm test [-- TIER...]

Builds, typechecks, lints and runs the test tiers, stopping at the first failure.
TIER: build typecheck lint unit worker e2e (default: all, in this order)
  -h, --help   print this help and do nothing else
`,
)
const all = ['build', 'typecheck', 'lint', 'unit', 'worker', 'e2e']
const unknown = positionals.find((a) => !all.includes(a))
if (unknown) die(`unknown tier ${unknown}: use ${all.join(', ')}`)
const picked = positionals
// The unit tier is two runs: in UTC, then the domain-related tests again in IST.
const steps = (picked.length ? picked : all).flatMap((s) => (s === 'unit' ? ['unit', 'unit-ist'] : [s]))

/** Every module under shared/domain (the sources whose related tests run again in IST). */
function domainModules() {
  return readdirSync(path.join(root, 'shared/domain'), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .map((f) => path.join('shared/domain', f))
}

const commands = {
  build: [process.execPath, [path.join(root, 'scripts/build-client.mjs')]],
  typecheck: ['tsc', ['--noEmit']],
  lint: ['biome', ['check', '.']],
  unit: ['vitest', ['run', '-c', 'vitest.unit.config.ts'], { TZ: 'UTC' }],
  // The domain rules also run in shoppers' browsers, so every unit test that reaches shared/domain
  // (prices and special-price windows, delivery dates, the cart and order models built on them)
  // runs a second time in India's zone (UTC+05:30); the first run pins UTC. A rule that quietly
  // uses the runtime's local time gives a different answer in one of the two zones and fails there.
  'unit-ist': [
    'vitest',
    ['related', '--run', '-c', 'vitest.unit.config.ts', ...domainModules()],
    { TZ: 'Asia/Kolkata' },
  ],
  worker: ['vitest', ['run', '-c', 'vitest.worker.config.ts']],
  e2e: ['playwright', ['test', '-c', 'tests/e2e/playwright.config.ts']],
}

for (const step of steps) {
  const started = Date.now()
  console.log(`\n▶ ${step}`)
  // The browser tests start from a freshly migrated and seeded shop, never from an earlier run's
  // catalogue (a changed demo generator) or orders.
  if (step === 'e2e') rmSync(path.join(root, '.tmp/e2e-state'), { recursive: true, force: true })
  const [cmd, args, env = {}] = commands[step]
  run(cmd, args, { env: { ...quietEnv, ...env } })
  console.log(`✔ ${step} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
}
