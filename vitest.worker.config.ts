import { accessSync, constants, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import fsp from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin'
import { convertV4MiniflareOptions, Log, LogLevel, Miniflare } from 'miniflare'
import { defineConfig } from 'vitest/config'
import { importTs } from './scripts/lib.mjs'

/** wrangler.toml's first `key = "…"` after `[[table]]`: the ids the tests' bindings open. */
function bindingId(table: string, key: string): string {
  const toml = readFileSync(path.join(import.meta.dirname, 'wrangler.toml'), 'utf8')
  const block = toml.slice(toml.indexOf(`[[${table}]]`))
  const id = block.match(new RegExp(`^${key} = "([^"]+)"`, 'm'))?.[1]
  if (!id) throw new Error(`wrangler.toml: no ${key} in [[${table}]]`)
  return id
}

/**
 * The storage every worker test file starts from, made once per run: the migrations and the demo
 * catalogue (the same generator and SQL as `npm run seed`) written into D1 and KV by a workerd of
 * its own, whose persisted files are then copied into each file's new storage (below). Copying a
 * few megabytes of SQLite files costs milliseconds; executing the catalogue's SQL and KV puts in
 * every file cost seconds. Returns the folder holding `d1/` and `kv/`.
 */
async function seededTemplate(): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), 'worker-tests-template-'))
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
  const { noSeedCounts, seedSteps } = await importTs('scripts/catalogue/seed/write.ts')
  const { putUrlMappings, runSql } = await importTs('scripts/catalogue/seed/apply.ts')
  const steps = [...seedSteps({ pincodesAt: new Date().toISOString() }, noSeedCounts())]
  const migrations = await readD1Migrations(path.join(import.meta.dirname, 'worker/db/migrations'))
  const options = convertV4MiniflareOptions({
    modules: true,
    script: 'export default { fetch: () => new Response(null, { status: 404 }) }',
    d1Databases: { DB: bindingId('d1_databases', 'database_id') },
    kvNamespaces: { URL_MAPPINGS: bindingId('kv_namespaces', 'id') },
    log: new Log(LogLevel.WARN),
  })
  options.resourcePersistencePath = dir
  const mf = new Miniflare(options)
  try {
    const db = await mf.getD1Database('DB')
    // Every migration's statements in one D1 batch, in order (the database is new, so the record
    // of applied migrations is not needed).
    await db.batch(migrations.flatMap((m) => m.queries).map((q) => db.prepare(q)))
    await Promise.all([
      runSql(
        db,
        steps.flatMap((s) => s.sql),
      ),
      putUrlMappings(
        await mf.getKVNamespace('URL_MAPPINGS'),
        steps.flatMap((s) => s.urlMappings),
      ),
    ])
  } finally {
    await mf.dispose()
  }
  return dir
}

/**
 * Gives every test file's new storage the template's D1 and KV files. The Cloudflare test pool
 * starts one Miniflare per test file, which keeps D1 in `<tmp>/miniflare-<random>/d1` and KV in
 * `…/kv` and creates each folder just before its workerd starts; the copy is made right there, so
 * each file still has storage of its own (its writes reach only its copy). Should Miniflare stop
 * creating those folders this way, nothing is copied and tests/worker/setup.ts stops the run.
 */
function copyTemplateIntoNewStorage(template: string): void {
  const mkdir = fsp.mkdir
  fsp.mkdir = (async (dir: Parameters<typeof mkdir>[0], options?: Parameters<typeof mkdir>[1]) => {
    const made = await mkdir(dir, options)
    const store = String(dir).match(/[\\/]miniflare-[0-9a-f]{32}[\\/](d1|kv)$/)?.[1]
    if (store) cpSync(path.join(template, store), String(dir), { recursive: true })
    return made
  }) as typeof mkdir
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
// own, a copy of the migrated and seeded template (checked by tests/worker/setup.ts).
export default defineConfig(async () => {
  copyTemplateIntoNewStorage(await seededTemplate())
  return {
    resolve: { alias: { '@shared': path.join(import.meta.dirname, 'shared') } },
    plugins: [
      cloudflareTest({
        wrangler: { configPath: './wrangler.toml' },
        miniflare: {
          bindings: {
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
  }
})
