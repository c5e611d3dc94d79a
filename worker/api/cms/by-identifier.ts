/**
 * GET /api/ext/cms-data/cmsPageIdentifier/:identifier/storeId/:storeId and
 * /cmsBlockIdentifier/:identifier/storeId/:storeId → the page or block for that store view
 * (store-specific first, else all views). Bad identifier or storeId → 400; none → 404.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { MSG } from '../../../shared/i18n/messages'
import { getCmsBlockByIdentifier, getCmsPageByIdentifier } from '../../catalog/content'
import { fail, ok, parseOr400 } from '../../catalog/http'
import type { AppEnv } from '../../platform/env'

const ParamsSchema = z.object({
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

export const cmsByIdentifier = new Hono<AppEnv>()

cmsByIdentifier.get(
  '/:kind{cms[Pp][Aa][Gg][Ee][Ii]dentifier|cms[Bb][Ll][Oo][Cc][Kk][Ii]dentifier}/:identifier/storeId/:storeId',
  async (c) => {
    const kind = c.req.param('kind').toLowerCase()
    const { identifier, storeId } = parseOr400(
      ParamsSchema,
      { identifier: c.req.param('identifier'), storeId: c.req.param('storeId') },
      'CMS request',
    )
    if (kind === 'cmspageidentifier') {
      const page = await getCmsPageByIdentifier(c.env.DB, identifier, storeId)
      if (!page) fail(404, MSG.cmsQueryEmpty)
      return ok(c, page)
    }
    const block = await getCmsBlockByIdentifier(c.env.DB, identifier, storeId)
    if (!block) fail(404, MSG.cmsBlockQueryEmpty)
    return ok(c, block)
  },
)
