/**
 * POST /api/product/size-guide-collection — size guides. Body (all optional): { sku } (the
 * product's guide), { codes: [...] } (guides by code); empty body → every guide. Result: array.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { getSizeGuides } from '../../catalog/content'
import { ok, parseOr400, readJsonBody } from '../../catalog/http'
import { getProductsBySku } from '../../catalog/products'
import type { AppEnv } from '../../platform/env'

const BodySchema = z.object({
  sku: z.string().trim().min(1).max(128).optional(),
  codes: z.array(z.string().trim().min(1).max(64)).max(50).optional(),
})

export const sizeGuideCollection = new Hono<AppEnv>()

sizeGuideCollection.post('/size-guide-collection', async (c) => {
  const body = parseOr400(BodySchema, await readJsonBody(c), 'request body')
  if (body.sku) {
    const hit = (await getProductsBySku(c.env.DB, [body.sku])).get(body.sku)
    const code = (hit?.product as { size_guide?: unknown } | undefined)?.size_guide
    return ok(c, typeof code === 'string' ? await getSizeGuides(c.env.DB, [code]) : [])
  }
  return ok(c, await getSizeGuides(c.env.DB, body.codes))
})
