/**
 * A D1 database that records what is asked of it: every SQL text prepared (`sql`) and the number of
 * batches sent (`batches`); everything else goes through unchanged.
 */
export function recordingDb(db: D1Database) {
  const sql: string[] = []
  const seen = { batches: 0 }
  const wrapped = new Proxy(db, {
    get(target, key) {
      if (key === 'prepare')
        return (text: string) => {
          sql.push(text)
          return target.prepare(text)
        }
      if (key === 'batch')
        return (statements: D1PreparedStatement[]) => {
          seen.batches++
          return target.batch(statements)
        }
      const v = Reflect.get(target, key)
      return typeof v === 'function' ? v.bind(target) : v
    },
  })
  return { db: wrapped, sql, seen }
}

/** A statement as the wrappers below hand it out: the real statement and its SQL text. */
interface Inner {
  statement: D1PreparedStatement
  sql: string
}

/**
 * `db` with each prepared statement replaced by `wrap(statement, sql)` (its `bind` wrapped again)
 * and each batch by `batch(target, list, inner)`, where `target` is the database or session asked
 * and `inner` gives a wrapped statement's real one; a session opened on it is wrapped the same
 * way. Everything else goes through unchanged.
 */
function wrappedDb<T extends object>(
  db: T,
  wrap: (statement: D1PreparedStatement, sql: string) => Record<string, unknown>,
  batch: (
    target: D1Database,
    list: D1PreparedStatement[],
    inner: (s: D1PreparedStatement) => Inner | undefined,
  ) => unknown,
): T {
  const inner = new WeakMap<object, Inner>()
  const statement = (s: D1PreparedStatement, sql: string): D1PreparedStatement => {
    const w = {
      ...wrap(s, sql),
      bind: (...v: unknown[]) => statement(s.bind(...v), sql),
    } as unknown as D1PreparedStatement
    inner.set(w, { statement: s, sql })
    return w
  }
  const database = <U extends object>(target: U): U =>
    new Proxy(target, {
      get(t, key) {
        const real = t as unknown as D1Database
        if (key === 'prepare') return (sql: string) => statement(real.prepare(sql), sql)
        if (key === 'batch') return (list: D1PreparedStatement[]) => batch(real, list, (s) => inner.get(s))
        if (key === 'withSession') return (start?: string) => database(real.withSession(start))
        const v = Reflect.get(t, key)
        return typeof v === 'function' ? v.bind(t) : v
      },
    })
  return database(db)
}

/**
 * `db` counting its round trips: each first/all/run/raw of a statement and each batch is one call
 * to the database. Sessions opened on it count into the same total. `calls` names each trip by the
 * start of its statements' SQL (for a failing test's message).
 */
export function countingDb(db: D1Database) {
  const seen = { trips: 0 }
  const calls: string[] = []
  const label = (sql: string) => sql.replace(/\s+/g, ' ').trim().slice(0, 60)
  const wrapped = wrappedDb(
    db,
    (s, sql) => {
      const counted =
        (fn: (...a: never[]) => unknown) =>
        (...a: never[]) => {
          seen.trips++
          calls.push(label(sql))
          return fn.apply(s, a)
        }
      return {
        first: counted(s.first as never),
        all: counted(s.all as never),
        run: counted(s.run as never),
        raw: counted(s.raw as never),
      }
    },
    (target, list, inner) => {
      seen.trips++
      calls.push(`batch[${list.map((s) => label(inner(s)?.sql ?? '?').slice(0, 30)).join(' | ')}]`)
      return target.batch(list.map((s) => inner(s)?.statement ?? s))
    },
  )
  return { db: wrapped, seen, calls }
}

/**
 * `db` recording the rows each statement read (D1's `meta.rows_read`) with its SQL, in `reads`:
 * every all/run of a statement and each statement of a batch. `first()` is answered through
 * `all()` (its first row, or null) so that its rows are counted too; `first(column)` and `raw()`
 * go through unrecorded. Sessions opened on it record into the same list.
 */
export function rowsReadDb(db: D1Database) {
  const reads: { sql: string; rowsRead: number }[] = []
  const note = (sql: string, result: D1Result<unknown> | D1Response) =>
    reads.push({ sql: sql.replace(/\s+/g, ' ').trim(), rowsRead: result.meta.rows_read ?? 0 })
  const wrapped = wrappedDb(
    db,
    (s, sql) => ({
      all: async () => {
        const r = await s.all()
        note(sql, r)
        return r
      },
      run: async () => {
        const r = await s.run()
        note(sql, r)
        return r
      },
      first: async (column?: string) => {
        if (column !== undefined) return s.first(column)
        const r = await s.all()
        note(sql, r)
        return r.results[0] ?? null
      },
      raw: (...a: never[]) => (s.raw as (...x: never[]) => unknown)(...a),
    }),
    async (target, list, inner) => {
      const results = await target.batch(list.map((s) => inner(s)?.statement ?? s))
      results.forEach((r, i) => {
        note(inner(list[i] as D1PreparedStatement)?.sql ?? '?', r)
      })
      return results
    },
  )
  return { db: wrapped, reads }
}

/**
 * `db` recording the row each `first()` of a statement answered, with its SQL, in `answers`.
 * Sessions opened on it record into the same list; batches go through unrecorded.
 */
export function answersDb(db: D1Database) {
  const answers: { sql: string; row: Record<string, unknown> | null }[] = []
  const wrapped = wrappedDb(
    db,
    (s, sql) => ({
      first: async (column?: string) => {
        if (column !== undefined) return s.first(column)
        const row = await s.first<Record<string, unknown>>()
        answers.push({ sql, row })
        return row
      },
      all: (...a: never[]) => (s.all as (...x: never[]) => unknown)(...a),
      run: (...a: never[]) => (s.run as (...x: never[]) => unknown)(...a),
      raw: (...a: never[]) => (s.raw as (...x: never[]) => unknown)(...a),
    }),
    (target, list, inner) => target.batch(list.map((s) => inner(s)?.statement ?? s)),
  )
  return { db: wrapped, answers }
}
