import { accessSync, constants } from 'node:fs'
import path from 'node:path'
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin'
import { defineConfig } from 'vitest/config'
import { importTs } from './scripts/lib.mjs'

/**
 * The demo catalogue every worker test file starts from, generated once per run here in Node (the
 * same generator and SQL as `npm run seed`), so each file's setup only executes it.
 */
async function demoSeed() {
  const { noSeedCounts, seedSteps } = await importTs('scripts/catalogue/seed/write.ts')
  const steps = [...seedSteps({ pincodesAt: new Date().toISOString() }, noSeedCounts())]
  return {
    sql: steps.flatMap((s) => s.sql),
    urlMappings: steps.flatMap((s) => s.urlMappings),
  }
}

// Miniflare keeps each test file's D1, KV and Cache API storage in a folder under the system's
// temporary folder. On a RAM file system (/dev/shm) a write skips the disk flush that costs more
// than the write itself: about 10 ms per KV put or D1 batch, several seconds per file's setup.
// The stores are the same SQLite-backed ones either way; only where their files live changes.
try {
  accessSync('/dev/shm', constants.W_OK)
  process.env.TMPDIR = '/dev/shm'
} catch {}

// Tier 2: the worker inside workerd (real D1, KV, Cache API). Every test file has storage of its
// own, migrated and seeded by tests/worker/setup.ts.
export default defineConfig(async () => ({
  resolve: { alias: { '@shared': path.join(import.meta.dirname, 'shared') } },
  plugins: [
    cloudflareTest({
      wrangler: { configPath: './wrangler.toml' },
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: await readD1Migrations(path.join(import.meta.dirname, 'worker/db/migrations')),
          TEST_SEED: await demoSeed(),
          TOKEN_SECRET: 'test-token-secret-0123456789abcdef0123456789abcdef',
          INVALIDATE_KEY: 'test-invalidate-key',
          ENVIRONMENT: 'test',
        },
      },
    }),
  ],
  test: {
    include: ['tests/worker/**/*.test.{ts,tsx}'],
    // Two files at a time (each in its own workerd): a file's time is mostly spent waiting on
    // workerd and on module loading, so two overlap well even on two cores.
    maxWorkers: 2,
    setupFiles: ['./tests/worker/setup.ts'],
    testTimeout: 20000,
    // Expected 4xx/5xx are logged by the worker; show console output only for failing tests.
    silent: 'passed-only' as const,
    hookTimeout: 60000,
  },
}))
