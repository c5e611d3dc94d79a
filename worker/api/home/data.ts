/** GET /api/home/data — home data: { sections, banners {main, small, product}, head_image, popups }. */
import { Hono } from 'hono'
import { getContentDoc } from '../../catalog/content'
import { fail, ok } from '../../catalog/http'
import type { AppEnv } from '../../platform/env'

export const homeData = new Hono<AppEnv>()

homeData.get('/data', async (c) => {
  const doc = await getContentDoc(c.env.DB, 'home', c.var.store?.storeId ?? 0)
  if (!doc) fail(404, 'No home data')
  return ok(c, doc)
})
