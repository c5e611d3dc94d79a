/**
 * Layouts (each route picks one): default = the icon sprite, header island, main, footer (care,
 * house and policy links, payment methods, social links), notifications island;
 * minimal = a plain header and main, no islands; empty = the page's markup only.
 */

import { SHIPPING_COUNTRIES } from '@shared/config/checkout'
import { CURRENCIES, type CurrencyCode } from '@shared/config/store'
import { PAGE_TEXT } from '@shared/i18n/messages'
import type { ReactNode } from 'react'
import { renderToString } from 'react-dom/server.node'
import { AuthModalIsland } from '../../../client/islands/auth/auth-modal'
import type { MenuItem } from '../../../client/islands/layout/header'
import { HeaderIsland } from '../../../client/islands/layout/header'
import { Icon, type IconName, IconSprite } from '../../../client/islands/layout/icons'
import { MicrocartIsland } from '../../../client/islands/layout/microcart'
import { NotificationsIsland } from '../../../client/islands/layout/notifications'
import { WishlistPanelIsland } from '../../../client/islands/lists/wishlist-panel'
import { isSplicing, type KeptMarkup, keptHtml } from './kept-bytes'

export interface LayoutData {
  storeName: string
  currency: CurrencyCode
  /** The country prices are for. */
  country: string
  menu: MenuItem[]
  /** Where the support chat's enquiries go (config SUPPORT_EMAIL). */
  supportEmail?: string
}

type FooterLink = { href: string; label: string; icon?: IconName }

/** The footer's columns: customer care, the house, policies (links within the shop). */
export const FOOTER_COLUMNS: { title: string; links: FooterLink[] }[] = [
  {
    title: PAGE_TEXT.footerCare,
    links: [
      { href: '/contact', label: 'Contact us', icon: 'mail' },
      { href: '/i/shipping-and-returns', label: 'Shipping & returns', icon: 'truck' },
      { href: '/i/size-guide', label: 'Size guide' },
      { href: '/i/faq', label: 'FAQ' },
      { href: '/store-locator', label: 'Store locator' },
    ],
  },
  {
    title: PAGE_TEXT.footerHouse,
    links: [
      { href: '/i/about-us', label: 'About us' },
      { href: '/magazine', label: 'Magazine' },
      { href: '/press', label: 'Press' },
      { href: '/stockists', label: 'Stockists' },
    ],
  },
  {
    title: PAGE_TEXT.footerPolicies,
    links: [
      { href: '/i/privacy-policy', label: 'Privacy policy' },
      { href: '/i/terms-and-conditions', label: 'Terms & conditions' },
      { href: '/i/shipping-and-returns', label: 'Returns & refunds', icon: 'rotate-ccw' },
    ],
  },
]

/** How shoppers can pay (the checkout's methods). */
const PAYMENT_METHODS: { label: string; icon: IconName }[] = [
  { label: 'Cards', icon: 'credit-card' },
  { label: 'UPI', icon: 'smartphone' },
  { label: 'Netbanking', icon: 'landmark' },
  { label: 'Wallets and PayPal', icon: 'wallet' },
  { label: 'Cash on delivery', icon: 'banknote' },
]

/** The label's social accounts (outside links open in the same tab, without our referrer). */
const SOCIAL_LINKS: FooterLink[] = [
  { href: 'https://www.instagram.com/odeatelier', label: 'Instagram', icon: 'camera' },
  { href: 'https://www.youtube.com/@odeatelier', label: 'YouTube', icon: 'circle-play' },
  { href: 'https://www.pinterest.com/odeatelier', label: 'Pinterest', icon: 'pin' },
]

