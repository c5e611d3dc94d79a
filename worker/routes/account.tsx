/**
 * /my-account/* shells. Login is required; "the check is skipped on the server side" (transactions
 * spec §2), so the account island sends a visitor without a session home and remembers the path.
 */
import { Hono } from 'hono'
import type { AppEnv } from '../env'
import { renderPage } from '../render/render-page'

export const accountRoutes = new Hono<AppEnv>()

const SECTIONS: Record<string, string> = {
  '': 'My account',
  '/personal-details': 'Personal details',
  '/address-book': 'Address book',
  '/newsletter': 'Newsletter',
  '/credit-details': 'Store credit',
  '/orders': 'My orders',
}

const opts = (title: string) =>
  ({
    title,
    layout: 'default',
    entry: 'account',
    meta: { robots: 'noindex, nofollow' },
    headers: { 'cache-control': 'private, no-store' },
  }) as const

for (const [suffix, title] of Object.entries(SECTIONS)) {
  accountRoutes.get(`/my-account${suffix}`, (c) => renderPage(c, <h1>{title}</h1>, opts(title)))
}

accountRoutes.get('/my-account/orders/:orderId', (c) => {
  const title = `Order #${c.req.param('orderId')}`
  return renderPage(c, <h1>{title}</h1>, opts(title))
})
