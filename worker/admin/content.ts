/**
 * CMS pages and blocks in the back office. Content is edited as structured blocks
 * (./content-blocks.ts) and stored as the blocks and the HTML they make, passed through the shop's
 * one allow-list sanitiser (an API caller's HTML is sanitised the same way before it is stored);
 * the preview answers exactly what the shop will show.
 * Publishing writes the document and its audit row in one batch, makes memoised content reads
 * stale (catalogue version) and purges the cached pages that show content (CMS pages and home).
 * A page or block is created under an identifier no other of its kind has (a page's identifier is
 * its address, written to the dispatcher's mapping while it is published) and deleted with its
 * address; the pages the shop itself needs (home, no-route) cannot be deleted.
 */
import { sanitizeHtml } from '@shared/domain/sanitize-html'
import { HTTPException } from 'hono/http-exception'
import { z } from 'zod'
import { cmsPageMapping, urlMappingKey } from '../catalog/url-map'
import { cmsBlockStatement, cmsPageStatement } from '../catalog/writer'
import { purgeCacheTags, purgedCount } from '../platform/cache/purge'
import { fail } from '../platform/http'
import { bumpIndexVersionStatement } from '../search'
import { auditStatement } from './audit'
import {
  type Block,
  blocksFromHtml,
  blocksFromJson,
  MAX_BLOCKS,
  refuseBlocks,
  renderBlocks,
} from './content-blocks'
import { mediaAlts } from './media'

const TABLES = { page: 'cms_pages', block: 'cms_blocks' } as const
type ContentKind = keyof typeof TABLES

export const ContentSchema = z.object({
  title: z.string().trim().min(1, 'title is required').max(300, 'title is too long'),
  /** HTML (an API caller's); sanitised before it is stored. */
  content: z.string().max(200_000, 'content is too long (at most 200,000 characters)').optional(),
  /** The structured blocks (the editor's); they replace `content` when given. */
  blocks: z.array(z.unknown()).max(MAX_BLOCKS, `a page holds at most ${MAX_BLOCKS} blocks`).optional(),
  is_active: z
    .preprocess((v) => v === true || v === 'true' || v === '1' || v === 'on', z.boolean())
    .default(true),
})
export const NewContentSchema = ContentSchema.extend({
  identifier: z
    .string({ error: 'identifier is required' })
    .trim()
    .toLowerCase()
    .max(100, 'identifier is too long (at most 100 characters)')
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'identifier: lower-case letters, digits and single hyphens'),
})

/** Pages the shop itself renders by identifier: never deleted. */
const KEPT_PAGES = new Set(['home', 'no-route'])

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
  const doc = JSON.parse(row.doc) as { title?: string; content?: string; blocks?: unknown }
  const content = doc.content ?? ''
  // Content made before the block editor (imported pages) is read into blocks.
  const blocks: Block[] = Array.isArray(doc.blocks) ? blocksFromJson(doc.blocks) : blocksFromHtml(content)
  return {
    id: row.id,
    identifier: row.identifier,
    title: doc.title ?? '',
    content,
    blocks,
    is_active: row.is_active === 1,
  }
}

/**
 * What is stored for `input`: the blocks and the sanitised HTML they make (a bad block is a 400
 * naming its field), or an API caller's HTML sanitised; nothing when neither is given.
 */
export async function composeContent(
  db: D1Database,
  input: { content?: string; blocks?: unknown[] },
): Promise<{ content: string; blocks?: Block[] } | null> {
  if (input.blocks) {
    const blocks = blocksFromJson(input.blocks)
    const { html, fields } = await renderBlocks(db, blocks, await mediaAlts(db))
    if (Object.keys(fields).length) refuseBlocks(fields)
    return { content: html, blocks }
  }
  return input.content === undefined ? null : { content: sanitizeHtml(input.content) }
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
  const composed = await composeContent(db, input)
  // Only what was given changes: a title-only change keeps the content and its blocks.
  Object.assign(doc, {
    title: input.title,
    ...(composed ? { content: composed.content, blocks: composed.blocks } : {}),
    active: input.is_active,
    is_active: input.is_active,
  })
  await db.batch([
    db
      .prepare(`UPDATE ${table} SET doc = ?, is_active = ? WHERE id = ?`)
      .bind(JSON.stringify(doc), input.is_active ? 1 : 0, id),
    auditStatement(
      db,
      {
        actor,
        action: `cms.${kind}.publish`,
        target: `cms-${kind}:${row.identifier}`,
        before,
        after: { title: input.title, content: doc.content, is_active: input.is_active },
      },
      now,
    ),
    bumpIndexVersionStatement(db),
  ])
  const purged = purgedCount(await purgeCacheTags(env, ['cms', 'home']))
  return { id, identifier: row.identifier, purged }
}

