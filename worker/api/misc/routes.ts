/** POST /api/misc/otw-data — the "outfit of the week" content (title, description, skus, image). */
import { Hono } from 'hono'
import { z } from 'zod'
import { getContentDoc } from '../../catalog/content'
import { ok, parseOr400, readJsonBody } from '../../catalog/http'
import type { AppEnv } from '../../platform/env'

// The body is not used; it must still be a JSON object (or empty).
const BodySchema = z.record(z.string(), z.unknown())

export const miscRoutes = new Hono<AppEnv>()

miscRoutes.post('/otw-data', async (c) => {
  parseOr400(BodySchema, await readJsonBody(c), 'request body')
  return ok(c, (await getContentDoc(c.env.DB, 'otw', c.var.store?.storeId ?? 0)) ?? {})
})
