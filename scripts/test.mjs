#!/usr/bin/env node
// `npm test`: build the client, then typecheck, lint and the three test tiers, stopping at the
// first failure. Pass tier names to run a subset: npm test -- unit worker
import path from 'node:path'
import { root, run } from './lib.mjs'

const all = ['build', 'typecheck', 'lint', 'unit', 'worker', 'e2e']
const picked = process.argv.slice(2).filter((a) => all.includes(a))
const steps = picked.length ? picked : all

const commands = {
  build: [process.execPath, [path.join(root, 'scripts/build-client.mjs')]],
  typecheck: ['tsc', ['--noEmit']],
  lint: ['biome', ['check', '.']],
  unit: ['vitest', ['run', '-c', 'vitest.unit.config.ts']],
  worker: ['vitest', ['run', '-c', 'vitest.worker.config.ts']],
  e2e: ['playwright', ['test', '-c', 'tests/e2e/playwright.config.ts']],
}

for (const step of steps) {
  const started = Date.now()
  console.log(`\n▶ ${step}`)
  const [cmd, args] = commands[step]
  run(cmd, args)
  console.log(`✔ ${step} (${((Date.now() - started) / 1000).toFixed(1)} s)`)
}
