/**
 * /api/ext/cms-data/*: CMS pages and blocks.
 *   GET /cmsPage/:id, /cmsBlock/:id (any casing of cms{type})   by id; a non-numeric id → 400
 *   GET /cmsPageIdentifier/:identifier/storeId/:storeId,
 *       /cmsBlockIdentifier/:identifier/storeId/:storeId        the page or block for that store
 *       view (store-specific first, else all views); a bad identifier or storeId → 400
 * Unknown or inactive → 404 'CMS query returned empty result' / 'CMS block query returned empty
 * result'.
 */

import { PAGE_TEXT } from '@shared/i18n/messages'
import { Hono } from 'hono'
import { z } from 'zod'
import {
  getCmsBlockById,
  getCmsBlockByIdentifier,
  getCmsPageById,
  getCmsPageByIdentifier,
} from '../../catalog/content'
import type { AppEnv } from '../../platform/env'
import { fail, ok, params } from '../../platform/http'

const ByIdParams = z.object({
  kind: z.string(),
  id: z.coerce
    .number({ error: 'id must be a number' })
    .int('id must be a whole number')
    .positive('id must be positive')
    .max(2 ** 31),
})

const ByIdentifierParams = z.object({
  kind: z.string(),
  identifier: z
    .string()
    .min(1, 'identifier is required')
    .max(200, 'identifier is too long')
    .regex(/^[A-Za-z0-9_\-/.]+$/, 'identifier may contain only letters, digits, - _ / .'),
  storeId: z.coerce
    .number({ error: 'storeId must be a number' })
    .int('storeId must be a whole number')
    .min(0)
    .max(10000),
})

export const cmsRoutes = new Hono<AppEnv>()

cmsRoutes.get(
  '/:kind{cms[Pp][Aa][Gg][Ee][Ii]dentifier|cms[Bb][Ll][Oo][Cc][Kk][Ii]dentifier}/:identifier/storeId/:storeId',
  params(ByIdentifierParams, 'CMS request'),
  async (c) => {
    const { kind, identifier, storeId } = c.req.valid('param')
    if (kind.toLowerCase() === 'cmspageidentifier') {
      const page = await getCmsPageByIdentifier(c.env.DB, identifier, storeId)
      if (!page) fail(404, PAGE_TEXT.cmsQueryEmpty)
      return ok(c, page)
    }
    const block = await getCmsBlockByIdentifier(c.env.DB, identifier, storeId)
    if (!block) fail(404, PAGE_TEXT.cmsBlockQueryEmpty)
    return ok(c, block)
  },
)

cmsRoutes.get(
  '/:kind{cms[Pp][Aa][Gg][Ee]|cms[Bb][Ll][Oo][Cc][Kk]}/:id',
  params(ByIdParams, 'CMS id'),
  async (c) => {
    const { kind, id } = c.req.valid('param')
    if (kind.toLowerCase() === 'cmspage') {
      const page = await getCmsPageById(c.env.DB, id)
      if (!page) fail(404, PAGE_TEXT.cmsQueryEmpty)
      return ok(c, page)
    }
    const block = await getCmsBlockById(c.env.DB, id)
    if (!block) fail(404, PAGE_TEXT.cmsBlockQueryEmpty)
    return ok(c, block)
  },
)
