// Mutation testing of the pure domain rules (`npm run mutate`, not part of `npm test`).
// Stryker rewrites shared/domain one small change at a time (a flipped comparison, a dropped
// branch, an emptied string…) and runs the unit tests that cover that spot; a change no test
// notices ("survived") marks behaviour the tests do not pin down.

// The test workers inherit this zone. Off UTC, a mutant that reads a zone-less date in the
// runtime's local time gives a different instant and is caught; in UTC it would pass unnoticed.
process.env.TZ = 'Asia/Kolkata'

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.unit.config.ts', related: true },
  // Every domain module, including ones added later.
  mutate: ['shared/domain/**/*.ts'],
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
  reporters: ['clear-text', 'progress', 'json', 'html'],
  clearTextReporter: { allowEmojis: false, logTests: false, reportScoreTable: true, reportMutants: true },
  jsonReporter: { fileName: '.tmp/stryker/mutation.json' },
  htmlReporter: { fileName: '.tmp/stryker/mutation.html' },
  thresholds: { high: 90, low: 85, break: 85 },
  timeoutMS: 10_000,
}
