// Runs before every worker test file. Each file's D1 and KV start as a copy of storage migrated and
// seeded with the deterministic demo catalogue once per run (vitest.worker.config.ts); this checks
// that the copy is there, so a file never runs against an empty shop by mistake.
import { env } from 'cloudflare:test'

const seeded = await env.DB.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'products'")
  .first<{ n: number }>()
  .catch(() => null)
if (!seeded?.n)
  throw new Error(
    'The worker test storage was not copied from the seeded template: see copyTemplateIntoNewStorage in vitest.worker.config.ts',
  )
