/**
 * /my-account/* shells:
 *   GET /my-account                      dashboard
 *   GET /my-account/personal-details     profile + change password
 *   GET /my-account/address-book         addresses
 *   GET /my-account/newsletter           newsletter
 *   GET /my-account/credit-details       store credit
 *   GET /my-account/orders               order history
 *   GET /my-account/orders/:orderId      a single order
 * Login is required, but the server does not check it (it has no session: tokens live in the
 * browser), so the account island sends a visitor without a session home and remembers the path. The HTML carries
 * nothing personal (the island loads it with the user's token), is private, no-store and noindex.
 */
import { AccountIsland, type AccountSection } from '../../../client/islands/account/account-page'
import { renderPage } from '../../platform/render/render-page'
import type { RouteHandler, RouteHandlers } from '../../platform/router'

const TITLES: Record<Exclude<AccountSection, 'order'>, string> = {
  dashboard: 'My account',
  'personal-details': 'Personal details',
  'address-book': 'Address book',
  newsletter: 'Newsletter',
  'credit-details': 'Store credit',
  orders: 'My orders',
}

const opts = (title: string) =>
  ({
    title,
    layout: 'default',
    entry: 'account',
    meta: { robots: 'noindex, nofollow' },
    headers: { 'cache-control': 'private, no-store' },
  }) as const

/** An account section's page (the island fills it in the browser). */
function sectionPage(section: keyof typeof TITLES): RouteHandler {
  const title = TITLES[section]
  return (c) =>
    renderPage(
      c,
      <div className="page page--account">
        <h1>{title}</h1>
        <AccountIsland section={section} />
      </div>,
      opts(title),
    )
}

/** One order: the island names it by the order's own number (the URL may hold its entity id). */
const orderPage: RouteHandler<'single-order'> = (c) => {
  const orderId = c.req.param('orderId').slice(0, 64)
  const title = 'Your order'
  return renderPage(
    c,
    <div className="page page--account">
      <h1>{title}</h1>
      <AccountIsland section="order" orderId={orderId} />
    </div>,
    opts(title),
  )
}

export const accountPages = {
  'my-account': sectionPage('dashboard'),
  'personal-details': sectionPage('personal-details'),
  'address-book': sectionPage('address-book'),
  newsletter: sectionPage('newsletter'),
  credits: sectionPage('credit-details'),
  orders: sectionPage('orders'),
  'single-order': orderPage,
} satisfies RouteHandlers
