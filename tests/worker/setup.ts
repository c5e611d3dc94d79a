// Runs before every worker test file: each file gets fresh storage, so apply the migrations.
import { applyD1Migrations, env } from 'cloudflare:test'

await applyD1Migrations(env.DB, env.TEST_MIGRATIONS)
