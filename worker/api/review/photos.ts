/**
 * A shopper's photographs for a review.
 *
 *   POST /api/review/photo   body: the picture's bytes (JPEG, PNG or WebP) → { photo: "/r/{name}.{ext}" }
 *
 * Every upload is bounded before its body is read: a declared length is required (411) and at most
 * MAX_REVIEW_PHOTO_BYTES (413; the form shrinks a phone's picture to MAX_PHOTO_EDGE px before
 * sending, which keeps it well under), and one address may upload PHOTOS_PER_ADDRESS pictures a
 * quarter of an hour (429, counted before the body is read, so 1,000 uploads from one address store
 * at most that many). The type is sniffed from the bytes (415 otherwise). The picture is stored
 * under its content's hash in the catalogue image bucket's `review-pending/` area, a key the image
 * route never serves (it has no picture extension): nobody sees a photograph before an operator
 * approves its review, which copies it to the public `r/` name the review already carries.
 */
import type { Context } from 'hono'
import type { AppEnv } from '../../platform/env'
import { clientAddress, fail } from '../../platform/http'
import { contentName, IMAGE_CONTENT_TYPES, type ImageKind, sniffImage } from '../../platform/image-sniff'
import { reserveOrReject } from '../auth/rate-limit'

/** The largest photograph a shopper may send (bytes; under the API's 1 MiB body limit, so this refusal is the one met). */
const MAX_REVIEW_PHOTO_BYTES = 1_000_000
/** Photographs one address may upload in a quarter of an hour. */
export const PHOTOS_PER_ADDRESS = 20
/** Photographs one review may carry. */
export const MAX_REVIEW_PHOTOS = 3

/** A review photo's public path: `/r/` + 24 hex digits of its content hash + its format. */
export const REVIEW_PHOTO_PATH = /^\/r\/([0-9a-f]{24})\.(jpg|png|webp)$/

/** Where a photo waits while its review is pending (no picture extension: never served). */
export const pendingPhotoKey = (name: string) => `review-pending/${name}`

/** The public R2 key of an approved review's photo (`/r/abc.jpg` → `r/abc.jpg`). */
const publicPhotoKey = (path: string) => path.slice(1)

/** Stores one photograph for a review still to be written; answers its public path. */
export async function uploadReviewPhoto(c: Context<AppEnv>) {
  const declared = Number(c.req.header('content-length') ?? Number.NaN)
  if (!Number.isFinite(declared) || declared <= 0) fail(411, 'Please choose a photograph to upload.')
  if (declared > MAX_REVIEW_PHOTO_BYTES)
    fail(413, 'This photograph is too large. Please choose one under 1 MB, or a smaller picture.')
  await reserveOrReject(
    c.env.DB,
    [{ key: `review-photo:ip:${clientAddress(c)}`, limit: PHOTOS_PER_ADDRESS }],
    Date.now(),
    'Too many photographs from this address. Please try again in a quarter of an hour.',
  )
  const bytes = new Uint8Array(await c.req.arrayBuffer())
  const kind: ImageKind | null = sniffImage(bytes)
  if (!kind)
    return fail(415, 'This file is not a photograph we can show. Please choose a JPEG, PNG or WebP picture.')
  const name = await contentName(bytes)
  await c.env.CATALOGUE_IMAGES.put(pendingPhotoKey(name), bytes, {
    httpMetadata: { contentType: IMAGE_CONTENT_TYPES[kind] },
  })
  return { photo: `/r/${name}.${kind}` }
}

/** Whether every photo a review names was uploaded (pending or already public). */
export async function photosExist(bucket: R2Bucket, paths: readonly string[]): Promise<boolean> {
  const found = await Promise.all(
    paths.map(async (p) => {
      const name = REVIEW_PHOTO_PATH.exec(p)?.[1]
      if (!name) return false
      return (
        (await bucket.head(pendingPhotoKey(name))) !== null || (await bucket.head(publicPhotoKey(p))) !== null
      )
    }),
  )
  return found.every(Boolean)
}

/**
 * Makes an approved review's photos public: each pending picture is copied to its public key
 * (same bytes, same type). A photo already public (the same picture in an earlier review) is kept.
 */
export async function publishPhotos(bucket: R2Bucket, paths: readonly string[]): Promise<void> {
  for (const p of paths) {
    const name = REVIEW_PHOTO_PATH.exec(p)?.[1]
    if (!name) continue
    const pending = await bucket.get(pendingPhotoKey(name))
    if (!pending) continue
    await bucket.put(publicPhotoKey(p), await pending.arrayBuffer(), { httpMetadata: pending.httpMetadata })
  }
}
