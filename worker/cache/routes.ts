/**
 * GET /invalidate?tag=T[,T2…]&key=SECRET — purges the output-cache entries carrying each tag
 * (page types such as `category`, `home`, or entity tags `P{sku}`, `C{id}`). The key must equal
 * the INVALIDATE_KEY secret (compared in constant time); without it the endpoint refuses.
 */
import { Hono } from 'hono'
import type { AppEnv } from '../env'
import { timingSafeEqual } from '../runtime'
import { purgeTag } from './output-cache'

export const cacheAdminRoutes = new Hono<AppEnv>()

async function sameSecret(a: string, b: string): Promise<boolean> {
  const enc = new TextEncoder()
  const [ha, hb] = await Promise.all([
    crypto.subtle.digest('SHA-256', enc.encode(a)),
    crypto.subtle.digest('SHA-256', enc.encode(b)),
  ])
  return timingSafeEqual(ha, hb)
}

const TAG_RE = /^[A-Za-z0-9_.:-]{1,128}$/

cacheAdminRoutes.get('/invalidate', async (c) => {
  const secret = c.env.INVALIDATE_KEY
  const key = c.req.query('key') ?? ''
  const noStore = { 'cache-control': 'no-store' }
  if (!secret)
    return c.json(
      { code: 503, result: 'Cache invalidation is not configured (INVALIDATE_KEY)' },
      503,
      noStore,
    )
  if (!key || !(await sameSecret(key, secret)))
    return c.json({ code: 401, result: 'Invalid or missing key' }, 401, noStore)
  const tags = (c.req.query('tag') ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)
  if (!tags.length)
    return c.json({ code: 400, result: 'Missing tag: /invalidate?tag=TAG&key=KEY' }, 400, noStore)
  const bad = tags.find((t) => !TAG_RE.test(t))
  if (bad) return c.json({ code: 400, result: `Invalid tag: ${bad.slice(0, 40)}` }, 400, noStore)
  const purged: Record<string, number> = {}
  for (const tag of tags) purged[tag] = await purgeTag(c.env.DB, tag)
  return c.json({ code: 200, result: { purged } }, 200, noStore)
})
