// Runs before every worker test file: each file gets fresh storage, so it applies the migrations
// and writes the deterministic demo catalogue (D1 rows and KV URL mappings). Both are prepared
// once per run in Node (vitest.worker.config.ts: TEST_MIGRATIONS, TEST_SEED); a file only
// executes them, D1 and KV side by side.
import { env } from 'cloudflare:test'
import { putUrlMappings, runSql } from '../../scripts/catalogue/seed/apply'

// Every migration's statements in one D1 batch, in order (one round trip instead of one per
// migration; a file's database is new, so the record of applied migrations is not needed).
await env.DB.batch(env.TEST_MIGRATIONS.flatMap((m) => m.queries).map((q) => env.DB.prepare(q)))
await Promise.all([
  runSql(env.DB, env.TEST_SEED.sql),
  putUrlMappings(env.URL_MAPPINGS, env.TEST_SEED.urlMappings),
])
