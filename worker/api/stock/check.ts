/**
 * GET|POST /api/stock/check?sku=X and GET|POST /api/stock/check/:sku → one Magento stock item
 * (qty, is_in_stock, product_id, manage_stock...). Missing sku → 400; unknown sku → 404.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { fail, ok, parseOr400 } from '../../catalog/http'
import type { AppEnv } from '../../platform/env'
import { getStockItems } from './stock-item'

const SkuSchema = z.string({ error: 'Missing sku' }).trim().min(1, 'Missing sku').max(128, 'sku is too long')

export const stockCheck = new Hono<AppEnv>()

const handler = async (c: import('hono').Context<AppEnv>, raw: string | undefined) => {
  const sku = parseOr400(SkuSchema, raw, 'sku')
  const item = (await getStockItems(c.env.DB, [sku])).get(sku)
  if (!item) fail(404, `No stock item for sku ${sku}`)
  return ok(c, item)
}

stockCheck.on(['GET', 'POST'], '/check', (c) => handler(c, c.req.query('sku')))
stockCheck.on(['GET', 'POST'], '/check/:sku', (c) => handler(c, c.req.param('sku')))
