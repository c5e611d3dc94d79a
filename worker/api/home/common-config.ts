/** GET /api/home/common-config — shop-wide configuration (support contacts, free-shipping threshold...). */
import { Hono } from 'hono'
import { getContentDoc } from '../../catalog/content'
import { ok } from '../../catalog/http'
import type { AppEnv } from '../../platform/env'

export const commonConfig = new Hono<AppEnv>()

commonConfig.get('/common-config', async (c) =>
  ok(c, (await getContentDoc(c.env.DB, 'common-config', c.var.store?.storeId ?? 0)) ?? {}),
)
