/**
 * The media library: pictures for content pages, blocks and the home page, uploaded into the
 * CATALOGUE_IMAGES bucket beside the products' photographs and served by the same image route.
 * An upload is bounded before its body is read, like a product photograph: its declared length at
 * most MAX_IMAGE_BYTES (no length: refused), then its type sniffed from its first bytes (JPEG, PNG
 * or WebP), and an operator's uploads (library and product photographs together) at most
 * UPLOADS_PER_HOUR an hour. A picture is named by its content's hash (`/m/{hash}.{ext}`), so the same
 * picture uploaded twice is one entry. Every picture has alt text. A picture is deleted only
 * while nothing uses it: the refusal names the pages, blocks, home page or products that do.
 */
import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { magentoDate } from '../api/user/repo'
import { fail } from '../platform/http'
import { contentName, IMAGE_CONTENT_TYPES, sniffImage } from '../platform/image-sniff'
import { auditStatement } from './audit'
import type { AdminEnv } from './env'
import { MAX_IMAGE_BYTES, UPLOADS_PER_HOUR } from './product-images'

/** The longest alt text. */
const MAX_ALT = 200
/** Pictures the library screen lists. */
const LIST_LIMIT = 200

export interface MediaItem {
  path: string
  alt: string
  bytes: number
  content_type: string
  uploaded_by: string
  created_at: string
}

const refuse = (status: 400 | 411 | 413 | 415 | 429, field: string, message: string): never => {
  throw new HTTPException(status, {
    message: `Invalid picture: ${message}`,
    cause: { fields: { [field]: message } },
  })
}

const altProblem = (alt: string) =>
  !alt
    ? 'describe the picture for people who cannot see it (alt text)'
    : alt.length > MAX_ALT
      ? `the alt text is too long (at most ${MAX_ALT} characters)`
      : null

/** The library, newest first. */
export async function listMedia(db: D1Database): Promise<MediaItem[]> {
  const { results } = await db
    .prepare(
      `SELECT path, alt, bytes, content_type, uploaded_by, created_at FROM media ORDER BY created_at DESC, path LIMIT ${LIST_LIMIT}`,
    )
    .all<MediaItem>()
  return results
}

/** Path → alt text of every picture of the library (what the content editor may use). */
export async function mediaAlts(db: D1Database): Promise<Map<string, string>> {
  return new Map((await listMedia(db)).map((m) => [m.path, m.alt]))
}

/** Uploads a picture (multipart: `image`, `alt`); answers its path. */
export async function uploadMedia(c: Context<AdminEnv>, now: number) {
  const declared = Number(c.req.header('content-length') ?? Number.NaN)
  if (!Number.isFinite(declared)) refuse(411, 'image', 'the upload must declare its length')
  // The form's other fields and the multipart framing fit well within 64 KiB.
  if (declared > MAX_IMAGE_BYTES + 64 * 1024)
    refuse(413, 'image', `the picture is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB`)
  const actor = c.var.operator.email
  const recent = await c.env.DB.prepare(
    "SELECT COUNT(*) AS n FROM admin_audit WHERE actor = ?1 AND action IN ('media.upload', 'product.image') AND created_at >= ?2",
  )
    .bind(actor, magentoDate(now - 3_600_000))
    .first<{ n: number }>()
  if ((recent?.n ?? 0) >= UPLOADS_PER_HOUR)
    refuse(429, 'image', `at most ${UPLOADS_PER_HOUR} pictures an hour; try again later`)
  const form = await c.req.parseBody()
  const file = form.image instanceof File && form.image.size > 0 ? form.image : null
  const alt = typeof form.alt === 'string' ? form.alt.trim() : ''
  if (!file) return refuse(400, 'image', 'choose a picture to upload')
  const why = altProblem(alt)
  if (why) refuse(400, 'alt', why)
  if (file.size > MAX_IMAGE_BYTES)
    refuse(413, 'image', `the picture is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB`)
  const bytes = new Uint8Array(await file.arrayBuffer())
  const kind = sniffImage(bytes)
  if (!kind) return refuse(415, 'image', 'the file is not a JPEG, PNG or WebP picture')
  const hash = await contentName(bytes)
  const key = `m/${hash}.${kind}`
  const path = `/${key}`
  await c.env.CATALOGUE_IMAGES.put(key, bytes, { httpMetadata: { contentType: IMAGE_CONTENT_TYPES[kind] } })
  const db = c.env.DB
  await db.batch([
    db
      .prepare(
        `INSERT INTO media (path, content_type, bytes, alt, uploaded_by, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT (path) DO UPDATE SET alt = excluded.alt`,
      )
      .bind(path, IMAGE_CONTENT_TYPES[kind], bytes.length, alt, actor, magentoDate(now)),
    auditStatement(db, { actor, action: 'media.upload', target: `media:${path}`, after: { alt } }, now),
  ])
  return { path, alt, bytes: bytes.length }
}

