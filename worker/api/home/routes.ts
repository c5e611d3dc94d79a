/**
 * /api/home/* (transactions spec §7 "Other"):
 *   GET /data            home data (result.sections, banners, head image, popups/strips)
 *   GET /common-config   common configuration
 */
import { Hono } from 'hono'
import type { AppEnv } from '../../platform/env'
import { commonConfig } from './common-config'
import { homeData } from './data'

export const homeRoutes = new Hono<AppEnv>()
homeRoutes.route('/', homeData)
homeRoutes.route('/', commonConfig)
