// Runs before every worker test file: each file gets fresh storage, so it applies the migrations
// and writes the deterministic demo catalogue (D1 rows and KV URL mappings). Both are prepared
// once per run in Node (vitest.worker.config.ts: TEST_MIGRATIONS, TEST_SEED); a file only
// executes them, D1 and KV side by side.
import { applyD1Migrations, env } from 'cloudflare:test'
import { putUrlMappings, runSql } from '../../scripts/catalogue/seed/apply'

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS)
await Promise.all([
  runSql(env.DB, env.TEST_SEED.sql),
  putUrlMappings(env.URL_MAPPINGS, env.TEST_SEED.urlMappings),
])
