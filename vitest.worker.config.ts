import { createHash, createHmac } from 'node:crypto'
import {
  accessSync,
  constants,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin'
import { convertV4MiniflareOptions, Log, LogLevel, Miniflare, type Request, Response } from 'miniflare'
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
/** The rate limiters of wrangler.toml's top level: binding name → namespace id and limits. */
function rateLimiters(): Record<
  string,
  { namespace_id: string; simple: { limit: number; period: 10 | 60 } }
> {
  const toml = readFileSync(path.join(import.meta.dirname, 'wrangler.toml'), 'utf8')
  const topLevel = toml.slice(0, toml.search(/^\[env\./m))
  const limiters: ReturnType<typeof rateLimiters> = {}
  for (const block of topLevel.split('[[ratelimits]]').slice(1)) {
    const name = block.match(/^name = "([^"]+)"/m)?.[1]
    const id = block.match(/^namespace_id = "([^"]+)"/m)?.[1]
    const simple = block.match(/^simple = \{ limit = (\d+), period = (\d+) \}/m)
    if (!name || !id || !simple)
      throw new Error('wrangler.toml: a [[ratelimits]] block this config cannot read')
    limiters[name] = {
      namespace_id: id,
      simple: { limit: Number(simple[1]), period: Number(simple[2]) as 10 | 60 },
    }
  }
  return limiters
}

/**
 * How many test files one workerd can run: each takes a storage slot of its own, never reused,
 * and a workerd never runs more files than the tier has.
 */
const SLOTS = readdirSync(path.join(import.meta.dirname, 'tests/worker'), {
  recursive: true,
  encoding: 'utf8',
}).filter((f) => /\.test\.tsx?$/.test(f)).length

/**
 * A storage slot's bindings: its own D1 database, KV namespace, R2 bucket and rate limiters,
 * under names that tests/worker/setup.ts puts in place of the worker's (`DB` ← `DB_SLOT_<k>`).
 */
function slotBindings(): {
  d1Databases: Record<string, string>
  kvNamespaces: Record<string, string>
  r2Buckets: Record<string, string>
  ratelimits: ReturnType<typeof rateLimiters>
} {
  const slots = [...Array(SLOTS).keys()]
  const limiters = Object.entries(rateLimiters())
  return {
    d1Databases: Object.fromEntries(slots.map((k) => [`DB_SLOT_${k}`, `worker-test-slot-${k}`])),
    kvNamespaces: Object.fromEntries(slots.map((k) => [`URL_MAPPINGS_SLOT_${k}`, `worker-test-slot-${k}`])),
    r2Buckets: Object.fromEntries(slots.map((k) => [`CATALOGUE_IMAGES_SLOT_${k}`, `worker-test-slot-${k}`])),
    ratelimits: Object.fromEntries(
      slots.flatMap((k) =>
        limiters.map(([name, limiter]) => [
          `${name}_SLOT_${k}`,
          { ...limiter, namespace_id: `${limiter.namespace_id}-slot-${k}` },
        ]),
      ),
    ),
  }
}

/** The files of the storage made once per run, and where each slot's copy of them goes. */
type Template = {
  /** Folder holding `d1/` and `kv/` as the seeding workerd left them. */
  dir: string
  /** The seeded database's and namespace's SQLite files (without `-wal`/`-shm`), under `dir`. */
  d1File: string
  kvFile: string
  /** Every slot's SQLite file names, which Miniflare derives from the database or namespace id. */
  slotD1Files: string[]
  slotKvFiles: string[]
}

const D1_OBJECTS = 'd1/miniflare-D1DatabaseObject'
const KV_OBJECTS = 'kv/miniflare-KVNamespaceObject'

/** The `*.sqlite` files of one Durable Object namespace folder, without the namespace's own. */
function objectFiles(dir: string): Set<string> {
  if (!existsSync(dir)) return new Set()
  return new Set(readdirSync(dir).filter((f) => f.endsWith('.sqlite') && f !== 'metadata.sqlite'))
}

