import { existsSync } from 'node:fs'
import { defineConfig } from '@playwright/test'
import { CHROMIUM_ARGS } from '../helpers/chromium.mjs'

// Tier 3: a real browser (Debian chromium, never downloaded) against the shop in workerd
// (`start.mjs --workerd`: wrangler's bundle and config without wrangler dev's proxy). Two shops run
// side by side, each on its own port with its own local state (.tmp/e2e-state, .tmp/e2e-state-b),
// migrated and seeded by scripts/start.mjs. E2E_PORT (default 8788) names the first shop's port,
// the second is two above it (the payment stand-ins sit 100 above each).
const PORT = Number(process.env.E2E_PORT ?? 8788)
const SHOPS = [
  { port: PORT, persistTo: '.tmp/e2e-state' },
  { port: PORT + 2, persistTo: '.tmp/e2e-state-b' },
] as const
/**
 * The shop this process tests. Two workers run the spec files, each file whole in one worker, the
 * next file going to whichever worker is free, so the shops finish together without a list to keep
 * balanced. Worker N tests shop N: Playwright sets TEST_PARALLEL_INDEX (0 or 1, kept by a worker
 * restarted after a failure) before a worker loads this file, so each shop serves one test at a
 * time and a spec never races another spec on the same data. The runner itself reads shop 0.
 */
const SHOP = SHOPS[Number(process.env.TEST_PARALLEL_INDEX ?? 0) % SHOPS.length] ?? SHOPS[0]
/**
 * Set by `npm test`, which runs the unit and worker tiers (readers of the client build) beside
 * this one: a file that appears once they have passed (build-readers.setup.ts waits for it).
 * E2E_DEPLOY_AFTER: only the deploy spec, which rebuilds the client, waits. E2E_START_AFTER
 * (`npm test -- --e2e-last`): every spec waits, so the shops start while the other tiers end but no
 * test competes with them for the cores.
 */
const START_AFTER = process.env.E2E_START_AFTER
const DEPLOY_AFTER = process.env.E2E_DEPLOY_AFTER ?? START_AFTER
/** The waiting step, as a project the others depend on. */
const buildReaders = (dependencies: string[]) => ({
  name: 'build-readers',
  testMatch: 'build-readers.setup.ts',
  dependencies,
})
/**
 * pwa.spec.ts rebuilds the client (a simulated deploy), which both shops would serve: it runs
 * last, alone, on the first shop, once the other specs are done.
 */
const LAST_ALONE = ['pwa.spec.ts']
/**
 * The browser: Debian's chromium-headless-shell, the same Chromium (Blink, V8, network stack) built
 * without the desktop browser around it, which is what Playwright itself runs for headless Chromium.
 * The full `chromium` in headless mode spends about three times the shell's CPU in its browser
 * process for the same specs, and the browser tier is CPU-bound on two cores. Where the shell is
 * not installed, the full browser; CHROMIUM_PATH names another.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell'
const CHROMIUM =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium')
const shopUse = (shop: (typeof SHOPS)[number]) => ({
  browserName: 'chromium' as const,
  baseURL: `http://127.0.0.1:${shop.port}`,
})

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  workers: SHOPS.length,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  outputDir: '../../test-results',
  use: {
    // A page's service worker installs in the background and precaches the whole build (about a
    // hundred scripts, the stylesheet and the fonts) in every new browser context, that is in every
    // test: about a tenth of the tier's CPU. Only the specs that test it (offline, the PWA, the
    // order queue, the tabs' shared engine) allow it, with `test.use({ serviceWorkers: 'allow' })`.
    serviceWorkers: 'block',
    launchOptions: {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
    },
    // Recording a trace (a DOM snapshot per action) costs about 15 % of a test's CPU. Under CI a
    // failed test runs again, and that retry records one; run by hand, every test records and a
    // failed test's trace is kept.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
  },
  projects: [
    ...(START_AFTER ? [buildReaders([])] : []),
    {
      name: 'shops',
      testIgnore: LAST_ALONE,
      dependencies: START_AFTER ? ['build-readers'] : [],
      use: shopUse(SHOP),
      metadata: { persistTo: SHOP.persistTo },
    },
    ...(DEPLOY_AFTER && !START_AFTER ? [buildReaders(['shops'])] : []),
    {
      name: 'deploy',
      testMatch: LAST_ALONE,
      dependencies: DEPLOY_AFTER && !START_AFTER ? ['build-readers'] : ['shops'],
      workers: 1,
      use: shopUse(SHOPS[0]),
      metadata: { persistTo: SHOPS[0].persistTo },
    },
  ],
  // Playwright starts the shops one after the other. The first migrates and seeds its state and
  // copies it for the second before serving, so the second (empty after `npm test` cleared it)
  // starts from the same catalogue without migrating and seeding it again.
  webServer: SHOPS.map(({ port, persistTo }, i) => ({
    // Under `npm test` the client is built before any tier starts and read by the others while the
    // shops start, so a shop serves that build instead of building it again.
    command: `node scripts/start.mjs --workerd --port ${port} --persist-to ${persistTo}${i === 0 ? ` --copy-state-to ${SHOPS[1].persistTo}` : ''}${DEPLOY_AFTER ? ' --no-build' : ''}`,
    cwd: '../..',
    url: `http://127.0.0.1:${port}/raw-output-example.xml`,
    timeout: 180_000,
    reuseExistingServer: !process.env.CI,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
  })),
})
