/**
 * POST /api/product/search-content — search-page content (popular searches, trending
 * categories, banner). Body: { term?: string } (also accepts q / searchTerm); unknown or empty
 * term → the default content.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { getSearchContent } from '../../catalog/content'
import { ok, parseOr400, readJsonBody } from '../../catalog/http'
import type { AppEnv } from '../../platform/env'

const BodySchema = z.object({
  term: z.string().max(200).optional(),
  q: z.string().max(200).optional(),
  searchTerm: z.string().max(200).optional(),
})

export const searchContent = new Hono<AppEnv>()

searchContent.post('/search-content', async (c) => {
  const body = parseOr400(BodySchema, await readJsonBody(c), 'request body')
  const term = body.term ?? body.searchTerm ?? body.q ?? ''
  return ok(c, await getSearchContent(c.env.DB, term))
})
