/**
 * The media library: every picture of the shop's back office, in the CATALOGUE_IMAGES bucket and
 * served by the image route: pictures for content pages, blocks and the home page, and the
 * products' photographs (uploaded from a product's form, ./product-images.ts, or picked from the
 * library for it). An upload passes the one check of ./media-upload.ts. A library picture is named
 * by its content's hash (`/m/{hash}.{ext}`), so the same picture uploaded twice is one entry; a
 * product's photograph keeps its product's folder (`/u/{product id}/{hash}.{ext}`). Every picture
 * has alt text. The library lists where each picture is used, and a picture is deleted only while
 * nothing uses it: the refusal names the pages, blocks, home page or products (by name and SKU).
 */
import type { Context } from 'hono'
import { magentoDate } from '../api/user/repo'
import { fail } from '../platform/http'
import { auditStatement } from './audit'
import type { AdminEnv } from './env'
import { altProblem, checkedUpload, refuseUpload, type UploadWords } from './media-upload'

const WORDS: UploadWords = { subject: 'picture', noun: 'picture' }
/** Pictures the library screen lists. */
const LIST_LIMIT = 200

export interface MediaItem {
  path: string
  alt: string
  bytes: number
  content_type: string
  uploaded_by: string
  created_at: string
  /** Where it is used, in words (the pages, blocks, home page and products). */
  used: string[]
}

