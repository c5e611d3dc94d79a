/**
 * The one check of an uploaded picture, for the media library and a product's photographs alike.
 * It is bounded before the body is read: the declared length at most MAX_IMAGE_BYTES (and the
 * form's framing; no length declared: 411), and at most UPLOADS_PER_HOUR uploads an hour per
 * operator, library and product photographs counted together from the audit log (429). Then the
 * form must carry a file and its alt text (at most MAX_ALT characters), the file at most
 * MAX_IMAGE_BYTES, its type sniffed from its first bytes (JPEG, PNG or WebP; its name and declared
 * type are not trusted: 415). Each refusal names its field.
 */
import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { magentoDate } from '../api/user/repo'
import { contentName, IMAGE_CONTENT_TYPES, type ImageKind, sniffImage } from '../platform/image-sniff'
import type { AdminEnv } from './env'

/** The largest picture accepted (the image route reads originals up to 20 MiB). */
const MAX_IMAGE_BYTES = 8 * 1024 * 1024
/** Uploads one operator may make in an hour (library and product photographs together). */
const UPLOADS_PER_HOUR = 120
/** The longest alt text. */
const MAX_ALT = 200
/** The audit actions that count as uploads. */
const UPLOAD_ACTIONS = ['media.upload', 'product.image'] as const

/** How the refusals name what is uploaded: "Invalid picture: … the picture …". */
export interface UploadWords {
  subject: string
  noun: string
}

export const refuseUpload = (
  words: UploadWords,
  status: 400 | 409 | 411 | 413 | 415 | 429,
  field: string,
  message: string,
): never => {
  throw new HTTPException(status, {
    message: `Invalid ${words.subject}: ${message}`,
    cause: { fields: { [field]: message } },
  })
}

/** What is wrong with alt text, in words (null: nothing). */
export const altProblem = (alt: string, noun: string) =>
  !alt
    ? `describe the ${noun} for people who cannot see it (alt text)`
    : alt.length > MAX_ALT
      ? `the alt text is too long (at most ${MAX_ALT} characters)`
      : null

interface CheckedUpload {
  bytes: Uint8Array<ArrayBuffer>
  kind: ImageKind
  contentType: string
  /** The content's hash: the picture's file name. */
  hash: string
  alt: string
  /** The form's other fields. */
  form: Record<string, unknown>
}

/** Reads and checks an upload (multipart: `image`, `alt`, other fields passed back), or refuses it. */
export async function checkedUpload(
  c: Context<AdminEnv>,
  words: UploadWords,
  now: number,
): Promise<CheckedUpload> {
  const tooLarge = `the ${words.noun} is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB`
  const declared = Number(c.req.header('content-length') ?? Number.NaN)
  if (!Number.isFinite(declared)) refuseUpload(words, 411, 'image', 'the upload must declare its length')
  // The form's other fields and the multipart framing fit well within 64 KiB.
  if (declared > MAX_IMAGE_BYTES + 64 * 1024) refuseUpload(words, 413, 'image', tooLarge)
  const recent = await c.env.DB.prepare(
    `SELECT COUNT(*) AS n FROM admin_audit WHERE actor = ?1 AND action IN (SELECT value FROM json_each(?3))
       AND created_at >= ?2`,
  )
    .bind(c.var.operator.email, magentoDate(now - 3_600_000), JSON.stringify(UPLOAD_ACTIONS))
    .first<{ n: number }>()
  if ((recent?.n ?? 0) >= UPLOADS_PER_HOUR)
    refuseUpload(words, 429, 'image', `at most ${UPLOADS_PER_HOUR} ${words.noun}s an hour; try again later`)
  const form = await c.req.parseBody()
  const file = form.image instanceof File && form.image.size > 0 ? form.image : null
  const alt = typeof form.alt === 'string' ? form.alt.trim() : ''
  if (!file) return refuseUpload(words, 400, 'image', `choose a ${words.noun} to upload`)
  const why = altProblem(alt, words.noun)
  if (why) refuseUpload(words, 400, 'alt', why)
  if (file.size > MAX_IMAGE_BYTES) refuseUpload(words, 413, 'image', tooLarge)
  const bytes = new Uint8Array(await file.arrayBuffer())
  const kind = sniffImage(bytes)
  if (!kind) return refuseUpload(words, 415, 'image', `the file is not a JPEG, PNG or WebP ${words.noun}`)
  return {
    bytes,
    kind,
    contentType: IMAGE_CONTENT_TYPES[kind],
    hash: await contentName(bytes),
    alt,
    form: form as Record<string, unknown>,
  }
}