/**
 * The SQLite file Miniflare gives a D1 database's or KV namespace's storage: the hex id of the
 * Durable Object that holds it, plus `.sqlite`. workerd derives the id from the object class's
 * unique key and the database or namespace id as `idFromName` does: the key is the SHA-256 of the
 * unique key, the id's first half the HMAC-SHA-256 of the name under that key, its second half the
 * HMAC of the first, each cut to 16 bytes. seededTemplate checks the rule against the files its own
 * workerd wrote, so a workerd that derives ids another way stops the run with that message.
 */
function objectFileName(objectClass: 'D1DatabaseObject' | 'KVNamespaceObject', id: string): string {
  const key = createHash('sha256').update(`miniflare-${objectClass}`).digest()
  const first = createHmac('sha256', key).update(id).digest().subarray(0, 16)
  const mac = createHmac('sha256', key).update(first).digest().subarray(0, 16)
  return `${Buffer.concat([first, mac]).toString('hex')}.sqlite`
}

/**
 * The storage every worker test file starts from, made once per run: the migrations and the demo
 * catalogue (the same generator and SQL as `npm run seed`) written into D1 and KV by a workerd of
 * its own. Its persisted files are copied into each test file's storage slot when the file claims
 * it (below): copying a few megabytes of SQLite files costs milliseconds, executing the
 * catalogue's SQL and KV puts cost seconds. Each slot's file names are derived from its database
 * and namespace ids (objectFileName), not learnt by opening every slot.
 */
async function seededTemplate(): Promise<Template> {
  const dir = mkdtempSync(path.join(tmpdir(), 'worker-tests-template-'))
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }))
  const { noSeedCounts, seedSteps } = await importTs('scripts/catalogue/seed/write.ts')
  const { putUrlMappings, runSql } = await importTs('scripts/catalogue/seed/apply.ts')
  const steps = [...seedSteps({ pincodesAt: new Date().toISOString() }, noSeedCounts())]
  const migrations = await readD1Migrations(path.join(import.meta.dirname, 'worker/db/migrations'))
  const slots = slotBindings()
  const databaseId = bindingId('d1_databases', 'database_id')
  const namespaceId = bindingId('kv_namespaces', 'id')
  const options = convertV4MiniflareOptions({
    modules: true,
    script: 'export default { fetch: () => new Response(null, { status: 404 }) }',
    d1Databases: { DB: databaseId },
    kvNamespaces: { URL_MAPPINGS: namespaceId },
    log: new Log(LogLevel.WARN),
  })
  options.resourcePersistencePath = dir
  const seeding = new Miniflare(options)
  try {
    const db = await seeding.getD1Database('DB')
    // Every migration's statements in one D1 batch, in order (the database is new, so the record
    // of applied migrations is not needed).
    await db.batch(migrations.flatMap((m) => m.queries).map((q) => db.prepare(q)))
    await Promise.all([
      runSql(
        db,
        steps.flatMap((s) => s.sql),
      ),
      putUrlMappings(
        await seeding.getKVNamespace('URL_MAPPINGS'),
        steps.flatMap((s) => s.urlMappings),
      ),
    ])
  } finally {
    await seeding.dispose()
  }
  const d1File = only([...objectFiles(path.join(dir, D1_OBJECTS))], 'the seeded D1 database')
  const kvFile = only([...objectFiles(path.join(dir, KV_OBJECTS))], 'the seeded KV namespace')
  if (
    d1File !== objectFileName('D1DatabaseObject', databaseId) ||
    kvFile !== objectFileName('KVNamespaceObject', namespaceId)
  )
    throw new Error(
      `This workerd names its storage files another way (${d1File}, ${kvFile}): vitest.worker.config.ts objectFileName needs its rule`,
    )
  return {
    dir,
    d1File,
    kvFile,
    slotD1Files: Object.values(slots.d1Databases).map((id) => objectFileName('D1DatabaseObject', id)),
    slotKvFiles: Object.values(slots.kvNamespaces).map((id) => objectFileName('KVNamespaceObject', id)),
  }
}

function only(files: string[], what: string): string {
  const [file, ...more] = files
  if (!file || more.length) throw new Error(`Expected one SQLite file for ${what}, found ${files.length}`)
  return file
}

