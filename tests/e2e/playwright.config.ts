import { defineConfig } from '@playwright/test'
import { CHROMIUM_ARGS } from '../helpers/chromium.mjs'

// Tier 3: a real browser (Debian chromium, never downloaded) against `wrangler dev`. The specs are
// spread over two shops that run side by side, each on its own port with its own local state
// (.tmp/e2e-state, .tmp/e2e-state-b), migrated and seeded by scripts/start.mjs; each shop serves
// one test at a time, as a single shop did. E2E_PORT (default 8788) names the first shop's port,
// the second is two above it (the payment stand-ins sit 100 above each).
const PORT = Number(process.env.E2E_PORT ?? 8788)
const SHOPS = [
  { port: PORT, persistTo: '.tmp/e2e-state' },
  { port: PORT + 2, persistTo: '.tmp/e2e-state-b' },
] as const
/**
 * Set by `npm test`, which runs the unit and worker tiers (readers of the client build) beside
 * this one: a file that appears once they have passed. The deploy spec, which rebuilds the client,
 * waits for it (build-readers.setup.ts).
 */
const DEPLOY_AFTER = process.env.E2E_DEPLOY_AFTER
/**
 * The specs the first shop runs, about half of the tier's time; every other spec runs on the
 * second shop. pwa.spec.ts rebuilds the client (a simulated deploy), which both shops would
 * serve: it runs last, alone, once the other specs are done.
 */
const FIRST_SHOP_SPECS = [
  'checkout.spec.ts',
  'account.spec.ts',
  'address-book.spec.ts',
  'catalog.spec.ts',
  'header-widths.spec.ts',
  'search-panel.spec.ts',
  'prices.spec.ts',
  'listing.spec.ts',
  'header.spec.ts',
  'product-ui.spec.ts',
]
const LAST_ALONE = ['pwa.spec.ts']
const shopUse = (i: 0 | 1) => ({
  browserName: 'chromium' as const,
  baseURL: `http://127.0.0.1:${SHOPS[i].port}`,
})
const shopMeta = (i: 0 | 1) => ({ persistTo: SHOPS[i].persistTo })

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
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
    trace: 'retain-on-failure',
  },
  projects: [
    { name: 'shop-1', testMatch: FIRST_SHOP_SPECS, workers: 1, use: shopUse(0), metadata: shopMeta(0) },
    {
      name: 'shop-2',
      testIgnore: [...FIRST_SHOP_SPECS, ...LAST_ALONE],
      workers: 1,
      use: shopUse(1),
      metadata: shopMeta(1),
    },
    ...(DEPLOY_AFTER
      ? [{ name: 'build-readers', testMatch: 'build-readers.setup.ts', dependencies: ['shop-1', 'shop-2'] }]
      : []),
    {
      name: 'deploy',
      testMatch: LAST_ALONE,
      dependencies: DEPLOY_AFTER ? ['build-readers'] : ['shop-1', 'shop-2'],
      workers: 1,
      use: shopUse(0),
      metadata: shopMeta(0),
    },
  ],
  // Playwright starts the shops one after the other. The first migrates and seeds its state and
  // copies it for the second before serving, so the second (empty after `npm test` cleared it)
  // starts from the same catalogue without migrating and seeding it again.
  webServer: SHOPS.map(({ port, persistTo }, i) => ({
    // Under `npm test` the client is built before any tier starts and read by the others while the
    // shops start, so a shop serves that build instead of building it again.
    command: `node scripts/start.mjs --port ${port} --persist-to ${persistTo}${i === 0 ? ` --copy-state-to ${SHOPS[1].persistTo}` : ''}${DEPLOY_AFTER ? ' --no-build' : ''}`,
    cwd: '../..',
    url: `http://127.0.0.1:${port}/raw-output-example.xml`,
    timeout: 180_000,
    reuseExistingServer: !process.env.CI,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
  })),
})
