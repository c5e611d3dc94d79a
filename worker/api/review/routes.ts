/**
 * /api/review/*:
 *   POST /create {review:{product_id, title, detail, nickname, review_entity, customer_id?, rating?,
 *                 fit?, photos?}}
 *   POST /photo  a photograph for a review (./photos.ts)
 * Stored in the catalogue's `reviews` table with review_status 2 (pending); listings show
 * approved (1) only. `rating` (whole stars 1–5) is kept as the review's first rating, the one
 * the product's average is computed from once the review is approved. `fit` is how the piece fits
 * (runs small, true to size, runs large); `photos` are up to MAX_REVIEW_PHOTOS paths answered by
 * /photo (each must have been uploaded). customer_id comes from the token: a different one in the
 * body → 403. A signed-in reviewer with a delivered (or closed) order of the product, or of one of
 * its variants, is marked a verified buyer, decided here from the orders and never from the body.
 */

import { FIT_ANSWERS } from '@shared/domain/review-fit'
import { Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../platform/env'
import { fail, jsonBody, noStore, ok } from '../../platform/http'
import { FORBIDDEN, optionalCustomer } from '../auth/guard'
import { reservePerIp } from '../auth/rate-limit'
import { magentoDate } from '../user/repo'
import { MAX_REVIEW_PHOTOS, photosExist, REVIEW_PHOTO_PATH, uploadReviewPhoto } from './photos'

const REVIEW_STATUS_PENDING = 2
const REVIEW_LIMIT_PER_IP = 10

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} is too long`)

const ReviewBodySchema = z.object({
  review: z.object({
    product_id: z.coerce.number({ error: 'product_id is required' }).int().positive('product_id is required'),
    title: text('title', 200),
    detail: text('detail', 5000),
    nickname: text('nickname', 100),
    review_entity: z.literal('product').default('product'),
    customer_id: z.coerce.number().int().nullish(),
    rating: z
      .number({ error: 'rating must be a whole number of stars from 1 to 5' })
      .int('rating must be a whole number of stars from 1 to 5')
      .min(1, 'rating must be a whole number of stars from 1 to 5')
      .max(5, 'rating must be a whole number of stars from 1 to 5')
      .nullish(),
    fit: z.enum(FIT_ANSWERS, { error: 'Please choose how the piece fits.' }).nullish(),
    photos: z
      .array(z.string().regex(REVIEW_PHOTO_PATH, 'Please upload the photographs again.'))
      .max(MAX_REVIEW_PHOTOS, `A review may carry at most ${MAX_REVIEW_PHOTOS} photographs.`)
      .optional(),
  }),
})

/** Whether the customer has a delivered (or closed) order holding the product or one of its variants. */
async function boughtAndDelivered(db: D1Database, customerId: number, product: { id: number; sku: string }) {
  const row = await db
    .prepare(
      `SELECT 1 FROM orders o JOIN order_items i ON i.client_order_id = o.client_order_id
       WHERE o.customer_id = ?1 AND o.status IN ('delivered', 'closed')
         AND (i.product_id = ?2 OR i.parent_sku = ?3) LIMIT 1`,
    )
    .bind(customerId, product.id, product.sku)
    .first()
  return row !== null
}

export const reviewRoutes = new Hono<AppEnv>()
reviewRoutes.use('*', noStore)

reviewRoutes.post('/create', jsonBody(ReviewBodySchema), async (c) => {
  const { review } = c.req.valid('json')
  const customer = await optionalCustomer(c)
  if (review.customer_id != null && review.customer_id !== customer?.id) fail(403, FORBIDDEN)
  const now = Date.now()
  await reservePerIp(
    c,
    'review',
    REVIEW_LIMIT_PER_IP,
    now,
    'Too many reviews from this address. Please try again later.',
  )
  const product = await c.env.DB.prepare('SELECT id, sku FROM products WHERE id = ?')
    .bind(review.product_id)
    .first<{ id: number; sku: string }>()
  if (!product) return fail(404, `Product ${review.product_id} does not exist.`)
  const photos = [...new Set(review.photos ?? [])]
  if (photos.length && !(await photosExist(c.env.CATALOGUE_IMAGES, photos)))
    fail(400, 'A photograph was not received. Please add it again.')
  const verified = customer ? await boughtAndDelivered(c.env.DB, customer.id, product) : false
  const stamp = magentoDate(now)
  const doc = {
    product_id: review.product_id,
    title: review.title,
    detail: review.detail,
    nickname: review.nickname,
    review_entity: review.review_entity,
    review_status: REVIEW_STATUS_PENDING,
    customer_id: customer?.id ?? null,
    created_at: stamp,
    ...(review.fit ? { fit: review.fit } : {}),
    ...(photos.length ? { photos } : {}),
    ...(verified ? { verified_buyer: true } : {}),
    ...(review.rating
      ? { ratings: [{ rating_name: 'Rating', value: review.rating, percent: review.rating * 20 }] }
      : {}),
  }
  // One statement: the id is allocated and written into the doc atomically.
  const row = await c.env.DB.prepare(
    `INSERT INTO reviews (id, product_id, review_status, created_at, doc)
     SELECT n, ?1, ?2, ?3, json_set(?4, '$.id', n) FROM (SELECT COALESCE(MAX(id), 0) + 1 AS n FROM reviews)
     RETURNING id`,
  )
    .bind(review.product_id, REVIEW_STATUS_PENDING, stamp, JSON.stringify(doc))
    .first<{ id: number }>()
  return ok(c, { ...doc, id: row?.id })
})

reviewRoutes.post('/photo', async (c) => ok(c, await uploadReviewPhoto(c)))
