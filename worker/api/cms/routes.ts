/**
 * /api/ext/cms-data/* (contract §1.5 ext cms-data; catalogue spec §7 CMS):
 *   GET /cmsPage/:id, /cmsBlock/:id                                      by id
 *   GET /cmsPageIdentifier/:identifier/storeId/:storeId, /cmsBlockIdentifier/...   by identifier
 */
import { Hono } from 'hono'
import type { AppEnv } from '../../platform/env'
import { cmsById } from './by-id'
import { cmsByIdentifier } from './by-identifier'

export const cmsRoutes = new Hono<AppEnv>()
cmsRoutes.route('/', cmsByIdentifier)
cmsRoutes.route('/', cmsById)
