/**
 * GET /api/ext/cms-data/cmsPage/:id and /cmsBlock/:id (also any casing of cms{type}) → the CMS
 * page or block. Non-numeric id → 400; unknown or inactive → 404 'CMS query returned empty result'
 * / 'CMS block query returned empty result' (catalogue spec §8).
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { MSG } from '../../../shared/i18n/messages'
import { getCmsBlockById, getCmsPageById } from '../../catalog/content'
import { fail, ok, parseOr400 } from '../../catalog/http'
import type { AppEnv } from '../../platform/env'

const IdSchema = z.coerce
  .number({ error: 'id must be a number' })
  .int('id must be a whole number')
  .positive('id must be positive')
  .max(2 ** 31)

export const cmsById = new Hono<AppEnv>()

cmsById.get('/:kind{cms[Pp][Aa][Gg][Ee]|cms[Bb][Ll][Oo][Cc][Kk]}/:id', async (c) => {
  const kind = c.req.param('kind').toLowerCase()
  const id = parseOr400(IdSchema, c.req.param('id'), 'CMS id')
  if (kind === 'cmspage') {
    const page = await getCmsPageById(c.env.DB, id)
    if (!page) fail(404, MSG.cmsQueryEmpty)
    return ok(c, page)
  }
  const block = await getCmsBlockById(c.env.DB, id)
  if (!block) fail(404, MSG.cmsBlockQueryEmpty)
  return ok(c, block)
})
