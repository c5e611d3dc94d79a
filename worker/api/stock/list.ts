/**
 * GET|POST /api/stock/list?skus=a,b,c → array of Magento stock items (unknown skus omitted).
 * The client asks in chunks of 15; up to 100 skus are accepted, more is a 400.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { ok, parseOr400 } from '../../catalog/http'
import type { AppEnv } from '../../platform/env'
import { getStockItems } from './stock-item'

/** The most skus one /stock/list call may ask for. */
export const STOCK_LIST_MAX_SKUS = 100

const SkusSchema = z
  .string({ error: 'Missing skus' })
  .transform((s) => [
    ...new Set(
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    ),
  ])
  .pipe(
    z
      .array(z.string().max(128, 'sku is too long'))
      .min(1, 'Missing skus')
      .max(STOCK_LIST_MAX_SKUS, `At most ${STOCK_LIST_MAX_SKUS} skus per request`),
  )

export const stockList = new Hono<AppEnv>()

stockList.on(['GET', 'POST'], '/list', async (c) => {
  const skus = parseOr400(SkusSchema, c.req.query('skus'), 'skus')
  const items = await getStockItems(c.env.DB, skus)
  return ok(
    c,
    skus.flatMap((s) => {
      const it = items.get(s)
      return it ? [it] : []
    }),
  )
})
