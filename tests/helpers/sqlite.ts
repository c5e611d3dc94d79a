/**
 * An in-memory SQLite database (Node's node:sqlite) with every D1 migration applied, for unit tests
 * that run the seed's SQL without workerd.
 */
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'

const migrationsDir = path.resolve(import.meta.dirname, '../../worker/db/migrations')

export function migratedDb(): DatabaseSync {
  const db = new DatabaseSync(':memory:')
  for (const file of readdirSync(migrationsDir)
    .filter((f) => f.endsWith('.sql'))
    .sort())
    db.exec(readFileSync(path.join(migrationsDir, file), 'utf8'))
  return db
}
