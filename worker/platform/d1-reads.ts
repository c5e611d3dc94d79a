/**
 * One D1 round trip for the reads a request makes at the same moment.
 *
 * A page starts several reads together (the home page's product sections and CMS blocks, the
 * product page's reviews and size guide), each from its own loader. Every D1 call is a round trip
 * to the database, and its cost (the call, the answer's serialisation, the runtime's bookkeeping)
 * is per call, not per statement: a batch of four reads costs what one read costs. So `first()`
 * and `all()` of statements prepared here wait until the request's current burst of work is over
 * (the next turn of the event loop) and go to D1 as one batch.
 *
 * Rules that keep this invisible to the code that reads:
 * - each caller gets exactly what its own call would have returned (`first()`: the first row or
 *   null; `all()`: the result with its rows and meta);
 * - a batch runs as one transaction, so one failing statement fails it: then each statement runs
 *   again on its own, and only the failing one's caller sees the error;
 * - a `batch()` of reads only (statements prepared here whose SQL starts with SELECT or WITH and
 *   names no write) joins the waiting reads: its statements still run in one transaction;
 * - before any write (`run()`, a `batch()` that may write, `exec()`) the reads waiting are sent,
 *   so a read issued before a write still reaches D1 before it;
 * - `raw()` and `first(column)` are passed straight through.
 */

type Read = { kind: 'first' } | { kind: 'all' }

interface Waiting {
  statement: D1PreparedStatement
  read: Read
  resolve: (value: unknown) => void
  reject: (error: unknown) => void
}

/** SQL that only reads: a SELECT or WITH statement naming no statement that writes. */
const READ_ONLY =
  /^\s*(?:SELECT|WITH)\b(?![\s\S]*\b(?:INSERT|UPDATE|DELETE|REPLACE|CREATE|DROP|ALTER|PRAGMA)\b)/i

/** Most reads sent in one batch (a page makes a handful at once). */
const MAX_BATCH = 50

/** What a read returns, from its statement's result in a batch. */
function answer(read: Read, result: D1Result<unknown>): unknown {
  return read.kind === 'first' ? (result.results[0] ?? null) : result
}

function runAlone(item: Waiting): void {
  const run = item.read.kind === 'first' ? item.statement.first() : item.statement.all()
  run.then(item.resolve, item.reject)
}

/** `db` with concurrent reads sent together (see the module comment). */
export function coalesceReads<T extends D1Database>(db: T): T {
  let waiting: Waiting[] = []
  let timer: ReturnType<typeof setTimeout> | null = null

  const send = () => {
    if (timer !== null) clearTimeout(timer)
    timer = null
    const items = waiting
    waiting = []
    for (let i = 0; i < items.length; i += MAX_BATCH) {
      const part = items.slice(i, i + MAX_BATCH)
      if (part.length === 1) {
        runAlone(part[0] as Waiting)
        continue
      }
      db.batch(part.map((p) => p.statement)).then(
        (results) => {
          part.forEach((p, k) => {
            p.resolve(answer(p.read, results[k] as D1Result<unknown>))
          })
        },
        // One statement failed the whole batch: each runs alone, so only its caller sees it.
        () => {
          for (const p of part) runAlone(p)
        },
      )
    }
  }

  const enqueue = (statement: D1PreparedStatement, read: Read) =>
    new Promise((resolve, reject) => {
      waiting.push({ statement, read, resolve, reject })
      timer ??= setTimeout(send, 0)
    })

  /** Sends the reads waiting before a write goes out. */
  const beforeWrite = () => {
    if (waiting.length > 0) send()
  }

  /** The D1 statement behind each statement handed out, and whether its SQL only reads. */
  const inner = new WeakMap<D1PreparedStatement, { statement: D1PreparedStatement; reads: boolean }>()
  const unwrap = (s: D1PreparedStatement) => inner.get(s)?.statement ?? s

  const wrap = (statement: D1PreparedStatement, reads: boolean): D1PreparedStatement => {
    const wrapped: D1PreparedStatement = {
      bind: (...values: unknown[]) => wrap(statement.bind(...values), reads),
      first: ((column?: string) =>
        column === undefined
          ? enqueue(statement, { kind: 'first' })
          : statement.first(column)) as D1PreparedStatement['first'],
      all: (() => enqueue(statement, { kind: 'all' })) as D1PreparedStatement['all'],
      run: ((...args: []) => {
        beforeWrite()
        return statement.run(...args)
      }) as D1PreparedStatement['run'],
      raw: statement.raw.bind(statement) as D1PreparedStatement['raw'],
    }
    inner.set(wrapped, { statement, reads })
    return wrapped
  }

  return new Proxy(db, {
    get(target, key) {
      if (key === 'prepare') return (sql: string) => wrap(target.prepare(sql), READ_ONLY.test(sql))
      if (key === 'batch')
        return (statements: D1PreparedStatement[]) => {
          if (statements.length > 0 && statements.every((s) => inner.get(s)?.reads === true))
            return Promise.all(statements.map((s) => enqueue(unwrap(s), { kind: 'all' })))
          beforeWrite()
          return target.batch(statements.map(unwrap))
        }
      if (key === 'exec')
        return (sql: string) => {
          beforeWrite()
          return target.exec(sql)
        }
      const value = Reflect.get(target, key)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}
