/**
 * Header island: menu button and sidebar (the full category tree; a submenu slides in and its path
 * pops after 300 ms), search panel (lazy-loaded on first open), wishlist and minicart buttons
 * (they toggle the panels other islands render, see client/state/ui.ts), the currency switcher and,
 * in the menu, the delivery country (each sets its cookie and reloads so every price is rendered
 * again for it) and the desktop-only support chat
 * (its launcher sits among the header's tools, so it never floats over the page).
 */

import { COOKIE_COUNTRY, COOKIE_CURRENCY } from '@shared/config/store'
import { type ComponentType, useEffect, useState } from 'react'
import { cartCount } from '../../state/cart'
import {
  closePanels,
  openPanel,
  type Panel,
  panelOnPage,
  popSubmenu,
  pushSubmenu,
  registeredPanels,
  submenuPath,
  togglePanel,
} from '../../state/ui'
import { useSignalValue } from '../../state/use-signal'
import { setCookie } from '../../storage/cookies'
import { AccountButton } from '../auth/account-button'
import { defineIsland } from '../define'
import { array, type Check, lazy, num, object, optional, schemaOf, str } from '../props-check'
import { ChatWidget } from './chat-widget'
import { useDialog } from './dialog'
import { Icon } from './icons'

export interface MenuItem {
  id: number
  name: string
  url: string
  children: MenuItem[]
}

interface Choice {
  code: string
  name: string
}

interface HeaderProps {
  storeName: string
  currency: string
  currencies: { code: string; sign: string }[]
  /** The country prices are for, and the countries the shop delivers to (that one among them). */
  country: string
  countries: Choice[]
  menu: MenuItem[]
  supportEmail?: string
}

const checkMenuItem: Check<MenuItem> = object({
  id: num,
  name: str,
  url: str,
  children: lazy(() => array(checkMenuItem)),
})

/** Validates the header's props on hydration (a tiny checker: this island is on every page). */
const HeaderPropsSchema = schemaOf<HeaderProps>(
  object({
    storeName: str,
    currency: str,
    currencies: array(object({ code: str, sign: str })),
    country: str,
    countries: array(object({ code: str, name: str })),
    menu: array(checkMenuItem),
    supportEmail: optional(str),
  }),
)

/** Sets a preference cookie and reloads, so the page is rendered (and priced) again for it. */
function choose(cookie: string, value: string) {
  setCookie(cookie, value, 365)
  window.location.reload()
}

/**
 * A panel's code, loaded on its first open only (keeps it out of every page's first load): the
 * search panel, the menu.
 */
function useLazyPanel<P>(open: boolean, load: () => Promise<ComponentType<P>>): ComponentType<P> | null {
  const [Comp, setComp] = useState<ComponentType<P> | null>(null)
  useEffect(() => {
    if (!open || Comp) return
    let live = true
    load().then(
      (m) => live && setComp(() => m),
      (err) => console.error('panel failed to load', err),
    )
    return () => {
      live = false
    }
  }, [open, Comp, load])
  return Comp
}

const loadSearchPanel = () => import('../search/search-panel').then((m) => m.SearchPanel)
const loadSidebar = () => import('./sidebar').then((m) => m.Sidebar)

function Header({ storeName, currency, currencies, country, countries, menu, supportEmail }: HeaderProps) {
  const count = useSignalValue(cartCount)
  const panel = useSignalValue(openPanel)
  const registered = useSignalValue(registeredPanels)
  const sidebarOpen = panel === 'sidebar'
  const SearchPanel = useLazyPanel(panel === 'search', loadSearchPanel)
  const Sidebar = useLazyPanel(sidebarOpen, loadSidebar)
  const path = useSignalValue(submenuPath)
  const searchDialog = useDialog<HTMLDivElement>(panel === 'search', closePanels, { 'aria-label': 'Search' })

  /** Toggles a panel another island renders; without one the link navigates as usual. */
  const panelLink = (name: Panel) => (e: React.MouseEvent) => {
    if (!panelOnPage(name, registered)) return
    e.preventDefault()
    togglePanel(name)
  }

  return (
    <header className="header">
      <div className="header__bar">
        <button
          type="button"
          className="header__menu-btn"
          aria-expanded={sidebarOpen}
          aria-controls="sidebar-menu"
          onClick={() => togglePanel('sidebar')}
          data-testid="menu-button"
        >
          <Icon name="menu" />
          <span className="visually-hidden">Menu</span>
        </button>
        <a href="/" className="header__logo">
          {storeName}
        </a>
        <nav className="header__nav" aria-label="Main">
          {menu.map((item) => (
            <a key={item.id} href={item.url} className="header__nav-link">
              {item.name}
            </a>
          ))}
        </nav>
        <div className="header__tools">
          <a
            href="/search"
            className="header__icon-btn"
            data-testid="search-button"
            aria-expanded={panel === 'search'}
            onClick={(e) => {
              e.preventDefault()
              togglePanel('search')
            }}
          >
            <Icon name="search" />
            <span className="visually-hidden">Search</span>
          </a>
          <label className="currency-switcher">
            <span className="visually-hidden">Currency</span>
            <select
              value={currency}
              data-testid="currency-switcher"
              onChange={(e) => choose(COOKIE_CURRENCY, e.currentTarget.value)}
            >
              {currencies.map((c) => (
                <option key={c.code} value={c.code}>
                  {c.sign} {c.code}
                </option>
              ))}
            </select>
          </label>
          <ChatWidget supportEmail={supportEmail} />
          <AccountButton />
          <button
            type="button"
            className="header__icon-btn"
            data-testid="wishlist-button"
            aria-expanded={panel === 'wishlist'}
            onClick={() => togglePanel('wishlist')}
          >
            <Icon name="heart" />
            <span className="visually-hidden">Wishlist</span>
          </button>
          <a
            href="/cart"
            className="header__cart"
            data-testid="minicart"
            aria-label={`Cart, ${count} items`}
            onClick={panelLink('microcart')}
          >
            <Icon name="shopping-bag" />
            <span className="header__cart-count" data-testid="minicart-count">
              {count}
            </span>
          </a>
        </div>
      </div>
      {Sidebar ? (
        <Sidebar
          menu={menu}
          open={sidebarOpen}
          country={country}
          countries={countries}
          onCountry={(code) => choose(COOKIE_COUNTRY, code)}
          path={path}
          onPush={pushSubmenu}
          onPop={popSubmenu}
          onClose={closePanels}
          useDialog={useDialog}
        />
      ) : null}
      {panel === 'search' ? (
        <div {...searchDialog} className="search-panel" data-testid="search-panel">
          {SearchPanel ? (
            <SearchPanel onClose={closePanels} />
          ) : (
            <p className="search-panel__loading">Loading…</p>
          )}
        </div>
      ) : null}
      {panel ? (
        <button type="button" className="overlay" aria-label="Close" onClick={() => togglePanel(panel)} />
      ) : null}
    </header>
  )
}

export const HeaderIsland = defineIsland('header', Header, HeaderPropsSchema)
