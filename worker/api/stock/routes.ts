/**
 * /api/stock/* (Magento stock items):
 *   GET|POST /check?sku=X, /check/:sku   one stock item
 *   GET|POST /list?skus=a,b               stock items (chunks of 15 from the client; max 100)
 */
import { Hono } from 'hono'
import type { AppEnv } from '../../platform/env'
import { stockCheck } from './check'
import { stockList } from './list'

export const stockRoutes = new Hono<AppEnv>()
stockRoutes.route('/', stockCheck)
stockRoutes.route('/', stockList)
