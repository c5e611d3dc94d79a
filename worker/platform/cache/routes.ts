/**
 * GET /invalidate?tag=T[,T2…] with the key in a header (`X-Invalidate-Key: KEY` or
 * `Authorization: Bearer KEY`) — purges the output-cache entries carrying each tag (page types
 * such as `category`, `home`, or entity tags `P{sku}`, `C{id}`) in this location and, when the
 * zone's purge credentials are configured, in every location (./purge.ts). When the purge API
 * fails the answer is 502 and says the purge stayed local, so a caller can retry. The key must equal the
 * INVALIDATE_KEY secret (compared in constant time). A key in the URL is never accepted: URLs end
 * up in logs, browser history and Referer headers, so a `key` query parameter is refused.
 */
import type { RouteHandler } from '../router'
import { timingSafeEqual } from '../runtime'
import { purgeCacheTags } from './purge'

const INVALIDATE_KEY_HEADER = 'x-invalidate-key'
/** Most tags one call may purge (each is a D1 query plus Cache API deletes). */
export const MAX_TAGS_PER_CALL = 50

/** Compares two secrets in constant time (SHA-256 first, so lengths do not leak either). */
async function sameSecret(a: string, b: string): Promise<boolean> {
  const enc = new TextEncoder()
  const [ha, hb] = await Promise.all([
    crypto.subtle.digest('SHA-256', enc.encode(a)),
    crypto.subtle.digest('SHA-256', enc.encode(b)),
  ])
  return timingSafeEqual(ha, hb)
}

/** The key the caller presented in a header, or '' when there is none. */
function presentedKey(header: (name: string) => string | undefined): string {
  const direct = header(INVALIDATE_KEY_HEADER)
  if (direct) return direct.trim()
  const auth = header('authorization') ?? ''
  const bearer = /^Bearer\s+(.+)$/i.exec(auth)
  return bearer?.[1]?.trim() ?? ''
}

const TAG_RE = /^[A-Za-z0-9_.:-]{1,128}$/

export const invalidate: RouteHandler = async (c) => {
  const secret = c.env.INVALIDATE_KEY
  const noStore = { 'cache-control': 'no-store' }
  if (!secret)
    return c.json(
      { code: 503, result: 'Cache invalidation is not configured (INVALIDATE_KEY)' },
      503,
      noStore,
    )
  if (c.req.query('key') !== undefined) {
    // Whoever sent it has exposed the key; say so where the operator will see it.
    console.warn(JSON.stringify({ requestId: c.var.requestId, msg: 'invalidate key sent in a URL: refused' }))
    return c.json(
      {
        code: 401,
        result: `The key is not accepted in the URL: send it in the ${INVALIDATE_KEY_HEADER} header (or Authorization: Bearer)`,
      },
      401,
      noStore,
    )
  }
  const key = presentedKey((name) => c.req.header(name))
  if (!key || !(await sameSecret(key, secret)))
    return c.json({ code: 401, result: 'Invalid or missing key' }, 401, noStore)
  const tags = [
    ...new Set(
      (c.req.query('tag') ?? '')
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ]
  if (!tags.length)
    return c.json(
      {
        code: 400,
        result: `Missing tag: /invalidate?tag=TAG with the key in the ${INVALIDATE_KEY_HEADER} header`,
      },
      400,
      noStore,
    )
  if (tags.length > MAX_TAGS_PER_CALL)
    return c.json(
      { code: 400, result: `Too many tags (at most ${MAX_TAGS_PER_CALL} per call)` },
      400,
      noStore,
    )
  const bad = tags.find((t) => !TAG_RE.test(t))
  if (bad) return c.json({ code: 400, result: `Invalid tag: ${bad.slice(0, 40)}` }, 400, noStore)
  const { local, global } = await purgeCacheTags(c.env, tags)
  if (typeof global === 'object') {
    console.error(
      JSON.stringify({ requestId: c.var.requestId, msg: 'global purge failed', tags, why: global.failed }),
    )
    return c.json(
      {
        code: 502,
        result: `Purged in this location only: ${global.failed}. Other locations keep these pages until they expire; try again.`,
        meta: { purged: local },
      },
      502,
      noStore,
    )
  }
  return c.json({ code: 200, result: { purged: local, global } }, 200, noStore)
}
