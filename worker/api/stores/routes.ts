/** GET /api/stores/all — the stores of the store locator (code, name, city, address, hours, lat/lng...). */
import { Hono } from 'hono'
import { getStores } from '../../catalog/content'
import type { AppEnv } from '../../platform/env'
import { ok } from '../../platform/http'

export const storesRoutes = new Hono<AppEnv>()

storesRoutes.get('/all', async (c) => ok(c, await getStores(c.env.DB)))
