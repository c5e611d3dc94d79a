/**
 * Review moderation: the queue of pending reviews (review_status 2), approve (1: the product page
 * shows it) or reject (3), and deleting a review whatever its state. A decision applies only to a
 * review still pending. Every change recomputes the product's `rating_summary` and `review_count`
 * (what tiles, listings and JSON-LD read) from its approved reviews in the change's own batch,
 * bumps the catalogue version (memoised reads are stale at once) and purges every cached page
 * that shows the product: its page, its categories' listings and search results. The product's
 * `fit_summary` (how many approved reviews say it runs small, true to size, large) is written in
 * the same statement as its rating. Approving a review first makes its photographs public (they
 * wait in the `review-pending/` area until then, unseen by shoppers).
 */

import type { Context } from 'hono'
import { pendingPhotoKey, publishPhotos } from '../api/review/photos'
import { magentoDate } from '../api/user/repo'
import { fail } from '../platform/http'
import { bumpIndexVersionStatement } from '../search'
import { auditStatement } from './audit'
import { purgeProduct } from './catalogue'
import type { AdminEnv } from './env'

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
  /** The review's photographs' public paths (a JSON array), or null. */
  photos: string | null
  fit: string | null
  verified_buyer: number | null
}

const REVIEW_COLUMNS = `r.id, r.product_id, p.sku, json_extract(p.doc, '$.name') AS product_name,
  json_extract(r.doc, '$.title') AS title, json_extract(r.doc, '$.detail') AS detail,
  json_extract(r.doc, '$.nickname') AS nickname, r.created_at, json_extract(r.doc, '$.photos') AS photos,
  json_extract(r.doc, '$.fit') AS fit, json_extract(r.doc, '$.verified_buyer') AS verified_buyer
  FROM reviews r LEFT JOIN products p ON p.id = r.product_id`

/** The oldest pending reviews first (at most 100). */
export async function pendingReviews(db: D1Database): Promise<PendingReview[]> {
  const { results } = await db
    .prepare(`SELECT ${REVIEW_COLUMNS} WHERE r.review_status = ? ORDER BY r.id LIMIT 100`)
    .bind(PENDING)
    .all<PendingReview>()
  return results
}

/** The newest approved reviews first (at most 50): the ones shoppers see, which an operator may delete. */
export async function publishedReviews(db: D1Database): Promise<PendingReview[]> {
  const { results } = await db
    .prepare(`SELECT ${REVIEW_COLUMNS} WHERE r.review_status = ? ORDER BY r.id DESC LIMIT 50`)
    .bind(DECISION.approve)
    .all<PendingReview>()
  return results
}

/**
 * The stars one stored review gives, in SQL over its `doc`: its first rating's value when it is
 * 1–5, else that rating's percent / 20 when it is in (0, 100], else NULL (a review without stars).
 * The same reading the product page makes of the reviews it shows.
 */
const REVIEW_STARS = `CASE
  WHEN CAST(json_extract(doc, '$.ratings[0].value') AS REAL) BETWEEN 1 AND 5
    THEN CAST(json_extract(doc, '$.ratings[0].value') AS REAL)
  WHEN CAST(json_extract(doc, '$.ratings[0].percent') AS REAL) > 0
   AND CAST(json_extract(doc, '$.ratings[0].percent') AS REAL) <= 100
    THEN CAST(json_extract(doc, '$.ratings[0].percent') AS REAL) / 20
END`

/**
 * The statement that writes a product's rating from its approved reviews: the average of their
 * stars to one decimal (null when none gives stars), how many give stars, and how many give each
 * fit answer. With `afterChange`
 * it runs only when the statement just before it in the batch changed a row.
 */
