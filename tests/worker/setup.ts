// Runs before every worker test file: each file gets fresh storage, so apply the migrations and
// seed the deterministic demo catalogue (D1 + KV URL mappings) so every file has data (~1 s).
import { applyD1Migrations, env } from 'cloudflare:test'
import { seedDemoCatalogue } from '../../scripts/catalogue/seed/write'

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS)
await seedDemoCatalogue(env.DB, env.URL_MAPPINGS, { ifEmpty: true })
