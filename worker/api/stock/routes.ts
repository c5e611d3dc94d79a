/**
 * /api/stock/* (Magento stock items):
 *   GET|POST /check?sku=X, /check/:sku   one stock item; missing sku → 400, unknown sku → 404
 *   GET|POST /list?skus=a,b               stock items, unknown skus omitted (the client asks in
 *                                         chunks of 15; up to 100 skus, more is a 400)
 */
import { type Context, Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../platform/env'
import { fail, ok, params, query, skuListParam } from '../../platform/http'
import { getStockItems } from './stock-item'

/** The most skus one /stock/list call may ask for. */
const STOCK_LIST_MAX_SKUS = 100

const SkuSchema = z.string({ error: 'Missing sku' }).trim().min(1, 'Missing sku').max(128, 'sku is too long')
const SkuInput = z.object({ sku: SkuSchema })

const SkusInput = z.object({
  skus: skuListParam(STOCK_LIST_MAX_SKUS),
})

async function stockItem(c: Context<AppEnv>, sku: string) {
  const item = (await getStockItems(c.env.DB, [sku])).get(sku)
  if (!item) fail(404, `No stock item for sku ${sku}`)
  return ok(c, item)
}

export const stockRoutes = new Hono<AppEnv>()

stockRoutes.on(['GET', 'POST'], '/check', query(SkuInput), (c) => stockItem(c, c.req.valid('query').sku))
stockRoutes.on(['GET', 'POST'], '/check/:sku', params(SkuInput), (c) =>
  stockItem(c, c.req.valid('param').sku),
)

stockRoutes.on(['GET', 'POST'], '/list', query(SkusInput), async (c) => {
  const { skus } = c.req.valid('query')
  const items = await getStockItems(c.env.DB, skus)
  return ok(
    c,
    skus.flatMap((s) => {
      const it = items.get(s)
      return it ? [it] : []
    }),
  )
})
