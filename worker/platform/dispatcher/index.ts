/**
 * The URL dispatcher: runs only after the router misses. Resolution order is a pure function with
 * its lookups injected; the app passes the lookups and the rewrite to the handler.
 */
import type { Context } from 'hono'
import type { AppEnv } from '../env'

export type DispatchResult =
  | { kind: 'redirect'; location: string; status: 301 | 302 }
  | { kind: 'rewrite'; path: string; routeName: string }
  | { kind: 'not-found' }

export interface DispatchLookups {
  /** (1) a stored URL mapping. */
  mapping?: (path: string) => Promise<DispatchResult | null>
  /** (2) a product by url_path. */
  product?: (path: string) => Promise<DispatchResult | null>
  /** (3) a category by url_path. */
  category?: (path: string) => Promise<DispatchResult | null>
}

/** Resolves an unmatched path: mapping, then product, then category, else not-found. */
export async function resolveUrl(path: string, lookups: DispatchLookups): Promise<DispatchResult> {
  for (const step of [lookups.mapping, lookups.product, lookups.category]) {
    if (!step) continue
    const hit = await step(path)
    if (hit) return hit
  }
  return { kind: 'not-found' }
}

/** The notFound handler for pages: resolve with `lookups`, else redirect to /page-not-found. */
export async function dispatch(
  c: Context<AppEnv>,
  lookups: DispatchLookups,
  rewrite: (path: string) => Promise<Response>,
) {
  const path = c.req.path
  // Pages are GET-only: any other method gets 303 (which the client follows with GET), never a
  // 302 that PUT/PATCH/DELETE would follow with the same method into a redirect loop.
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return c.redirect('/page-not-found', 303)
  // Store-code prefixes /de and /it exist but are disabled (multistore off): unknown URLs.
  if (/^\/(de|it)(\/|$)/.test(path)) return c.redirect('/page-not-found', 302)
  let result: DispatchResult
  try {
    result = await resolveUrl(path, lookups)
  } catch (err) {
    console.error(JSON.stringify({ requestId: c.var.requestId, msg: 'dispatcher failed', err: String(err) }))
    result = { kind: 'not-found' }
  }
  if (result.kind === 'rewrite') {
    const res = await rewrite(result.path)
    const out = new Response(res.body, res)
    out.headers.set('x-route-name', result.routeName)
    return out
  }
  if (result.kind === 'redirect') return c.redirect(result.location, result.status)
  // 'Route not found' / 'No mapping found' lead to /page-not-found (a redirect on the server side).
  return c.redirect('/page-not-found', 302)
}
