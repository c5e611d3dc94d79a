/**
 * /api/product/*:
 *   GET  /list?skus                                the platform's product records (max 100 skus)
 *   GET  /render-list?skus&currencyCode&storeId   the platform price sync (max 100 skus)
 *   POST /size-guide-collection                    size guides. Body (all optional): { sku } (the
 *                                                  product's guide), { codes: [...] } (guides by
 *                                                  code); empty body → every guide. Result: array.
 *   POST /search-content                           search-page content (popular searches, trending
 *                                                  categories, banner). Body: { term? } (also q or
 *                                                  searchTerm); unknown or empty → the default
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { getSearchContent, getSizeGuides } from '../../catalog/content'
import { getProductsBySku } from '../../catalog/products'
import type { AppEnv } from '../../platform/env'
import { jsonBody, ok, query } from '../../platform/http'
import { ProductListQuery, productList } from './list'
import { RenderListQuery, renderList } from './render-list'

const SizeGuideBody = z.object({
  sku: z.string().trim().min(1).max(128).optional(),
  codes: z.array(z.string().trim().min(1).max(64)).max(50).optional(),
})

const SearchContentBody = z.object({
  term: z.string().max(200).optional(),
  q: z.string().max(200).optional(),
  searchTerm: z.string().max(200).optional(),
})

export const productRoutes = new Hono<AppEnv>()

productRoutes.get('/list', query(ProductListQuery), async (c) =>
  ok(c, await productList(c.env.DB, c.req.valid('query').skus)),
)

productRoutes.get('/render-list', query(RenderListQuery), async (c) =>
  ok(c, { items: await renderList(c, c.req.valid('query')) }),
)

productRoutes.post('/size-guide-collection', jsonBody(SizeGuideBody), async (c) => {
  const body = c.req.valid('json')
  if (body.sku) {
    const hit = (await getProductsBySku(c.env.DB, [body.sku])).get(body.sku)
    const code = (hit?.product as { size_guide?: unknown } | undefined)?.size_guide
    return ok(c, typeof code === 'string' ? await getSizeGuides(c.env.DB, [code]) : [])
  }
  return ok(c, await getSizeGuides(c.env.DB, body.codes))
})

productRoutes.post('/search-content', jsonBody(SearchContentBody), async (c) => {
  const body = c.req.valid('json')
  const term = body.term ?? body.searchTerm ?? body.q ?? ''
  return ok(c, await getSearchContent(c.env.DB, term))
})
