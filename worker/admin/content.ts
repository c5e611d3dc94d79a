/**
 * CMS pages and blocks in the back office. Content is stored as written and sanitised where it is
 * shown (the shop's one allow-list sanitiser); the preview answers exactly what the shop will show.
 * Publishing writes the document and its audit row in one batch, makes memoised content reads
 * stale (catalogue version) and purges the cached pages that show content (CMS pages and home).
 */
import { sanitizeHtml } from '@shared/domain/sanitize-html'
import { z } from 'zod'
import { purgeCacheTags, purgedCount } from '../platform/cache/purge'
import { fail } from '../platform/http'
import { bumpIndexVersionStatement } from '../search'
import { auditStatement } from './audit'

const TABLES = { page: 'cms_pages', block: 'cms_blocks' } as const
type ContentKind = keyof typeof TABLES

export const ContentSchema = z.object({
  title: z.string().trim().min(1, 'title is required').max(300, 'title is too long'),
  content: z.string().max(200_000, 'content is too long (at most 200,000 characters)'),
  is_active: z
    .preprocess((v) => v === true || v === 'true' || v === '1' || v === 'on', z.boolean())
    .default(true),
})
export const PreviewSchema = z.object({
  content: z.string().max(200_000, 'content is too long (at most 200,000 characters)'),
})

/** Every page or block: id, identifier, title, whether it is live. */
export async function listContent(db: D1Database, kind: ContentKind) {
  const { results } = await db
    .prepare(
      `SELECT id, identifier, store_id, is_active, json_extract(doc, '$.title') AS title FROM ${TABLES[kind]} ORDER BY identifier LIMIT 500`,
    )
    .all()
  return results
}

/** One page or block as the editor shows it; 404 when there is none. */
export async function contentItem(db: D1Database, kind: ContentKind, id: number) {
  const row = Number.isSafeInteger(id)
    ? await db
        .prepare(`SELECT id, identifier, is_active, doc FROM ${TABLES[kind]} WHERE id = ?`)
        .bind(id)
        .first<{
          id: number
          identifier: string
          is_active: number
          doc: string
        }>()
    : null
  if (!row) return fail(404, `CMS ${kind} ${id} does not exist.`)
  const doc = JSON.parse(row.doc) as { title?: string; content?: string }
  return {
    id: row.id,
    identifier: row.identifier,
    title: doc.title ?? '',
    content: doc.content ?? '',
    is_active: row.is_active === 1,
  }
}

/** What the shop will show for `content` (the sanitiser's output). */
export function previewContent(content: string): { html: string } {
  return { html: sanitizeHtml(content) }
}

/** Publishes a page's or block's new title, content and state. */
export async function publishContent(
  env: Env,
  kind: ContentKind,
  id: number,
  input: z.infer<typeof ContentSchema>,
  actor: string,
  now: number,
) {
  const db = env.DB
  const table = TABLES[kind]
  const row = await db
    .prepare(`SELECT id, identifier, is_active, doc FROM ${table} WHERE id = ?`)
    .bind(id)
    .first<{
      id: number
      identifier: string
      is_active: number
      doc: string
    }>()
  if (!row) return fail(404, `CMS ${kind} ${id} does not exist.`)
  const doc = JSON.parse(row.doc) as Record<string, unknown>
  const before = { title: doc.title ?? null, content: doc.content ?? null, is_active: row.is_active === 1 }
  Object.assign(doc, {
    title: input.title,
    content: input.content,
    active: input.is_active,
    is_active: input.is_active,
  })
  await db.batch([
    db
      .prepare(`UPDATE ${table} SET doc = ?, is_active = ? WHERE id = ?`)
      .bind(JSON.stringify(doc), input.is_active ? 1 : 0, id),
    auditStatement(
      db,
      { actor, action: `cms.${kind}.publish`, target: `cms-${kind}:${row.identifier}`, before, after: input },
      now,
    ),
    bumpIndexVersionStatement(db),
  ])
  const purged = purgedCount(await purgeCacheTags(env, ['cms', 'home']))
  return { id, identifier: row.identifier, purged }
}
