/**
 * Mounts the route table (shared/config/routes.ts): every row with the handler of its name. The
 * handler table is typed by the row names, so a row without a handler, or a handler for a name the
 * table does not have, is a compile error: a route exists in the table, the worker, the sitemap
 * and the tests at once or nowhere.
 */

import { RESOURCE_ROUTES, ROUTES, type RouteName, type RoutePath } from '@shared/config/routes'
import type { Handler, Hono } from 'hono'
import { allowReadsAhead, readsAheadHeld, stopReadsAhead } from './catalogue-version'
import type { AppEnv } from './env'

/** The handler of route `N` (its path parameters typed from the table), or of any route. */
export type RouteHandler<N extends RouteName = RouteName> = Handler<AppEnv, RoutePath<N>>

/** Some rows' handlers (what one page module provides). */
export type RouteHandlers = { [N in RouteName]?: RouteHandler }

/**
 * A route's handler reading memoised reference data ahead of its version read (one round trip to
 * the database instead of two, worker/platform/catalogue-version.ts): when that read finds the
 * reference data moved meanwhile, the answer built is dropped and built again from fresh reads.
 */
function readingAhead(handler: RouteHandler): RouteHandler {
  return async (c, next) => {
    allowReadsAhead(c)
    const res = await handler(c, next)
    if (await readsAheadHeld(c)) return res
    stopReadsAhead(c)
    await (res as Response | undefined)?.body?.cancel()
    return handler(c, next)
  }
}

/** Mounts every row of the route table (GET, which also answers HEAD). */
export function mountRoutes(app: Hono<AppEnv>, handlers: { [N in RouteName]: RouteHandler }): void {
  for (const route of [...ROUTES, ...RESOURCE_ROUTES]) app.get(route.path, readingAhead(handlers[route.name]))
}
