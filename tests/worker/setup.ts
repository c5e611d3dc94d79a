// Runs before every worker test file. The files of one Vitest worker share one workerd (the
// config's `isolate: false`), so before a file's first test this gives it what a new workerd
// would: storage of its own and the worker's modules evaluated afresh.
// - Storage: the file claims an unused slot (vitest.worker.config.ts copies the template migrated
//   and seeded once per run into the slot's D1 database and KV namespace), and the slot's
//   bindings replace the worker's in `env`, which the tests and SELF share. The slot's R2 bucket
//   and rate limiters are new, and `caches.default` becomes a cache named after the slot.
// - Modules: every module is evaluated again (from the code already held), so no memo or
//   module-level value of an earlier file is seen; stubbed globals and fake timers an earlier
//   file left are undone.
// A guard then proves the storage pristine: every file leaves a marker in each store after its
// last test, and a file that finds a marker (or no catalogue) stops the run.
import { env } from 'cloudflare:test'
import { afterAll } from 'vitest'
import { evaluateModulesAfresh } from '../helpers/fresh-modules'

type Bindings = Record<string, unknown> & {
  DB: D1Database
  URL_MAPPINGS: KVNamespace
  CATALOGUE_IMAGES: R2Bucket
  TEST_STORAGE: Fetcher
}
const bindings = env as unknown as Bindings
const SLOTTED = ['DB', 'URL_MAPPINGS', 'CATALOGUE_IMAGES', 'AUTH_LIMITER', 'VITALS_LIMITER', 'ORDER_LIMITER']
const MARKER = 'test_storage_marker'
const MARKER_URL = `https://marker.invalid/${MARKER}`

// The project's own modules only (worker/, shared/, tests/): packages under node_modules hold no
// state of a file's storage or requests, and evaluating them once per workerd saves their load.
evaluateModulesAfresh()

// This workerd's name for itself, kept across files (globalThis outlives module resets). The
// first file writes it into the workerd's own KV namespace, where the config finds the workerd's
// storage folder by it.
const holder = globalThis as { workerdStorageId?: string }
if (!holder.workerdStorageId) {
  holder.workerdStorageId = crypto.randomUUID()
  await bindings.URL_MAPPINGS.put('workerd-storage-probe', holder.workerdStorageId)
}
const claimed = await bindings.TEST_STORAGE.fetch(`http://storage/claim?workerd=${holder.workerdStorageId}`)
if (!claimed.ok) throw new Error(`No worker test storage slot: ${await claimed.text()}`)
const slot = await claimed.text()
for (const name of SLOTTED) {
  const own = bindings[`${name}_SLOT_${slot}`]
  if (!own) throw new Error(`vitest.worker.config.ts declares no ${name}_SLOT_${slot}`)
  bindings[name] = own
}
const cache = await caches.open(`slot-${slot}`)
Object.defineProperty(caches, 'default', { value: cache, configurable: true })

const leftovers = [
  (await bindings.DB.prepare("SELECT name FROM sqlite_master WHERE name = 'products'").first())
    ? null
    : 'no catalogue',
  (await bindings.DB.prepare(`SELECT name FROM sqlite_master WHERE name = '${MARKER}'`).first())
    ? 'D1'
    : null,
  (await bindings.URL_MAPPINGS.get(MARKER)) === null ? null : 'KV',
  (await bindings.CATALOGUE_IMAGES.head(MARKER)) === null ? null : 'R2',
  (await cache.match(MARKER_URL)) === undefined ? null : 'Cache API',
].filter(Boolean)
if (leftovers.length)
  throw new Error(
    `The worker test storage of slot ${slot} is not the pristine template (${leftovers.join(', ')}): see storageService in vitest.worker.config.ts`,
  )

afterAll(async () => {
  await bindings.DB.exec(`CREATE TABLE IF NOT EXISTS ${MARKER} (at TEXT)`)
  await bindings.URL_MAPPINGS.put(MARKER, 'written after the last test of a file')
  await bindings.CATALOGUE_IMAGES.put(MARKER, 'written after the last test of a file')
  await cache.put(MARKER_URL, new Response('marker', { headers: { 'cache-control': 'max-age=3600' } }))
})
