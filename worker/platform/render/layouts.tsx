/**
 * Layouts (each route picks one): default = header island, main, footer, notifications island;
 * minimal = a plain header and main, no islands; empty = the page's markup only.
 */

import { CURRENCIES, type CurrencyCode } from '@shared/config/store'
import type { ReactNode } from 'react'
import { AuthModalIsland } from '../../../client/islands/auth/auth-modal'
import type { MenuItem } from '../../../client/islands/layout/header'
import { HeaderIsland } from '../../../client/islands/layout/header'
import { MicrocartIsland } from '../../../client/islands/layout/microcart'
import { NotificationsIsland } from '../../../client/islands/layout/notifications'
import { WishlistPanelIsland } from '../../../client/islands/lists/wishlist-panel'

interface LayoutData {
  storeName: string
  currency: CurrencyCode
  menu: MenuItem[]
  /** Where the support chat's enquiries go (config SUPPORT_EMAIL). */
  supportEmail?: string
}

const FOOTER_LINKS: [string, string][] = [
  ['/i/about-us', 'About us'],
  ['/magazine', 'Magazine'],
  ['/press', 'Press'],
  ['/stockists', 'Stockists'],
  ['/store-locator', 'Store locator'],
  ['/contact', 'Contact'],
  ['/i/shipping-and-returns', 'Shipping & returns'],
]

export function DefaultLayout({ data, children }: { data: LayoutData; children: ReactNode }) {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <HeaderIsland
        storeName={data.storeName}
        currency={data.currency}
        currencies={CURRENCIES.map(({ code, sign }) => ({ code, sign }))}
        supportEmail={data.supportEmail}
        menu={data.menu}
      />
      <main id="main">{children}</main>
      <footer className="footer">
        <div className="footer__inner">
          <nav aria-label="Footer">
            {FOOTER_LINKS.map(([href, label]) => (
              <a key={href} href={href}>
                {label}
              </a>
            ))}
          </nav>
          <p>
            © {data.storeName}. Prices in {data.currency}.
          </p>
        </div>
      </footer>
      <NotificationsIsland />
      <MicrocartIsland />
      <AuthModalIsland />
      <WishlistPanelIsland />
    </>
  )
}

export function MinimalLayout({ storeName, children }: { storeName: string; children: ReactNode }) {
  return (
    <>
      <header className="minimal-header">
        <a href="/" className="header__logo">
          {storeName}
        </a>
      </header>
      <main id="main">{children}</main>
    </>
  )
}
