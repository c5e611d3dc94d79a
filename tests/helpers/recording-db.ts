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
