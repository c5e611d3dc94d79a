/**
 * A product's photographs uploaded from the back office into the CATALOGUE_IMAGES bucket (the
 * image route's first origin), each with its alt text, in the order uploaded (the first is the
 * product's main image). Every upload is bounded before it is read: its declared length at most
 * MAX_IMAGE_BYTES (no length declared: refused), its type sniffed from its first bytes (JPEG, PNG
 * or WebP; the name and the declared type are not trusted), and at most UPLOADS_PER_HOUR uploads
 * per operator (counted from the audit log). The picture is stored under a name made of its
 * content's hash (a new picture, a new URL, so cached resizes never show an old one), and the
 * product is saved with the catalogue's one writer under its revision (compare-and-set).
 */
import type { Product } from '@shared/schemas/catalog'
import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { writeProductStatements } from '../catalog/writer'
import { fail } from '../platform/http'
import { contentName, IMAGE_CONTENT_TYPES, sniffImage } from '../platform/image-sniff'
import { auditStatement } from './audit'
import { authoringProduct, revisionGuard, STALE, withLiveStock } from './authoring'
import { purgeProduct } from './catalogue'
import type { AdminEnv } from './env'

/** The largest photograph accepted (the image route reads originals up to 20 MiB). */
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024
/** Uploads one operator may make in an hour. */
export const UPLOADS_PER_HOUR = 120
/** The longest alt text. */
const MAX_ALT = 200

const refuse = (status: 400 | 409 | 411 | 413 | 415 | 429, field: string, message: string): never => {
  throw new HTTPException(status, {
    message: `Invalid image: ${message}`,
    cause: { fields: { [field]: message } },
  })
}

/** Uploads a photograph of product `id` (multipart: `image`, `alt`, `revision`); answers its path. */
export async function uploadProductImage(c: Context<AdminEnv>, id: number, now: number) {
  const declared = Number(c.req.header('content-length') ?? Number.NaN)
  if (!Number.isFinite(declared)) refuse(411, 'image', 'the upload must declare its length')
  // The form's other fields and the multipart framing fit well within 64 KiB.
  if (declared > MAX_IMAGE_BYTES + 64 * 1024)
    refuse(413, 'image', `the photograph is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB`)
  const actor = c.var.operator.email
  const recent = await c.env.DB.prepare(
    "SELECT COUNT(*) AS n FROM admin_audit WHERE actor = ?1 AND action = 'product.image' AND created_at >= ?2",
  )
    .bind(actor, new Date(now - 3_600_000).toISOString().slice(0, 19).replace('T', ' '))
    .first<{ n: number }>()
  if ((recent?.n ?? 0) >= UPLOADS_PER_HOUR)
    refuse(429, 'image', `at most ${UPLOADS_PER_HOUR} photographs an hour; try again later`)
  const form = await c.req.parseBody()
  const file = form.image instanceof File && form.image.size > 0 ? form.image : null
  const alt = typeof form.alt === 'string' ? form.alt.trim() : ''
  const revision = Number(form.revision)
  if (!file) return refuse(400, 'image', 'choose a photograph to upload')
  if (!alt) refuse(400, 'alt', 'describe the photograph for people who cannot see it (alt text)')
  if (alt.length > MAX_ALT) refuse(400, 'alt', `the alt text is too long (at most ${MAX_ALT} characters)`)
  if (!Number.isSafeInteger(revision)) fail(400, 'Invalid image: revision is required')
  if (file.size > MAX_IMAGE_BYTES)
    refuse(413, 'image', `the photograph is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB`)
  const bytes = new Uint8Array(await file.arrayBuffer())
  const kind = sniffImage(bytes)
  if (!kind) return refuse(415, 'image', 'the file is not a JPEG, PNG or WebP photograph')
  const before = await authoringProduct(c.env.DB, id)
  if (before.revision !== revision) refuse(409, 'revision', STALE)
  const hash = await contentName(bytes)
  const key = `u/${id}/${hash}.${kind}`
  await c.env.CATALOGUE_IMAGES.put(key, bytes, { httpMetadata: { contentType: IMAGE_CONTENT_TYPES[kind] } })
  const doc = withLiveStock(structuredClone(before.doc) as Product, before.stock)
  const path = `/${key}`
  const gallery = doc.media_gallery.filter((m) => m.image !== path)
  gallery.push({ image: path, lab: alt, pos: gallery.length + 1, typ: 'image' })
  doc.media_gallery = gallery
  if (!doc.image) Object.assign(doc, { image: path, thumbnail: path, small_image: path })
  try {
    await c.env.DB.batch([
      revisionGuard(c.env.DB, id, revision, doc.sku),
      ...writeProductStatements(c.env.DB, doc),
      auditStatement(
        c.env.DB,
        { actor, action: 'product.image', target: `product:${doc.sku}`, after: { image: path, alt } },
        now,
      ),
    ])
  } catch (err) {
    if (/stale_edit/.test(String(err))) refuse(409, 'revision', STALE)
    throw err
  }
  const purged = await purgeProduct(c.env, doc as unknown as Record<string, unknown>)
  return { id, image: path, alt, position: gallery.length, purged }
}
