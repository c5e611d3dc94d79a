/**
 * GET /order/<number>: the order page a shopper opens from the order e-mail or the confirmation.
 * The HTML is the same for everyone and carries nothing about the order: the island loads it in
 * the browser with the link token from the URL fragment (never sent to the server with the page
 * request), the guest access key kept on the device, or the customer's token. Never cached or
 * indexed.
 */
import { OrderPageIsland } from '../../../client/islands/order/order-page'
import { renderPage } from '../../platform/render/render-page'
import type { RouteHandler, RouteHandlers } from '../../platform/router'

const orderPage: RouteHandler = (c) =>
  renderPage(
    c,
    <div className="page page--order">
      <h1>Your order</h1>
      <OrderPageIsland orderNumber={c.req.param('number') ?? ''} />
    </div>,
    {
      title: 'Your order',
      layout: 'default',
      entry: 'confirmation',
      meta: { robots: 'noindex, nofollow' },
      headers: { 'cache-control': 'private, no-store' },
    },
  )

export const orderPages = { order: orderPage } satisfies RouteHandlers
