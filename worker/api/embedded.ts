/**
 * The embedded backend: the vue-storefront-api contract on D1 and KV. Each area is a sub-app
 * mounted here (paths are relative to /api).
 */
import { Hono } from 'hono'
import { documentRoutes } from '../documents/routes'
import type { AppEnv } from '../platform/env'
import { analyticsRoutes } from './analytics/routes'
import { cartRoutes } from './cart/routes'
import { catalogSearchRoutes } from './catalog/routes'
import { checkoutRoutes } from './checkout/routes'
import { cmsRoutes } from './cms/routes'
import { fulfilmentRoutes } from './fulfilment/routes'
import { giftcardRoutes } from './giftcard/routes'
import { homeRoutes } from './home/routes'
import { mailRoutes } from './mail/routes'
import { messageRoutes } from './messages/routes'
import { miscRoutes } from './misc/routes'
import { newsletterRoutes } from './newsletter/routes'
import { orderRoutes } from './order/routes'
import { paymentRoutes } from './payment/routes'
import { productRoutes } from './product/routes'
import { reviewRoutes } from './review/routes'
import { stateRoutes } from './state/routes'
import { stockRoutes } from './stock/routes'
import { stockAlertRoutes } from './stock-alerts/routes'
import { storesRoutes } from './stores/routes'
import { urlRoutes } from './url/routes'
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
embeddedBackend.route('/checkout', checkoutRoutes)
embeddedBackend.route('/order', orderRoutes)
embeddedBackend.route('/payment', paymentRoutes)
embeddedBackend.route('/fulfilment', fulfilmentRoutes)
embeddedBackend.route('/messages', messageRoutes)
embeddedBackend.route('/documents', documentRoutes)
embeddedBackend.route('/state', stateRoutes)
embeddedBackend.route('/fbconversion', analyticsRoutes)
embeddedBackend.route('/catalog', catalogSearchRoutes)
embeddedBackend.route('/stock', stockRoutes)
embeddedBackend.route('/stock-alerts', stockAlertRoutes)
embeddedBackend.route('/product', productRoutes)
embeddedBackend.route('/stores', storesRoutes)
embeddedBackend.route('/home', homeRoutes)
embeddedBackend.route('/misc', miscRoutes)
embeddedBackend.route('/ext/cms-data', cmsRoutes)
embeddedBackend.route('/url', urlRoutes)
