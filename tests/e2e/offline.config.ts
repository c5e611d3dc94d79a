import { defineConfig } from '@playwright/test'
import base from './playwright.config'

// A separate run of the offline/PWA specs on :8789 with its own state (.tmp/h-state), so they can
// run beside a main e2e run on :8788. `npm test` runs the same specs through playwright.config.ts.
const PORT = 8789

export default defineConfig({
  ...base,
  testMatch: ['offline.spec.ts', 'pwa.spec.ts'],
  outputDir: '../../.tmp/test-results-h',
  workers: 1,
  use: { ...base.use, baseURL: `http://127.0.0.1:${PORT}` },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' }, metadata: { persistTo: '.tmp/h-state' } }],
  webServer: {
    command: `node scripts/start.mjs --port ${PORT} --persist-to .tmp/h-state`,
    cwd: '../..',
    url: `http://127.0.0.1:${PORT}/raw-output-example.xml`,
    timeout: 180_000,
    reuseExistingServer: true,
    stdout: 'ignore',
    stderr: 'pipe',
  },
})
