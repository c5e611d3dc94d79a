// What `npm start` reads from a local state dir without starting wrangler (scripts/lib.mjs): the
// rows of its local D1 database, and whether every migration file is recorded as applied there. A
// start skips `wrangler d1 migrations apply` only on a yes, so a new migration file must give no.
// A first start applies the migrations as one file of what wrangler runs for each of them.
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  localMigrationsApplied,
  noLocalD1,
  pendingMigrationsSql,
  queryLocalD1,
} from '../../../scripts/lib.mjs'

const MIGRATIONS = readdirSync(path.resolve(import.meta.dirname, '../../../worker/db/migrations'))
  .filter((f) => f.endsWith('.sql'))
  .sort()

let state: string

/** A state dir laid out as wrangler dev keeps it, its D1 database holding the given migrations. */
function localDatabase(applied: string[], file = 'c0ffee.sqlite'): void {
  const dir = path.join(state, 'v3/d1/miniflare-D1DatabaseObject')
  mkdirSync(dir, { recursive: true })
  const db = new DatabaseSync(path.join(dir, file))
  db.exec('CREATE TABLE IF NOT EXISTS d1_migrations (id INTEGER PRIMARY KEY, name TEXT UNIQUE)')
  const insert = db.prepare('INSERT INTO d1_migrations (name) VALUES (?)')
  for (const name of applied) insert.run(name)
  db.close()
}

beforeEach(() => {
  state = mkdtempSync(path.join(tmpdir(), 'local-state-'))
})
afterEach(() => rmSync(state, { recursive: true, force: true }))

describe('a local state dir read without wrangler', () => {
  it('answers yes when every migration file is recorded as applied', async () => {
    localDatabase(MIGRATIONS)
    expect(await localMigrationsApplied(state)).toBe(true)
    expect(await queryLocalD1(state, 'SELECT COUNT(*) AS n FROM d1_migrations')).toEqual([
      { n: MIGRATIONS.length },
    ])
  })

  it('answers no when a migration file is not recorded yet (the newest one)', async () => {
    localDatabase(MIGRATIONS.slice(0, -1))
    expect(await localMigrationsApplied(state)).toBe(false)
  })

  it('cannot say (so wrangler is asked) with no database, two databases, or a missing table', async () => {
    expect(await queryLocalD1(state, 'SELECT 1 AS n')).toBeUndefined()
    expect(await localMigrationsApplied(state)).toBe(false)
    localDatabase(MIGRATIONS)
    localDatabase(MIGRATIONS, 'beef.sqlite')
    expect(await queryLocalD1(state, 'SELECT 1 AS n')).toBeUndefined()
    expect(await localMigrationsApplied(state)).toBe(false)
    rmSync(path.join(state, 'v3/d1/miniflare-D1DatabaseObject/beef.sqlite'))
    expect(await queryLocalD1(state, 'SELECT COUNT(*) AS n FROM products')).toBeUndefined()
  })
})

describe("a first start's migrations as one file", () => {
  /** The state's database with `sql` executed in it, as `wrangler d1 execute --file` would. */
  function execute(sql: string, file = 'c0ffee.sqlite'): void {
    const dir = path.join(state, 'v3/d1/miniflare-D1DatabaseObject')
    mkdirSync(dir, { recursive: true })
    const db = new DatabaseSync(path.join(dir, file))
    db.exec(sql)
    db.close()
  }

  it('records every migration in order, as wrangler does, so nothing is pending after it', async () => {
    expect(noLocalD1(state)).toBe(true)
    execute(pendingMigrationsSql())
    expect(noLocalD1(state)).toBe(false)
    expect(await localMigrationsApplied(state)).toBe(true)
    const rows = (await queryLocalD1(state, 'SELECT name FROM d1_migrations ORDER BY id')) ?? []
    expect(rows.map((r) => r.name)).toEqual(MIGRATIONS)
    expect(pendingMigrationsSql(new Set(MIGRATIONS))).toBe('')
    // The schema the migrations make is there (the catalogue's table, the newest migration's too).
    expect(await queryLocalD1(state, 'SELECT COUNT(*) AS n FROM products')).toEqual([{ n: 0 }])
  })

  it('holds only the migrations not applied yet, each followed by the row recording it', () => {
    const newest = MIGRATIONS.at(-1) as string
    const read = (name: string) => `-- the SQL of ${name}`
    const sql = pendingMigrationsSql(new Set(MIGRATIONS.slice(0, -1)), read)
    expect(sql).toContain(
      `-- the SQL of ${newest}\nINSERT INTO "d1_migrations" (name)\nvalues ('${newest}');`,
    )
    expect(sql).not.toContain(`-- the SQL of ${MIGRATIONS[0]}`)
    expect(sql.startsWith('CREATE TABLE IF NOT EXISTS "d1_migrations"(')).toBe(true)
  })
})
