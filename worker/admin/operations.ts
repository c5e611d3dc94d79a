/**
 * Operations: the outboxes (mail and analytics events) by status with their failed rows, a retry of
 * a failed mail, cache purge by tag, and URL mappings. A retry claims the row first (only a row
 * still 'failed' or 'dead' can be claimed, so two retries never send twice) and records the
 * provider's answer on the same row.
 */
import { z } from 'zod'
import { type OutboxName, retryOutboxRow } from '../api/mail/outbox'
import { magentoDate } from '../api/user/repo'
import { purgeCacheTags, purgedCount } from '../platform/cache/purge'
import { mappingKey } from '../platform/dispatcher/lookups'
import { fail } from '../platform/http'
import { auditStatement } from './audit'

const OUTBOXES: Record<OutboxName, string> = { mail: 'mail_outbox', analytics: 'analytics_outbox' }

/**
 * The outboxes as the monitor shows them: order and account mail, newsletter mail (mail rows of a
 * newsletter kind, sent and retried like any mail), and conversion events.
 */
const MONITORED = [
  { name: 'mail', box: 'mail', where: "kind NOT LIKE 'newsletter-%'" },
  { name: 'newsletter', box: 'mail', where: "kind LIKE 'newsletter-%'" },
  { name: 'analytics', box: 'analytics', where: '1 = 1' },
] as const satisfies readonly { name: string; box: OutboxName; where: string }[]

/** Rows per status of each outbox, and its newest failed or dead rows (with the outbox that retries them). */
export async function outboxSummary(db: D1Database) {
  const out: Record<string, { box: OutboxName; counts: Record<string, number>; failed: unknown[] }> = {}
  for (const { name, box, where } of MONITORED) {
    const table = OUTBOXES[box]
    const [counts, failed] = await db.batch([
      db.prepare(`SELECT status, COUNT(*) AS n FROM ${table} WHERE ${where} GROUP BY status ORDER BY status`),
      db.prepare(
        box === 'mail'
          ? `SELECT id, kind, target_address, subject, status, provider_response, created_at FROM ${table}
             WHERE ${where} AND status IN ('failed', 'dead') ORDER BY id DESC LIMIT 50`
          : `SELECT id, event_name, status, provider_response, created_at FROM ${table}
             WHERE status IN ('failed', 'dead') ORDER BY id DESC LIMIT 50`,
      ),
    ])
    out[name] = {
      box,
      counts: Object.fromEntries(
        ((counts?.results ?? []) as { status: string; n: number }[]).map((r) => [r.status, r.n]),
      ),
      failed: failed?.results ?? [],
    }
  }
  return out
}

/** Sends a failed (or dead) mail or conversion event again (the drain's own send) and audits it. */
export async function retryOutbox(env: Env, box: OutboxName, id: number, actor: string, now: number) {
  const what = box === 'mail' ? 'Mail' : 'Event'
  const retried = await retryOutboxRow(env, box, id, now)
  if (retried === 'no provider')
    return fail(
      409,
      box === 'mail'
        ? 'No mail provider is configured: the mail stays in the outbox.'
        : 'The Conversions API is not configured (FB_PIXEL_ID, FB_ACCESS_TOKEN): the event stays in the outbox.',
    )
  if (!retried) {
    const row = await env.DB.prepare(`SELECT status FROM ${OUTBOXES[box]} WHERE id = ?`)
      .bind(id)
      .first<{ status: string }>()
    return row
      ? fail(409, `${what} ${id} is ${row.status}, not failed: nothing to retry.`)
      : fail(404, `${what} ${id} does not exist.`)
  }
  await auditStatement(
    env.DB,
    {
      actor,
      action: 'outbox.retry',
      target: `${box === 'mail' ? 'mail' : 'event'}:${id}`,
      before: { status: 'failed' },
      after: { status: retried.status },
    },
    now,
  ).run()
  return { id, status: retried.status, provider_response: retried.providerResponse }
}

export const PurgeSchema = z.object({
  tags: z
    .union([z.string(), z.array(z.string())])
    .transform((v) => (Array.isArray(v) ? v : v.split(',')).map((t) => t.trim()).filter(Boolean))
    .pipe(
      z
        .array(
          z
            .string()
            .max(128, 'tag is too long')
            .regex(/^[A-Za-z0-9_.:-]+$/, 'tag has characters a tag cannot have'),
        )
        .min(1, 'name at least one tag')
        .max(50, 'at most 50 tags per purge'),
    ),
})

