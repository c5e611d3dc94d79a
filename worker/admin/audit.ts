/**
 * The audit log: every operator change writes one row (who, what, which record, before and after,
 * when) in the same batch as the change itself, so a change without its row cannot happen.
 */
import { magentoDate } from '../api/user/repo'

interface AuditEntry {
  actor: string
  action: string
  /** The record changed, as `kind:id` (e.g. `order:100000012`, `review:7`). */
  target: string
  before?: unknown
  after?: unknown
}

/**
 * The audit row of a change. With `onlyIfChanged` it is written only when the statement just before
 * it in the batch changed exactly one row (a conditional update that lost a race leaves no row);
 * with `onlyIf` only when that SQL condition (and its values) holds after the change.
 */
export function auditStatement(
  db: D1Database,
  entry: AuditEntry,
  now: number,
  opts: { onlyIfChanged?: boolean; onlyIf?: { sql: string; binds: unknown[] } } = {},
): D1PreparedStatement {
  const where = opts.onlyIfChanged ? ' WHERE changes() = 1' : opts.onlyIf ? ` WHERE ${opts.onlyIf.sql}` : ''
  return db
    .prepare(
      `INSERT INTO admin_audit (actor, action, target, before, after, created_at)
       SELECT ?, ?, ?, ?, ?, ?${where}`,
    )
    .bind(
      entry.actor,
      entry.action,
      entry.target,
      entry.before === undefined ? null : JSON.stringify(entry.before),
      entry.after === undefined ? null : JSON.stringify(entry.after),
      magentoDate(now),
      ...(opts.onlyIf && !opts.onlyIfChanged ? opts.onlyIf.binds : []),
    )
}

/**
 * The audit row of a change `actor` made to an order: action `order.<what>`, the order's number as
 * the target (`order:<number>`), what it was and became; `opts` as auditStatement's.
 */
export function orderAudit(
  db: D1Database,
  actor: string,
  what: string,
  order: { increment_id: string },
  change: { before?: unknown; after?: unknown },
  now: number,
  opts?: Parameters<typeof auditStatement>[3],
): D1PreparedStatement {
  const entry = { actor, action: `order.${what}`, target: `order:${order.increment_id}`, ...change }
  return auditStatement(db, entry, now, opts)
}

export interface AuditRow {
  id: number
  actor: string
  action: string
  target: string
  before: string | null
  after: string | null
  created_at: string
}

/** The newest audit rows, optionally of one record. */
export async function listAudit(
  db: D1Database,
  opts: { target?: string; limit?: number } = {},
): Promise<AuditRow[]> {
  const limit = Math.min(Math.max(opts.limit ?? 100, 1), 500)
  const stmt = opts.target
    ? db
        .prepare('SELECT * FROM admin_audit WHERE target = ? ORDER BY id DESC LIMIT ?')
        .bind(opts.target, limit)
    : db.prepare('SELECT * FROM admin_audit ORDER BY id DESC LIMIT ?').bind(limit)
  return (await stmt.all<AuditRow>()).results
}
