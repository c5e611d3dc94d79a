/**
 * Review moderation: the queue of pending reviews (review_status 2), approve (1: the product page
 * shows it) or reject (3). A decision applies only to a review still pending, bumps the catalogue
 * version (memoised review reads are stale at once) and purges the product's cached pages.
 */
import { magentoDate } from '../api/user/repo'
import { purgeCacheTags, purgedCount } from '../platform/cache/purge'
import { fail } from '../platform/http'
import { bumpIndexVersionStatement } from '../search/index-version'
import { auditStatement } from './audit'

const PENDING = 2
const DECISION = { approve: 1, reject: 3 } as const
type ReviewDecision = keyof typeof DECISION

export interface PendingReview {
  id: number
  product_id: number
  sku: string | null
  product_name: string | null
  title: string
  detail: string
  nickname: string
  created_at: string
}

/** The oldest pending reviews first (at most 100). */
export async function pendingReviews(db: D1Database): Promise<PendingReview[]> {
  const { results } = await db
    .prepare(
      `SELECT r.id, r.product_id, p.sku, json_extract(p.doc, '$.name') AS product_name,
         json_extract(r.doc, '$.title') AS title, json_extract(r.doc, '$.detail') AS detail,
         json_extract(r.doc, '$.nickname') AS nickname, r.created_at
       FROM reviews r LEFT JOIN products p ON p.id = r.product_id
       WHERE r.review_status = ? ORDER BY r.id LIMIT 100`,
    )
    .bind(PENDING)
    .all<PendingReview>()
  return results
}

/** Approves or rejects a pending review; 404 for none, 409 when it was already decided. */
export async function decideReview(
  env: Env,
  id: number,
  decision: ReviewDecision,
  actor: string,
  now: number,
) {
  const db = env.DB
  const status = DECISION[decision]
  const review = await db
    .prepare(
      'SELECT r.id, r.review_status, p.sku FROM reviews r LEFT JOIN products p ON p.id = r.product_id WHERE r.id = ?',
    )
    .bind(id)
    .first<{ id: number; review_status: number; sku: string | null }>()
  if (!review) return fail(404, `Review ${id} does not exist.`)
  const [update] = await db.batch([
    db
      .prepare(
        `UPDATE reviews SET review_status = ?1, doc = json_set(doc, '$.review_status', ?1, '$.moderated_at', ?2)
         WHERE id = ?3 AND review_status = ?4`,
      )
      .bind(status, magentoDate(now), id, PENDING),
    auditStatement(
      db,
      {
        actor,
        action: `review.${decision}`,
        target: `review:${id}`,
        before: { review_status: PENDING },
        after: { review_status: status },
      },
      now,
      { onlyIfChanged: true },
    ),
    // A decided review changes what the product page reads: memoised reads of the old version are stale.
    bumpIndexVersionStatement(db, { afterChange: true }),
  ])
  if (update?.meta.changes !== 1)
    return fail(409, `Review ${id} is no longer pending (status ${review.review_status}).`)
  const purged = review.sku ? purgedCount(await purgeCacheTags(env, [`P${review.sku}`])) : 0
  return { id, review_status: status, purged }
}