/** The tags pages are cached under by page type (each page also has its entity's tag). */
const PAGE_TYPE_TAGS = new Set(['product', 'category', 'search', 'cms', 'home'])

/**
 * The tags of `tags` that no page can carry: a page type's tag, `P` + a product's SKU (PSAR1001)
 * or `C` + a category's id (C12); anything else would purge nothing and say nothing.
 */
async function unknownTags(db: D1Database, tags: string[]): Promise<string[]> {
  const skus = tags.filter((t) => /^P./.test(t)).map((t) => t.slice(1))
  const ids = tags.filter((t) => /^C\d{1,15}$/.test(t)).map((t) => Number(t.slice(1)))
  const [products, categories] = await db.batch([
    db
      .prepare(`SELECT sku FROM products WHERE sku IN (SELECT value FROM json_each(?))`)
      .bind(JSON.stringify(skus)),
    db
      .prepare(`SELECT id FROM categories WHERE id IN (SELECT value FROM json_each(?))`)
      .bind(JSON.stringify(ids)),
  ])
  const known = new Set([
    ...((products?.results ?? []) as { sku: string }[]).map((r) => `P${r.sku}`),
    ...((categories?.results ?? []) as { id: number }[]).map((r) => `C${r.id}`),
  ])
  return tags.filter((t) => !PAGE_TYPE_TAGS.has(t) && !known.has(t))
}

/** Purges the cached pages carrying each tag; returns how many entries went. A tag no page can carry is refused. */
export async function purgeTags(env: Env, tags: string[], actor: string, now: number) {
  const unknown = await unknownTags(env.DB, tags)
  if (unknown.length)
    fail(
      400,
      `No page carries the tag ${unknown.join(', ')}: a product's tag is P and its SKU (PSAR1001), a category's C and its id (C12), or a page type: ${[...PAGE_TYPE_TAGS].join(', ')}.`,
    )
  const result = await purgeCacheTags(env, tags)
  const purged = purgedCount(result)
  await auditStatement(
    env.DB,
    { actor, action: 'cache.purge', target: `tags:${tags.join(',')}`, after: { purged } },
    now,
  ).run()
  return { tags, purged, everywhere: result.global }
}

const str = z.string().trim().min(1).max(256)
export const MappingSchema = z.object({
  path: z.string().trim().min(1, 'path is required').max(512, 'path is too long'),
  value: z.discriminatedUnion(
    'type',
    [
      z.object({
        type: z.literal('product'),
        sku: str,
        slug: str,
        type_id: str.optional(),
        childSku: str.optional(),
      }),
      z.object({ type: z.literal('category'), slug: str }),
      z.object({ type: z.literal('cms_page'), identifier: str }),
      z.object({
        type: z.literal('redirect'),
        to: z.string().regex(/^\/(?![/\\])/, 'a redirect must go to a path on this shop'),
        status: z.union([z.literal(301), z.literal(302)]).optional(),
      }),
    ],
    { error: 'type must be product, category, cms_page or redirect' },
  ),
})

/** Stores a URL mapping (the dispatcher reads it on the next request for that path). */
export async function putMapping(env: Env, input: z.infer<typeof MappingSchema>, actor: string, now: number) {
  const key = mappingKey(input.path)
  if (!key) return fail(400, 'Invalid URL mapping: path: must name a page')
  const before = await env.URL_MAPPINGS.get(key, 'json')
  await env.URL_MAPPINGS.put(key, JSON.stringify(input.value))
  await auditStatement(
    env.DB,
    { actor, action: 'url.put', target: `url:${key}`, before, after: input.value },
    now,
  ).run()
  return { key, value: input.value }
}

/** Deletes a URL mapping. */
export async function deleteMapping(env: Env, path: string, actor: string, now: number) {
  const key = mappingKey(path)
  const before = await env.URL_MAPPINGS.get(key, 'json')
  if (before === null) return fail(404, `No URL mapping for ${key}.`)
  await env.URL_MAPPINGS.delete(key)
  await auditStatement(env.DB, { actor, action: 'url.delete', target: `url:${key}`, before }, now).run()
  return { key, deleted: true, at: magentoDate(now) }
}
