/**
 * /api/product/* (catalogue spec §7, contract §1.5):
 *   GET  /render-list?skus&currencyCode&storeId   platform price sync
 *   POST /size-guide-collection                    size guides
 *   POST /search-content                           search-page content
 */
import { Hono } from 'hono'
import type { AppEnv } from '../../platform/env'
import { renderList } from './render-list'
import { searchContent } from './search-content'
import { sizeGuideCollection } from './size-guide-collection'

export const productRoutes = new Hono<AppEnv>()
productRoutes.route('/', renderList)
productRoutes.route('/', sizeGuideCollection)
productRoutes.route('/', searchContent)
