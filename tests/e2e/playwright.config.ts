import { defineConfig } from '@playwright/test'

// Tier 3: a real browser (Debian chromium, never downloaded) against `wrangler dev` on :8788
// with its own local state (.tmp/e2e-state), migrated and seeded by scripts/start.mjs.
// E2E_PORT lets a second run (e.g. a clean-clone CI rehearsal) use another port.
const PORT = Number(process.env.E2E_PORT ?? 8788)
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  outputDir: '../../test-results',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
    trace: 'retain-on-failure',
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    command: `node scripts/start.mjs --port ${PORT} --persist-to .tmp/e2e-state`,
    cwd: '../..',
    url: `http://127.0.0.1:${PORT}/raw-output-example.xml`,
    timeout: 180_000,
    reuseExistingServer: !process.env.CI,
    stdout: 'ignore',
    stderr: 'pipe',
  },
})
