// The soak run and the benchmark seed D1 inside workerd from the migration files, one statement
// per prepare() (tests/helpers/workerd.mjs): D1 refuses a text holding more than one statement, and
// reads a comment after a statement's ';' as a second, empty one.
import { describe, expect, it } from 'vitest'
import { migrationStatements, splitSql } from '../../../helpers/workerd.mjs'

describe('migration statements for seeding inside workerd', () => {
  it('leave a comment after the closing semicolon out of the statement', () => {
    const statements: string[] = splitSql(
      [
        '-- leading comment',
        'ALTER TABLE orders ADD COLUMN body_hash TEXT;       -- a digest',
        'CREATE TABLE t (',
        '  a INTEGER, -- inside',
        '  b TEXT',
        ');  -- after',
        'CREATE TRIGGER tr AFTER INSERT ON t BEGIN',
        '  UPDATE t SET b = 1; -- inside the trigger',
        'END; -- after the trigger',
      ].join('\n'),
    )
    expect(statements).toHaveLength(3)
    for (const s of statements) expect(s.trim()).toMatch(/;$/)
    expect(statements[0]).toBe('ALTER TABLE orders ADD COLUMN body_hash TEXT;')
    expect(statements[2]).toContain('-- inside the trigger')
  })

  it('every statement of the real migrations ends at its semicolon', () => {
    expect(migrationStatements.length).toBeGreaterThan(10)
    for (const s of migrationStatements as string[]) expect(s.trim()).toMatch(/;$/)
  })
})