const refuseIdentifier = (message: string): never => {
  throw new HTTPException(400, {
    message: `Invalid content: ${message}`,
    cause: { fields: { identifier: message } },
  })
}

/** Creates a page or block; a published page gets its address. */
export async function createContent(
  env: Env,
  kind: ContentKind,
  input: z.infer<typeof NewContentSchema>,
  actor: string,
  now: number,
) {
  const db = env.DB
  const table = TABLES[kind]
  const taken = await db
    .prepare(`SELECT id FROM ${table} WHERE identifier = ?1 AND store_id = 0`)
    .bind(input.identifier)
    .first()
  if (taken) refuseIdentifier(`a ${kind} named ${input.identifier} already exists`)
  if (kind === 'page' && (await env.URL_MAPPINGS.get(urlMappingKey(input.identifier))))
    refuseIdentifier(`the address /${input.identifier} is already another page's`)
  const composed = await composeContent(db, input)
  const next = await db.prepare(`SELECT COALESCE(MAX(id), 0) + 1 AS id FROM ${table}`).first<{ id: number }>()
  const doc = {
    id: Number(next?.id ?? 1),
    identifier: input.identifier,
    title: input.title,
    content: composed?.content ?? '',
    ...(composed?.blocks ? { blocks: composed.blocks } : {}),
    is_active: input.is_active,
    store_id: 0,
  }
  await db.batch([
    kind === 'page' ? cmsPageStatement(db, doc) : cmsBlockStatement(db, doc),
    auditStatement(
      db,
      {
        actor,
        action: `cms.${kind}.create`,
        target: `cms-${kind}:${doc.identifier}`,
        after: { title: doc.title, content: doc.content, is_active: doc.is_active },
      },
      now,
    ),
    bumpIndexVersionStatement(db),
  ])
  if (kind === 'page' && doc.is_active) {
    const [key, mapping] = cmsPageMapping(doc)
    await env.URL_MAPPINGS.put(key, JSON.stringify(mapping))
  }
  const purged = purgedCount(await purgeCacheTags(env, ['cms', 'home']))
  return { id: doc.id, identifier: doc.identifier, purged }
}

/** Deletes a page or block (and a page's address). */
export async function deleteContent(env: Env, kind: ContentKind, id: number, actor: string, now: number) {
  const db = env.DB
  const item = await contentItem(db, kind, id)
  if (kind === 'page' && KEPT_PAGES.has(item.identifier))
    fail(400, `Invalid content: the ${item.identifier} page is part of the shop and cannot be deleted`)
  await db.batch([
    db.prepare(`DELETE FROM ${TABLES[kind]} WHERE id = ?1`).bind(id),
    auditStatement(
      db,
      { actor, action: `cms.${kind}.delete`, target: `cms-${kind}:${item.identifier}`, before: item },
      now,
    ),
    bumpIndexVersionStatement(db),
  ])
  if (kind === 'page') {
    const key = urlMappingKey(item.identifier)
    const mapped = await env.URL_MAPPINGS.get<{ type?: string; id?: number }>(key, 'json')
    if (mapped?.type === 'cms_page' && mapped.id === id) await env.URL_MAPPINGS.delete(key)
  }
  const purged = purgedCount(await purgeCacheTags(env, ['cms', 'home']))
  return { id, identifier: item.identifier, deleted: true, purged }
}
