/**
 * The embedded backend: the vue-storefront-api contract on D1 and KV. Each area is a sub-app
 * mounted here (paths are relative to /api).
 */
import { Hono } from 'hono'
import type { AppEnv } from '../env'
import { catalogSearchRoutes } from './search/routes'
import { userRoutes } from './user/routes'

export const embeddedBackend = new Hono<AppEnv>()
embeddedBackend.route('/user', userRoutes)
embeddedBackend.route('/catalog', catalogSearchRoutes)
