/**
 * D1 read replication through the Sessions API. Every request runs its queries in one D1 session:
 *  - a request that carries the bookmark of the visitor's own last write (the `d1b` cookie or the
 *    `x-d1-bookmark` header) starts from it, so it reads at least what that write left — a shopper
 *    sees their cart, order or review on the next request, whichever replica answers;
 *  - otherwise checkout, account, cart, order, payment and back-office requests start at the
 *    primary ('first-primary': the newest data, for money and personal data);
 *  - everything else (the catalogue, content, search) starts at the nearest replica
 *    ('first-unconstrained').
 * Within one request the session is sequentially consistent (its own writes are visible to its
 * later reads). After a request that can write (any method but GET and HEAD) the session's
 * bookmark goes back to the browser in the `d1b` cookie and the `x-d1-bookmark` header, so the
 * next request reads its own write; GET answers never set it (the output cache stores only
 * answers without cookies). Scheduled jobs use the database directly (the primary).
 */
import type { MiddlewareHandler } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import { coalesceReads } from '../d1-reads'
import { type AppEnv, withDatabase } from '../env'

const BOOKMARK_COOKIE = 'd1b'
export const BOOKMARK_HEADER = 'x-d1-bookmark'
/** How long a write's bookmark is worth carrying: replicas catch up within seconds. */
const BOOKMARK_MAX_AGE_SECONDS = 300
/** A bookmark is an opaque token of D1's: short, printable, no separators a cookie cannot hold. */
const BOOKMARK_RE = /^[A-Za-z0-9_.:+/=-]{1,200}$/

/** Paths whose first read goes to the primary (money, orders, personal data, operators). */
const PRIMARY_PATHS =
  /^\/(?:api\/(?:cart|order|user|checkout|payment|giftcard|wishlist|stock)(?:\/|$)|checkout|confirmation|my-account|order\/|admin|cart(?:$|\/))/

/** The session constraint (or bookmark) a request starts from. */
export function sessionStart(path: string, bookmark: string | undefined): string {
  if (bookmark && BOOKMARK_RE.test(bookmark)) return bookmark
  return PRIMARY_PATHS.test(path) ? 'first-primary' : 'first-unconstrained'
}

export const d1Session: MiddlewareHandler<AppEnv> = async (c, next) => {
  const db = c.env.DB
  if (typeof db?.withSession !== 'function') return next()
  const incoming = c.req.header(BOOKMARK_HEADER) ?? getCookie(c, BOOKMARK_COOKIE)
  const start = sessionStart(c.req.path, incoming)
  let session: D1DatabaseSession
  try {
    session = db.withSession(start)
  } catch {
    // A bookmark D1 does not accept (forged, or from another database) is as good as none.
    session = db.withSession(sessionStart(c.req.path, undefined))
  }
  // Every later step (routes, loaders, the output cache's tag index) reads through the session; a
  // GET's reads made at the same moment share one round trip (d1-reads.ts).
  const reads = session as unknown as D1Database
  c.env = withDatabase(
    c.env,
    c.req.method === 'GET' || c.req.method === 'HEAD' ? coalesceReads(reads) : reads,
  )
  await next()
  if (c.req.method === 'GET' || c.req.method === 'HEAD') return
  const bookmark = session.getBookmark()
  if (!bookmark || !BOOKMARK_RE.test(bookmark) || bookmark === incoming) return
  c.header(BOOKMARK_HEADER, bookmark)
  setCookie(c, BOOKMARK_COOKIE, bookmark, {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: new URL(c.req.url).protocol === 'https:',
    maxAge: BOOKMARK_MAX_AGE_SECONDS,
  })
}
