/**
 * A product's photographs in their order, edited from its page: moved to a position (position 1
 * is the main picture, the one the product's page opens on and its tiles show), removed from the
 * product (the library keeps the picture, and R2 keeps the file), or their alt text changed under
 * the one alt-text rule of uploads. Every change rewrites the document's gallery and its main
 * image together (positions 1…n in order, `image`, `thumbnail` and `small_image` the first) with
 * the catalogue's one writer, behind the revision the page was opened at (compare-and-set: a stale
 * page is refused and writes nothing), then purges the product's pages by tag.
 */
import type { Product } from '@shared/schemas/catalog'
import { z } from 'zod'
import { writeProductStatements } from '../catalog/writer'
import { fail } from '../platform/http'
import { auditStatement } from './audit'
import { authoringProduct, revisionGuard, STALE, withLiveStock } from './authoring'
import { purgeProduct } from './catalogue'
import { altProblem, refuseUpload, type UploadWords } from './media-upload'

type Photo = Product['media_gallery'][number]

export const PHOTO_WORDS: UploadWords = { subject: 'image', noun: 'photograph' }

/** The revision a product's form was opened at, as sent (a form's text or a JSON number). */
export const revisionOf = (value: unknown) => {
  const revision = Number(value)
  return Number.isSafeInteger(revision) && value !== '' && value != null
    ? revision
    : fail(400, 'Invalid image: revision is required')
}

/**
 * A product's photographs in order: its gallery, after its main image when the gallery lacks it
 * (an imported document may name a main image outside its gallery; it stays the first).
 */
export function photographsOf(doc: Pick<Product, 'image' | 'media_gallery' | 'name'>): Photo[] {
  const gallery = doc.media_gallery ?? []
  if (!doc.image || gallery.some((m) => m.image === doc.image)) return gallery
  return [{ image: doc.image, lab: doc.name, typ: 'image' }, ...gallery]
}

/**
 * Stores product `id` with its photographs changed by `change` (which may refuse), behind
 * `revision`, with `more` statements and the audit row `audit` in the same batch; purges its pages.
 */
export async function saveGallery(
  env: Env,
  id: number,
  edit: { revision: number; actor: string; audit: { action: string; after: Record<string, unknown> } },
  change: (photos: Photo[]) => Photo[],
  now: number,
  more: (db: D1Database) => D1PreparedStatement[] = () => [],
) {
  const db = env.DB
  const before = await authoringProduct(db, id)
  if (before.revision !== edit.revision) refuseUpload(PHOTO_WORDS, 409, 'revision', STALE)
  const doc = withLiveStock(structuredClone(before.doc) as Product, before.stock)
  const photos = change(photographsOf(doc)).map((m, i) => ({ ...m, pos: i + 1 }))
  doc.media_gallery = photos
  const main = photos[0]?.image ?? null
  Object.assign(doc, { image: main, thumbnail: main, small_image: main })
  try {
    await db.batch([
      revisionGuard(db, id, edit.revision, doc.sku),
      ...writeProductStatements(db, doc),
      ...more(db),
      auditStatement(db, { actor: edit.actor, target: `product:${doc.sku}`, ...edit.audit }, now),
    ])
  } catch (err) {
    if (/stale_edit/.test(String(err))) refuseUpload(PHOTO_WORDS, 409, 'revision', STALE)
    throw err
  }
  const purged = await purgeProduct(env, doc as unknown as Record<string, unknown>)
  return { id, image: main, photographs: photos.map((m) => m.image), purged }
}

const photoField = z
  .string({ error: 'choose one of the product’s photographs' })
  .trim()
  .min(1, 'choose one of the product’s photographs')
  .max(500, 'that is not one of the product’s photographs')
const revisionField = z.union([z.string(), z.number()], { error: 'revision is required' })

/** Moving a photograph: its path, its new position (1 is the main picture), the page's revision. */
export const PhotoMoveSchema = z.object({
  image: photoField,
  position: z
    .union([z.string(), z.number()], { error: 'give the position as a number like 1 or 2' })
    .transform((v) => String(v).trim())
    .refine((v) => /^\d{1,4}$/.test(v), 'give the position as a number like 1 or 2')
    .transform(Number),
  revision: revisionField,
})

/** Removing a photograph from a product, or changing its alt text: its path (and the alt text). */
export const PhotoSchema = z.object({
  image: photoField,
  alt: z.string().max(1000, 'the alt text is too long').optional(),
  revision: revisionField,
})

/**
 * Changes one of product `id`'s photographs, named by its path: `edit` gets the photographs and
 * where it is among them. A path that is not one of them (another product's) is refused.
 */
function changePhoto(
  env: Env,
  id: number,
  input: { image: string; revision: unknown },
  who: { actor: string; now: number; after: Record<string, unknown> },
  edit: (photos: Photo[], at: number) => Photo[],
) {
  const audit = { action: 'product.photos', after: who.after }
  return saveGallery(
    env,
    id,
    { revision: revisionOf(input.revision), actor: who.actor, audit },
    (photos) => {
      const at = photos.findIndex((m) => m.image === input.image)
      if (at < 0) refuseUpload(PHOTO_WORDS, 400, 'image', 'that is not one of this product’s photographs')
      return edit(photos, at)
    },
    who.now,
  )
}

/** Moves product `id`'s photograph to `position` (1: its main picture). */
export function movePhoto(
  env: Env,
  id: number,
  input: z.output<typeof PhotoMoveSchema>,
  actor: string,
  now: number,
) {
  const { image, position } = input
  return changePhoto(env, id, input, { actor, now, after: { moved: image, position } }, (photos, at) => {
    if (position < 1 || position > photos.length)
      refuseUpload(PHOTO_WORDS, 400, 'position', `give a position from 1 to ${photos.length}`)
    const rest = photos.filter((_, i) => i !== at)
    rest.splice(position - 1, 0, photos[at] as Photo)
    return rest
  })
}

/** Removes a photograph from product `id` (the library's picture and its file stay). */
export function removePhoto(
  env: Env,
  id: number,
  input: z.output<typeof PhotoSchema>,
  actor: string,
  now: number,
) {
  return changePhoto(env, id, input, { actor, now, after: { removed: input.image } }, (photos, at) =>
    photos.filter((_, i) => i !== at),
  )
}

/** Changes the alt text of one of product `id`'s photographs, under the upload's alt-text rule. */
export function describePhoto(
  env: Env,
  id: number,
  input: z.output<typeof PhotoSchema>,
  actor: string,
  now: number,
) {
  const alt = input.alt?.trim() ?? ''
  const why = altProblem(alt, PHOTO_WORDS.noun)
  if (why) refuseUpload(PHOTO_WORDS, 400, 'alt', why)
  return changePhoto(env, id, input, { actor, now, after: { image: input.image, alt } }, (photos, at) =>
    photos.map((m, i) => (i === at ? { ...m, lab: alt } : m)),
  )
}
