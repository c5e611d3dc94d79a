/**
 * /api/home/*:
 *   GET /data            home data: { sections, banners {main, small, product}, head_image, popups }
 *   GET /common-config   shop-wide configuration (support contacts, free-shipping threshold...)
 */
import { Hono } from 'hono'
import { getContentDoc } from '../../catalog/content'
import type { AppEnv } from '../../platform/env'
import { fail, ok } from '../../platform/http'

export const homeRoutes = new Hono<AppEnv>()

homeRoutes.get('/data', async (c) => {
  const doc = await getContentDoc(c.env.DB, 'home', c.var.store?.storeId ?? 0)
  if (!doc) fail(404, 'No home data')
  return ok(c, doc)
})

homeRoutes.get('/common-config', async (c) =>
  ok(c, (await getContentDoc(c.env.DB, 'common-config', c.var.store?.storeId ?? 0)) ?? {}),
)
