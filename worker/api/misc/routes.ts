/** POST /api/misc/otw-data — the "outfit of the week" content (title, description, skus, image). */
import { Hono } from 'hono'
import { z } from 'zod'
import { getContentDoc } from '../../catalog/content'
import type { AppEnv } from '../../platform/env'
import { jsonBody, ok } from '../../platform/http'

// The body is not used; it must still be a JSON object (or empty).
const BodySchema = z.record(z.string(), z.unknown())

export const miscRoutes = new Hono<AppEnv>()

miscRoutes.post('/otw-data', jsonBody(BodySchema), async (c) => {
  return ok(c, (await getContentDoc(c.env.DB, 'otw', c.var.store?.storeId ?? 0)) ?? {})
})