/** Changes a picture's alt text. */
export async function setMediaAlt(db: D1Database, path: string, alt: string, actor: string, now: number) {
  const why = altProblem(alt.trim())
  if (why) refuse(400, 'alt', why)
  const before = await db.prepare('SELECT alt FROM media WHERE path = ?1').bind(path).first<{ alt: string }>()
  if (!before) return fail(404, 'That picture is not in the media library.')
  await db.batch([
    db.prepare('UPDATE media SET alt = ?2 WHERE path = ?1').bind(path, alt.trim()),
    auditStatement(db, { actor, action: 'media.alt', target: `media:${path}`, before, after: { alt } }, now),
  ])
  return { path, alt: alt.trim() }
}

/** Where a picture is used: each page, block, the home page and products, in words. */
async function mediaUses(db: D1Database, path: string): Promise<string[]> {
  // The path as it stands in a document (JSON text) or in rendered HTML (inside an image URL).
  const like = `%${path.replace(/[\\%_]/g, (m) => `\\${m}`)}%`
  const [pages, blocks, home, products] = await db.batch([
    db.prepare("SELECT identifier FROM cms_pages WHERE doc LIKE ?1 ESCAPE '\\' LIMIT 10").bind(like),
    db.prepare("SELECT identifier FROM cms_blocks WHERE doc LIKE ?1 ESCAPE '\\' LIMIT 10").bind(like),
    db.prepare("SELECT kind FROM content_docs WHERE doc LIKE ?1 ESCAPE '\\' LIMIT 1").bind(like),
    db.prepare("SELECT sku FROM products WHERE doc LIKE ?1 ESCAPE '\\' LIMIT 10").bind(like),
  ])
  const rows = <T>(r: D1Result | undefined) => (r?.results ?? []) as T[]
  return [
    ...rows<{ identifier: string }>(pages).map((p) => `the page ${p.identifier}`),
    ...rows<{ identifier: string }>(blocks).map((b) => `the block ${b.identifier}`),
    ...(rows(home).length ? ['the home page'] : []),
    ...rows<{ sku: string }>(products).map((p) => `the product ${p.sku}`),
  ]
}

/** Deletes a picture nothing uses (the refusal says what uses it). */
export async function deleteMedia(env: Env, path: string, actor: string, now: number) {
  const db = env.DB
  const item = await db.prepare('SELECT path, alt FROM media WHERE path = ?1').bind(path).first()
  if (!item) return fail(404, 'That picture is not in the media library.')
  const uses = await mediaUses(db, path)
  if (uses.length)
    return fail(
      409,
      `This picture cannot be deleted while it is used: ${uses.join(', ')}. Remove it there first.`,
    )
  await db.batch([
    db.prepare('DELETE FROM media WHERE path = ?1').bind(path),
    auditStatement(db, { actor, action: 'media.delete', target: `media:${path}`, before: item }, now),
  ])
  await env.CATALOGUE_IMAGES.delete(path.slice(1))
  return { path, deleted: true }
}

/** The `path` of a media route: a library path (`/m/{hash}.{ext}`), or a 400. */
export function mediaPath(value: unknown): string {
  return typeof value === 'string' && /^\/m\/[0-9a-f]{24}\.(jpg|png|webp)$/.test(value)
    ? value
    : fail(400, 'Invalid picture: not a path of the media library')
}