function Footer({ storeName, currency }: { storeName: string; currency: string }) {
  return (
    <footer className="footer" data-testid="footer">
      <div className="footer__inner">
        {FOOTER_COLUMNS.map((col) => (
          <nav key={col.title} className="footer__col" aria-label={col.title}>
            <h2 className="footer__title">{col.title}</h2>
            <ul>
              {col.links.map((l) => (
                <li key={l.label}>
                  <a href={l.href}>
                    {l.icon ? <Icon name={l.icon} /> : null}
                    {l.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        ))}
        <div className="footer__col">
          <h2 className="footer__title">{PAGE_TEXT.footerPayment}</h2>
          <ul className="footer__payments" data-testid="footer-payments">
            {PAYMENT_METHODS.map((m) => (
              <li key={m.label}>
                <Icon name={m.icon} />
                {m.label}
              </li>
            ))}
          </ul>
          <h2 className="footer__title">{PAGE_TEXT.footerSocial}</h2>
          <ul className="footer__social">
            {SOCIAL_LINKS.map((l) => (
              <li key={l.label}>
                <a href={l.href} rel="noopener noreferrer">
                  {l.icon ? <Icon name={l.icon} /> : null}
                  {l.label}
                </a>
              </li>
            ))}
          </ul>
        </div>
      </div>
      <p className="footer__legal">
        © {storeName}. Prices in {currency}.
      </p>
    </footer>
  )
}

/** The default layout's chrome before <main>: the icon sprite, the skip link, the header island. */
function ChromeBefore({ data }: { data: LayoutData }) {
  return (
    <>
      <IconSprite />
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <HeaderIsland
        storeName={data.storeName}
        currency={data.currency}
        currencies={CURRENCIES.map(({ code, sign }) => ({ code, sign }))}
        country={data.country}
        countries={[
          ...SHIPPING_COUNTRIES.map(({ code, name }) => ({ code, name })),
          // A country the shop does not list (the platform's) is still the one selected.
          ...(SHIPPING_COUNTRIES.some((c) => c.code === data.country)
            ? []
            : [{ code: data.country, name: data.country }]),
        ]}
        supportEmail={data.supportEmail}
        menu={data.menu}
      />
    </>
  )
}

/** The default layout's chrome after <main>: the footer and the islands that open over the page. */
function ChromeAfter({ data }: { data: LayoutData }) {
  return (
    <>
      <Footer storeName={data.storeName} currency={data.currency} />
      <NotificationsIsland />
      <MicrocartIsland />
      <AuthModalIsland />
      <WishlistPanelIsland />
    </>
  )
}

export interface KeptChrome {
  before: KeptMarkup
  after: KeptMarkup
}

/** menu object → "store name, currency, country, support address" → the chrome's markup. */
const keptChrome = new WeakMap<readonly MenuItem[], Map<string, KeptChrome>>()
/**
 * Most chrome variants kept per menu object. The country comes from the shopper's cookie (any two
 * letters): past the bound the menu's variants are dropped and kept afresh.
 */
const MAX_KEPT_CHROME = 16

/**
 * The default layout's chrome for `data`, rendered once per menu object (a new one for every
 * version of the category tree: layout/menu.ts) and the values it shows, and kept (its bytes too:
 * kept-bytes.ts). Called before the page renders (React's renderer is not entered twice at once).
 */
export function defaultChrome(data: LayoutData): KeptChrome {
  const key = `${data.storeName}\n${data.currency}\n${data.country}\n${data.supportEmail ?? ''}`
  let byKey = keptChrome.get(data.menu)
  if (byKey === undefined) {
    byKey = new Map()
    keptChrome.set(data.menu, byKey)
  }
  let kept = byKey.get(key)
  if (kept === undefined) {
    if (byKey.size >= MAX_KEPT_CHROME) byKey.clear()
    kept = {
      before: { html: renderToString(<ChromeBefore data={data} />) },
      after: { html: renderToString(<ChromeAfter data={data} />) },
    }
    byKey.set(key, kept)
  }
  return kept
}

/**
 * The default layout. With `chrome` (its kept markup, `defaultChrome`) in a page rendered whole,
 * the chrome joins the answer as kept bytes; otherwise it is rendered in place, the same markup.
 */
export function DefaultLayout({
  data,
  chrome,
  children,
}: {
  data: LayoutData
  chrome?: KeptChrome
  children: ReactNode
}) {
  if (chrome && isSplicing())
    return (
      <>
        {keptHtml(chrome.before)}
        <main id="main">{children}</main>
        {keptHtml(chrome.after)}
      </>
    )
  return (
    <>
      <ChromeBefore data={data} />
      <main id="main">{children}</main>
      <ChromeAfter data={data} />
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
