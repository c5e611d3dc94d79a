// Mutation testing of the pure domain rules (`npm run mutate`, not part of `npm test`).
// Stryker rewrites shared/domain one small change at a time (a flipped comparison, a dropped
// branch, an emptied string…) and runs the unit tests that cover that spot; a change no test
// notices ("survived") marks behaviour the tests do not pin down.
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** Every domain module must reach this score on its own (the total alone could hide a weak one). */
const MODULE_MIN_SCORE = 85
const MUTATED_DIR = 'shared/domain'

// The test workers inherit this zone. Off UTC, a mutant that reads a zone-less date in the
// runtime's local time gives a different instant and is caught; in UTC it would pass unnoticed.
process.env.TZ = 'Asia/Kolkata'

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.unit.config.ts', related: true },
  // Every domain module, including ones added later.
  mutate: [`${MUTATED_DIR}/**/*.ts`],
  // Only the tests that exercise a mutant run for it; two workers for a 2-core machine.
  coverageAnalysis: 'perTest',
  concurrency: 2,
  // Results are reused for unchanged code and tests (`npm run mutate -- --force` redoes everything).
  incremental: true,
  incrementalFile: '.tmp/stryker/incremental.json',
  tempDirName: '.tmp/stryker-sandbox',
  // The sandbox needs sources, tests and configs only, never build output or local state.
  ignorePatterns: [
    '.tmp',
    '.wrangler',
    '.git',
    'public/build',
    'dist',
    'lh',
    'bench-results',
    'test-results',
    'playwright-report',
    'reports',
  ],
  appendPlugins: [fileURLToPath(import.meta.url)],
  reporters: ['progress', 'clear-text', 'json', 'html', 'module-table'],
  clearTextReporter: { allowEmojis: false, logTests: false, reportScoreTable: false, reportMutants: true },
  jsonReporter: { fileName: '.tmp/stryker/mutation.json' },
  htmlReporter: { fileName: '.tmp/stryker/mutation.html' },
  thresholds: { high: 90, low: MODULE_MIN_SCORE, break: MODULE_MIN_SCORE },
  timeoutMS: 10_000,
}

/**
 * Prints one row per module (score, killed, timed out, survived, not covered) as a Markdown
 * table, and fails the run when any module scores below MODULE_MIN_SCORE.
 */
class ModuleTableReporter {
  static inject = []

  onMutationTestReportReady(report) {
    const rows = Object.entries(report.files)
      .map(([file, { mutants }]) => {
        const count = (status) => mutants.filter((m) => m.status === status).length
        const killed = count('Killed')
        const timeout = count('Timeout')
        const survived = count('Survived')
        const noCoverage = count('NoCoverage')
        const valid = killed + timeout + survived + noCoverage
        const score = valid ? ((killed + timeout) / valid) * 100 : 100
        const name = path.relative(MUTATED_DIR, path.normalize(file)).split(path.sep).join('/')
        return { name, score, killed, timeout, survived, noCoverage, valid }
      })
      .sort((a, b) => a.name.localeCompare(b.name))
    const total = rows.reduce(
      (t, r) => ({
        killed: t.killed + r.killed,
        timeout: t.timeout + r.timeout,
        survived: t.survived + r.survived,
        noCoverage: t.noCoverage + r.noCoverage,
        valid: t.valid + r.valid,
      }),
      { killed: 0, timeout: 0, survived: 0, noCoverage: 0, valid: 0 },
    )
    const line = (name, r, score) =>
      `| ${name} | ${score.toFixed(2)} % | ${r.killed} | ${r.timeout} | ${r.survived} | ${r.noCoverage} |`
    const table = [
      '| module | mutation score | killed | timed out | survived | no coverage |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
      ...rows.map((r) => line(r.name, r, r.score)),
      line('**all**', total, total.valid ? ((total.killed + total.timeout) / total.valid) * 100 : 100),
    ]
    console.log(`\nMutation score per module (${MUTATED_DIR}):\n\n${table.join('\n')}\n`)
    const low = rows.filter((r) => r.score < MODULE_MIN_SCORE)
    if (low.length) {
      console.error(
        `Below ${MODULE_MIN_SCORE} %: ${low.map((r) => `${r.name} (${r.score.toFixed(2)} %)`).join(', ')}`,
      )
      process.exitCode = 1
    }
  }
}

export const strykerPlugins = [
  { kind: 'Reporter', name: 'module-table', injectableClass: ModuleTableReporter },
]
