/**
 * Node entry (bundled by scripts/seed.mjs with esbuild): the demo catalogue as SQL files and KV
 * bulk-put JSON for wrangler, produced piece by piece so a large catalogue never sits in memory.
 */
import { demoPincodeStatements } from './pincodes'
import { createRecordingDb, toSql } from './sql-recorder'
import { noSeedCounts, type SeedCounts, seedSteps } from './write'

/** One file's worth of the seed: SQL for `wrangler d1 execute --file`, and URL mappings for KV. */
interface SeedChunk {
  sql: string
  kv: Array<{ key: string; value: string }>
}

/**
 * The seed SQL in chunks of roughly `maxChunkBytes` (run them in order), each with the KV entries
 * of the rows it writes; `counts` is complete once the last chunk is taken.
 */
export function* seedSqlChunks(
  opts: {
    seed?: number
    scale?: number
    maxChunkBytes?: number
    /** Products per generated slice. */
    sliceSize?: number
    /** Keep existing reviews / stock rows instead of replacing them with the demo ones. */
    keep?: { reviews?: boolean; stock?: boolean }
  } = {},
  counts: SeedCounts = noSeedCounts(),
): Generator<SeedChunk> {
  const max = opts.maxChunkBytes ?? 8_000_000
  let sql: string[] = []
  let kv: SeedChunk['kv'] = []
  let size = 0
  const steps = seedSteps({ ...opts, pincodesAt: '2026-01-01T00:00:00.000Z' }, counts)
  for (const step of steps) {
    for (const s of step.sql) {
      if (size + s.length > max && sql.length) {
        yield { sql: sql.join('\n'), kv }
        sql = []
        kv = []
        size = 0
      }
      sql.push(s)
      size += s.length + 1
    }
    for (const [key, value] of step.urlMappings) kv.push({ key, value: JSON.stringify(value) })
  }
  if (sql.length || kv.length) yield { sql: sql.join('\n'), kv }
}

/** The demo cash-on-delivery PIN codes alone, as SQL (for a local state seeded before they existed). */
export function demoPincodeSql(): string {
  const db = createRecordingDb()
  return demoPincodeStatements(db, '2026-01-01T00:00:00.000Z').map(toSql).join('\n')
}

export { noSeedCounts }
