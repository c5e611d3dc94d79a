import { existsSync } from 'node:fs'
import { expect, test } from '@playwright/test'

// The deploy spec (pwa.spec.ts) rebuilds the client. Under `npm test` the unit and worker tiers,
// which read the build, run beside the browser tier, so the deploy waits for them: scripts/test.mjs
// writes the file E2E_DEPLOY_AFTER names once both have passed (playwright.config.ts adds this
// step only when the variable is set). With E2E_START_AFTER every spec waits for that file.
test('no other step reads the client build any more', async () => {
  const done = process.env.E2E_START_AFTER ?? process.env.E2E_DEPLOY_AFTER ?? ''
  const limit = 30 * 60_000
  test.setTimeout(limit + 10_000)
  await expect.poll(() => existsSync(done), { timeout: limit, intervals: [1_000] }).toBe(true)
})