function ratingSummaryStatement(db: D1Database, productId: number, opts: { afterChange: boolean }) {
  return db
    .prepare(
      `UPDATE products SET doc = json_set(doc,
         '$.rating_summary', (SELECT round(avg(s) * 10) / 10.0 FROM (SELECT ${REVIEW_STARS} AS s
            FROM reviews WHERE product_id = ?1 AND review_status = 1)),
         '$.review_count', (SELECT count(s) FROM (SELECT ${REVIEW_STARS} AS s
            FROM reviews WHERE product_id = ?1 AND review_status = 1)),
         '$.fit_summary', (SELECT json_object(
            'small', coalesce(sum(f = 'small'), 0),
            'true_to_size', coalesce(sum(f = 'true_to_size'), 0),
            'large', coalesce(sum(f = 'large'), 0))
            FROM (SELECT json_extract(doc, '$.fit') AS f FROM reviews WHERE product_id = ?1 AND review_status = 1)))
       WHERE id = ?1${opts.afterChange ? ' AND changes() = 1' : ''}`,
    )
    .bind(productId)
}

interface ReviewTarget {
  id: number
  review_status: number
  product_id: number
  sku: string | null
  product_doc: string | null
  photos: string | null
}

async function reviewTarget(db: D1Database, id: number): Promise<ReviewTarget | null> {
  return db
    .prepare(
      `SELECT r.id, r.review_status, r.product_id, p.sku, p.doc AS product_doc,
         json_extract(r.doc, '$.photos') AS photos
       FROM reviews r LEFT JOIN products p ON p.id = r.product_id WHERE r.id = ?`,
    )
    .bind(id)
    .first<ReviewTarget>()
}

/** Purges every cached page that shows the review's product (none when the product is gone). */
async function purgeReviewed(env: Env, review: ReviewTarget): Promise<number> {
  return review.product_doc ? purgeProduct(env, JSON.parse(review.product_doc) as Record<string, unknown>) : 0
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
  const review = await reviewTarget(db, id)
  if (!review) return fail(404, `Review ${id} does not exist.`)
  // Public before the review is: a page rendered after the batch never names a missing picture.
  if (decision === 'approve' && review.review_status === PENDING && review.photos)
    await publishPhotos(env.CATALOGUE_IMAGES, JSON.parse(review.photos) as string[])
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
    ratingSummaryStatement(db, review.product_id, { afterChange: true }),
    // A decided review changes what the product page and its tiles read: memoised reads of the old version are stale.
    bumpIndexVersionStatement(db, { afterChange: true }),
  ])
  if (update?.meta.changes !== 1)
    return fail(409, `Review ${id} is no longer pending (status ${review.review_status}).`)
  return { id, review_status: status, purged: await purgeReviewed(env, review) }
}

/** Deletes a review in any state; 404 for none (a second delete of the same review included). */
export async function deleteReview(env: Env, id: number, actor: string, now: number) {
  const db = env.DB
  const review = await reviewTarget(db, id)
  if (!review) return fail(404, `Review ${id} does not exist.`)
  const [removed] = await db.batch([
    db.prepare('DELETE FROM reviews WHERE id = ?').bind(id),
    auditStatement(
      db,
      {
        actor,
        action: 'review.delete',
        target: `review:${id}`,
        before: { review_status: review.review_status, product_id: review.product_id },
      },
      now,
      { onlyIfChanged: true },
    ),
    ratingSummaryStatement(db, review.product_id, { afterChange: true }),
    bumpIndexVersionStatement(db, { afterChange: true }),
  ])
  if (removed?.meta.changes !== 1) return fail(404, `Review ${id} does not exist.`)
  return { id, deleted: true, purged: await purgeReviewed(env, review) }
}

/**
 * A review's photograph for the moderator (`abc….jpg`): the waiting copy while its review is
 * pending, else the public one; 404 when neither exists. Never cached: a rejected review's
 * picture must not linger anywhere.
 */
export async function reviewPhoto(c: Context<AdminEnv>, file: string): Promise<Response> {
  const bucket = c.env.CATALOGUE_IMAGES
  const object =
    (await bucket.get(pendingPhotoKey(file.replace(/\..*$/, '')))) ?? (await bucket.get(`r/${file}`))
  if (!object) return c.text('No such photograph', 404)
  return c.body(object.body, 200, {
    'content-type': object.httpMetadata?.contentType ?? 'application/octet-stream',
    'cache-control': 'private, no-store',
    'x-content-type-options': 'nosniff',
  })
}