/** The library's row of a picture stored in the bucket (a picture stored again keeps its row, with the new alt text). */
export function mediaRowStatement(
  db: D1Database,
  row: { path: string; contentType: string; bytes: number; alt: string; actor: string },
  now: number,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO media (path, content_type, bytes, alt, uploaded_by, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
       ON CONFLICT (path) DO UPDATE SET alt = excluded.alt`,
    )
    .bind(row.path, row.contentType, row.bytes, row.alt, row.actor, magentoDate(now))
}

/** The library, newest first, each picture with where it is used. */
export async function listMedia(db: D1Database): Promise<MediaItem[]> {
  const [{ results }, uses] = await Promise.all([
    db
      .prepare(
        `SELECT path, alt, bytes, content_type, uploaded_by, created_at FROM media ORDER BY created_at DESC, path LIMIT ${LIST_LIMIT}`,
      )
      .all<Omit<MediaItem, 'used'>>(),
    mediaUses(db, null),
  ])
  return results.map((m) => ({ ...m, used: uses.get(m.path) ?? [] }))
}

/** Path → alt text of every picture of the library (what the content editor may use). */
export async function mediaAlts(db: D1Database): Promise<Map<string, string>> {
  const { results } = await db
    .prepare(`SELECT path, alt FROM media ORDER BY created_at DESC, path LIMIT ${LIST_LIMIT}`)
    .all<{ path: string; alt: string }>()
  return new Map(results.map((m) => [m.path, m.alt]))
}

/** Uploads a picture (multipart: `image`, `alt`); answers its path. */
export async function uploadMedia(c: Context<AdminEnv>, now: number) {
  const actor = c.var.operator.email
  const { bytes, kind, contentType, hash, alt } = await checkedUpload(c, WORDS, now)
  const key = `m/${hash}.${kind}`
  const path = `/${key}`
  await c.env.CATALOGUE_IMAGES.put(key, bytes, { httpMetadata: { contentType } })
  const db = c.env.DB
  await db.batch([
    mediaRowStatement(db, { path, contentType, bytes: bytes.length, alt, actor }, now),
    auditStatement(db, { actor, action: 'media.upload', target: `media:${path}`, after: { alt } }, now),
  ])
  return { path, alt, bytes: bytes.length }
}

/** Changes a picture's alt text. */
export async function setMediaAlt(db: D1Database, path: string, alt: string, actor: string, now: number) {
  const why = altProblem(alt.trim(), WORDS.noun)
  if (why) refuseUpload(WORDS, 400, 'alt', why)
  const before = await db.prepare('SELECT alt FROM media WHERE path = ?1').bind(path).first<{ alt: string }>()
  if (!before) return fail(404, 'That picture is not in the media library.')
  await db.batch([
    db.prepare('UPDATE media SET alt = ?2 WHERE path = ?1').bind(path, alt.trim()),
    auditStatement(db, { actor, action: 'media.alt', target: `media:${path}`, before, after: { alt } }, now),
  ])
  return { path, alt: alt.trim() }
}

/**
 * Where pictures are used (`only`: one picture; null: every picture of the library), in words by
 * path: each page, block, the home page and each product (by name and SKU). A picture is used
 * where its path stands in a document (JSON text, or rendered HTML inside an image URL); only
 * documents naming a library folder (`/m/` or `/u/`) are searched for it. The library's screen
 * lists a product's use from its gallery; a deletion looks for the path anywhere in its document.
 */
async function mediaUses(db: D1Database, only: string | null): Promise<Map<string, string[]>> {
  const where = '(?1 IS NULL OR m.path = ?1)'
  const named = "(d.doc LIKE '%/m/%' OR d.doc LIKE '%/u/%')"
  const [pages, blocks, home, products] = await db.batch([
    db
      .prepare(
        `SELECT m.path, 'the page ' || d.identifier AS what FROM cms_pages d JOIN media m ON instr(d.doc, m.path) > 0
         WHERE ${named} AND ${where} ORDER BY d.identifier LIMIT 2000`,
      )
      .bind(only),
    db
      .prepare(
        `SELECT m.path, 'the block ' || d.identifier AS what FROM cms_blocks d JOIN media m ON instr(d.doc, m.path) > 0
         WHERE ${named} AND ${where} ORDER BY d.identifier LIMIT 2000`,
      )
      .bind(only),
    db
      .prepare(
        `SELECT DISTINCT m.path, 'the home page' AS what FROM content_docs d JOIN media m ON instr(d.doc, m.path) > 0
         WHERE ${named} AND ${where} LIMIT 2000`,
      )
      .bind(only),
    // One picture: every product document naming it anywhere. The whole library (its screen): the
    // products' galleries, so each product document is read once, not once per picture.
    db
      .prepare(
        only
          ? `SELECT m.path, 'the product ' || d.name || ' (' || d.sku || ')' AS what FROM products d
             JOIN media m ON instr(d.doc, m.path) > 0 WHERE ${named} AND ${where} ORDER BY d.name LIMIT 2000`
          : `SELECT DISTINCT m.path, 'the product ' || d.name || ' (' || d.sku || ')' AS what
             FROM products d, json_each(d.doc, '$.media_gallery') g JOIN media m ON m.path = json_extract(g.value, '$.image')
             WHERE ${named} AND ?1 IS NULL ORDER BY d.name LIMIT 2000`,
      )
      .bind(only),
  ])
  const uses = new Map<string, string[]>()
  for (const result of [pages, blocks, home, products])
    for (const row of (result?.results ?? []) as { path: string; what: string }[])
      uses.set(row.path, [...(uses.get(row.path) ?? []), row.what])
  return uses
}

/** Deletes a picture nothing uses (the refusal says what uses it). */
export async function deleteMedia(env: Env, path: string, actor: string, now: number) {
  const db = env.DB
  const item = await db.prepare('SELECT path, alt FROM media WHERE path = ?1').bind(path).first()
  if (!item) return fail(404, 'That picture is not in the media library.')
  const uses = (await mediaUses(db, path)).get(path) ?? []
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

/** The `path` of a media route: a library path (`/m/{hash}.{ext}`, or a product's `/u/{id}/{hash}.{ext}`), or a 400. */
export function mediaPath(value: unknown): string {
  return typeof value === 'string' && /^\/(m|u\/[1-9][0-9]{0,11})\/[0-9a-f]{24}\.(jpg|png|webp)$/.test(value)
    ? value
    : fail(400, 'Invalid picture: not a path of the media library')
}
