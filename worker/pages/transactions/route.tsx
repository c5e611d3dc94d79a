/**
 * Cart, checkout and confirmation shells:
 *   GET /cart          the cart page (CartPageIsland)
 *   GET /checkout      checkout (CheckoutIsland)
 *   GET /confirmation  'Order Confirmation' (ConfirmationIsland; ?orderId=)
 * Their content is personal, so the islands fill it in the browser from the local stores and /api;
 * the HTML itself carries nothing personal, is never cached (private, no-store) and never indexed.
 */

import { PAGE_TEXT } from '@shared/i18n/messages'
import { CartPageIsland } from '../../../client/islands/cart/cart-page'
import { CheckoutIsland } from '../../../client/islands/checkout/checkout-page'
import { ConfirmationIsland } from '../../../client/islands/checkout/confirmation-page'
import { renderPage } from '../../platform/render/render-page'
import type { RouteHandler, RouteHandlers } from '../../platform/router'

const PRIVATE = { 'cache-control': 'private, no-store' }
const NOINDEX = { robots: 'noindex, nofollow' }

const cartPage: RouteHandler = (c) =>
  renderPage(
    c,
    <div className="page page--cart">
      <h1>Shopping cart</h1>
      <CartPageIsland />
    </div>,
    { title: 'Shopping cart', layout: 'default', entry: 'cart', meta: NOINDEX, headers: PRIVATE },
  )

const checkoutPage: RouteHandler = (c) =>
  renderPage(
    c,
    <div className="page page--checkout">
      <h1>Checkout</h1>
      <CheckoutIsland
        supportEmail={c.var.config.SUPPORT_EMAIL}
        country={c.var.store.country}
        paymentCurrencies={JSON.stringify(c.var.config.PAYMENT_CURRENCIES)}
      />
    </div>,
    { title: 'Checkout', layout: 'default', entry: 'checkout', meta: NOINDEX, headers: PRIVATE },
  )

const confirmationPage: RouteHandler = (c) =>
  renderPage(
    c,
    <div className="page page--confirmation">
      <h1>{PAGE_TEXT.orderConfirmationTitle}</h1>
      <ConfirmationIsland />
    </div>,
    {
      title: PAGE_TEXT.orderConfirmationTitle,
      layout: 'default',
      entry: 'confirmation',
      meta: NOINDEX,
      headers: PRIVATE,
    },
  )

export const transactionPages = {
  cart: cartPage,
  checkout: checkoutPage,
  confirmation: confirmationPage,
} satisfies RouteHandlers
