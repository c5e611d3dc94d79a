/**
 * Cart, checkout and confirmation shells. Their content is personal, so it is filled by islands in
 * the browser; the HTML itself is never cached and never indexed.
 */
import { Hono } from 'hono'
import type { AppEnv } from '../env'
import { renderPage } from '../render/render-page'

export const transactionRoutes = new Hono<AppEnv>()

const PRIVATE = { 'cache-control': 'private, no-store' }

transactionRoutes.get('/cart', (c) =>
  renderPage(c, <h1>Shopping cart</h1>, {
    title: 'Shopping cart',
    layout: 'default',
    entry: 'cart',
    meta: { robots: 'noindex' },
    headers: PRIVATE,
  }),
)

transactionRoutes.get('/checkout', (c) =>
  renderPage(c, <h1>Checkout</h1>, {
    title: 'Checkout',
    layout: 'default',
    entry: 'checkout',
    meta: { robots: 'noindex' },
    headers: PRIVATE,
  }),
)

transactionRoutes.get('/confirmation', (c) =>
  renderPage(c, <h1>Order Confirmation</h1>, {
    title: 'Order Confirmation',
    layout: 'default',
    entry: 'confirmation',
    meta: { robots: 'noindex' },
    headers: PRIVATE,
  }),
)
