import path from 'node:path'
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin'
import { defineConfig } from 'vitest/config'

// Tier 2: the worker inside workerd (real D1, KV, Cache API), migrations applied per test file.
export default defineConfig(async () => ({
  resolve: { alias: { '@shared': path.join(import.meta.dirname, 'shared') } },
  plugins: [
    cloudflareTest({
      wrangler: { configPath: './wrangler.toml' },
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: await readD1Migrations(path.join(import.meta.dirname, 'worker/db/migrations')),
          TOKEN_SECRET: 'test-token-secret-0123456789abcdef0123456789abcdef',
          INVALIDATE_KEY: 'test-invalidate-key',
          ENVIRONMENT: 'test',
        },
      },
    }),
  ],
  test: {
    include: ['tests/worker/**/*.test.{ts,tsx}'],
    setupFiles: ['./tests/worker/setup.ts'],
    testTimeout: 20000,
    // Expected 4xx/5xx are logged by the worker; show console output only for failing tests.
    silent: 'passed-only' as const,
    hookTimeout: 60000,
  },
}))