/** A SQLite file and its `-wal`/`-shm` companions, copied under a new name where they exist. */
function copySqlite(from: string, to: string): void {
  for (const suffix of ['', '-wal', '-shm']) if (existsSync(from + suffix)) cpSync(from + suffix, to + suffix)
}

/**
 * The storage root (`<tmp>/miniflare-<random>`) of the workerd that wrote `probe` as a value in
 * its URL_MAPPINGS namespace: KV keeps each value as a file of its own.
 */
function findStorageRoot(probe: string): string | undefined {
  const namespace = bindingId('kv_namespaces', 'id')
  for (const entry of readdirSync(tmpdir())) {
    if (!/^miniflare-[0-9a-f]{32}$/.test(entry)) continue
    const blobs = path.join(tmpdir(), entry, 'kv', namespace, 'blobs')
    if (!existsSync(blobs)) continue
    for (const f of readdirSync(blobs)) {
      const file = path.join(blobs, f)
      if (statSync(file).size === probe.length && readFileSync(file, 'utf8') === probe)
        return path.join(tmpdir(), entry)
    }
  }
  return undefined
}

/**
 * The TEST_STORAGE service binding, run in Node. `/claim?workerd=<id>` gives the test file that
 * asks the next unused slot of its workerd (found by the probe `<id>`, see tests/worker/setup.ts):
 * it copies the template's D1 and KV files in under that slot's names, which no one has opened
 * yet, and answers the slot's number. Slots are never reused, so a file never sees another's
 * writes; R2, the rate limiters and the Cache API's named cache start empty for a new slot.
 */
function storageService(template: Template): (request: Request) => Promise<Response> {
  const workerds = new Map<string, { root: string; next: number }>()
  return async (request) => {
    const id = new URL(request.url).searchParams.get('workerd') ?? ''
    let workerd = workerds.get(id)
    if (!workerd) {
      const root = findStorageRoot(id)
      if (!root) return new Response(`No workerd storage holds the probe ${id}`, { status: 404 })
      workerd = { root, next: 0 }
      workerds.set(id, workerd)
    }
    const slot = workerd.next++
    const d1File = template.slotD1Files[slot]
    const kvFile = template.slotKvFiles[slot]
    if (!d1File || !kvFile)
      return new Response(`All ${SLOTS} storage slots of this workerd are used`, { status: 409 })
    const { root } = workerd
    mkdirSync(path.join(root, D1_OBJECTS), { recursive: true })
    mkdirSync(path.join(root, KV_OBJECTS), { recursive: true })
    copySqlite(path.join(template.dir, D1_OBJECTS, template.d1File), path.join(root, D1_OBJECTS, d1File))
    copySqlite(path.join(template.dir, KV_OBJECTS, template.kvFile), path.join(root, KV_OBJECTS, kvFile))
    cpSync(
      path.join(template.dir, 'kv', bindingId('kv_namespaces', 'id'), 'blobs'),
      path.join(root, 'kv', `worker-test-slot-${slot}`, 'blobs'),
      { recursive: true },
    )
    return new Response(String(slot))
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

// Tier 2: the worker inside workerd (real D1, KV, Cache API). The test files of one Vitest worker
// share a workerd (`isolate: false`), and each file still has storage of its own: a slot holding
// a copy of the migrated and seeded template (tests/worker/setup.ts claims it and checks it).
export default defineConfig(async () => {
  const template = await seededTemplate()
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
          ...slotBindings(),
          serviceBindings: { TEST_STORAGE: storageService(template) },
        },
      }),
    ],
    test: {
      include: ['tests/worker/**/*.test.{ts,tsx}'],
      // Two workerds, each running file after file: a file's time is mostly spent waiting on
      // workerd and on module loading, so two overlap well even on two cores.
      maxWorkers: 2,
      isolate: false,
      setupFiles: ['./tests/worker/setup.ts'],
      testTimeout: 20000,
      // Expected 4xx/5xx are logged by the worker; show console output only for failing tests.
      silent: 'passed-only' as const,
      hookTimeout: 60000,
    },
  }
})
