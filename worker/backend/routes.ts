/**
 * The embedded backend: the vue-storefront-api contract on D1 and KV. Each area is a sub-app
 * mounted here (paths are relative to /api).
 */
import { Hono } from 'hono'
import type { AppEnv } from '../env'
import { analyticsRoutes } from './analytics/routes'
import { cartRoutes } from './cart/routes'
import { stateRoutes } from './cart/state-routes'
import { giftcardRoutes } from './giftcard/routes'
import { mailRoutes } from './mail/routes'
import { newsletterRoutes } from './newsletter/routes'
import { orderRoutes } from './order/routes'
import { reviewRoutes } from './review/routes'
import { catalogSearchRoutes } from './search/routes'
import { userRoutes } from './user/routes'
import { wishlistRoutes } from './wishlist/routes'

export const embeddedBackend = new Hono<AppEnv>()
embeddedBackend.route('/user', userRoutes)
embeddedBackend.route('/giftcard', giftcardRoutes)
embeddedBackend.route('/review', reviewRoutes)
embeddedBackend.route('/ext/mailchimp-subscribe', newsletterRoutes)
embeddedBackend.route('/ext/mail-service', mailRoutes)
embeddedBackend.route('/wishlist', wishlistRoutes)
embeddedBackend.route('/cart', cartRoutes)
embeddedBackend.route('/order', orderRoutes)
embeddedBackend.route('/state', stateRoutes)
embeddedBackend.route('/fbconversion', analyticsRoutes)
embeddedBackend.route('/catalog', catalogSearchRoutes)
