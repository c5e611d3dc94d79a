/**
 * Adding a product's photographs, each with its alt text, at the end of its gallery (the first is
 * the product's main image; ./product-gallery.ts reorders, removes and re-describes them). A photograph is a picture of the media library (./media.ts): uploaded from the
 * product's form (the one upload check, ./media-upload.ts; stored under the product's folder and
 * named by its content's hash, so a new picture has a new URL and cached resizes never show an old
 * one; its library row written in the product's batch), or picked from the library with its alt
 * text (or alt text given for this product). Either way the product is saved with the catalogue's
 * one writer under its revision (compare-and-set).
 */
import type { Context } from 'hono'
import { z } from 'zod'
import { fail } from '../platform/http'
import { authoringProduct, STALE } from './authoring'
import type { AdminEnv } from './env'
import { mediaPath, mediaRowStatement } from './media'
import { altProblem, checkedUpload, refuseUpload } from './media-upload'
import { revisionOf, saveGallery, PHOTO_WORDS as WORDS } from './product-gallery'

/**
 * Adds the picture `path` with `alt` to the end of product `id`'s gallery (its main image when it
 * has none) behind the revision the page was opened at, with `more` statements in the same batch.
 */
async function addToGallery(
  env: Env,
  id: number,
  picture: { path: string; alt: string; revision: number; actor: string },
  more: (db: D1Database) => D1PreparedStatement[],
  now: number,
) {
  const { path, alt, revision, actor } = picture
  const audit = { action: 'product.image', after: { image: path, alt } }
  const saved = await saveGallery(
    env,
    id,
    { revision, actor, audit },
    (photos) => [...photos.filter((m) => m.image !== path), { image: path, lab: alt, typ: 'image' }],
    now,
    more,
  )
  return { id, image: path, alt, position: saved.photographs.length, purged: saved.purged }
}

/** Uploads a photograph of product `id` (multipart: `image`, `alt`, `revision`); answers its path. */
export async function uploadProductImage(c: Context<AdminEnv>, id: number, now: number) {
  const actor = c.var.operator.email
  const { bytes, kind, contentType, hash, alt, form } = await checkedUpload(c, WORDS, now)
  const revision = revisionOf(form.revision)
  // A stale page is refused before anything is stored.
  if ((await authoringProduct(c.env.DB, id)).revision !== revision)
    refuseUpload(WORDS, 409, 'revision', STALE)
  const key = `u/${id}/${hash}.${kind}`
  const path = `/${key}`
  await c.env.CATALOGUE_IMAGES.put(key, bytes, { httpMetadata: { contentType } })
  return addToGallery(
    c.env,
    id,
    { path, alt, revision, actor },
    (db) => [mediaRowStatement(db, { path, contentType, bytes: bytes.length, alt, actor }, now)],
    now,
  )
}

/** The form that picks a library picture for a product: its path, alt text (empty: the library's), the page's revision. */
export const PickImageSchema = z.object({
  path: z.string({ error: 'choose a picture of the media library' }).transform((v) => mediaPath(v)),
  alt: z.string().max(1000, 'the alt text is too long').optional(),
  revision: z.union([z.string(), z.number()], { error: 'revision is required' }),
})

/**
 * Adds the library's picture `path` to product `id`: with the alt text given, else the library's.
 * A picture not in the library is a 404.
 */
export async function pickProductImage(
  env: Env,
  id: number,
  input: { path: string; alt?: string; revision: unknown },
  actor: string,
  now: number,
) {
  const revision = revisionOf(input.revision)
  const item = await env.DB.prepare('SELECT alt FROM media WHERE path = ?1')
    .bind(input.path)
    .first<{ alt: string }>()
  if (!item) return fail(404, 'That picture is not in the media library.')
  const alt = input.alt?.trim() || item.alt
  const why = altProblem(alt, WORDS.noun)
  if (why) refuseUpload(WORDS, 400, 'alt', why)
  return addToGallery(env, id, { path: input.path, alt, revision, actor }, () => [], now)
}
