/**
 * Header island: menu button (sidebar panel), minicart count from the cart store, and the currency
 * switcher, which sets the currency cookie and reloads so every price is rendered again.
 */
import * as z from 'zod/mini'
import { COOKIE_CURRENCY } from '../../shared/config/store'
import { cartCount } from '../state/cart'
import { openPanel, togglePanel } from '../state/ui'
import { useSignalValue } from '../state/use-signal'
import { setCookie } from '../storage/cookies'
import { defineIsland } from './define'

export interface MenuItem {
  id: number
  name: string
  url: string
  children: MenuItem[]
}

const MenuItemSchema = z.object({
  id: z.number(),
  name: z.string(),
  url: z.string(),
  get children() {
    return z.array(MenuItemSchema)
  },
})

export const HeaderPropsSchema = z.object({
  storeName: z.string(),
  currency: z.string(),
  currencies: z.array(z.object({ code: z.string(), sign: z.string() })),
  menu: z.array(MenuItemSchema),
})
export type HeaderProps = z.infer<typeof HeaderPropsSchema>

function Header({ storeName, currency, currencies, menu }: HeaderProps) {
  const count = useSignalValue(cartCount)
  const panel = useSignalValue(openPanel)
  const sidebarOpen = panel === 'sidebar'
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
          <span aria-hidden="true">☰</span>
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
          <label className="currency-switcher">
            <span className="visually-hidden">Currency</span>
            <select
              value={currency}
              data-testid="currency-switcher"
              onChange={(e) => {
                setCookie(COOKIE_CURRENCY, e.currentTarget.value, 365)
                window.location.reload()
              }}
            >
              {currencies.map((c) => (
                <option key={c.code} value={c.code}>
                  {c.sign} {c.code}
                </option>
              ))}
            </select>
          </label>
          <a href="/cart" className="header__cart" data-testid="minicart" aria-label={`Cart, ${count} items`}>
            <span aria-hidden="true">👜</span>
            <span className="header__cart-count" data-testid="minicart-count">
              {count}
            </span>
          </a>
        </div>
      </div>
      <div
        id="sidebar-menu"
        className={`sidebar${sidebarOpen ? ' sidebar--open' : ''}`}
        hidden={!sidebarOpen}
        data-testid="sidebar"
      >
        <nav aria-label="Categories">
          <ul>
            {menu.map((item) => (
              <li key={item.id}>
                <a href={item.url}>{item.name}</a>
                {item.children.length > 0 ? (
                  <ul>
                    {item.children.map((child) => (
                      <li key={child.id}>
                        <a href={child.url}>{child.name}</a>
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ul>
        </nav>
      </div>
      {panel ? (
        <button type="button" className="overlay" aria-label="Close" onClick={() => togglePanel(panel)} />
      ) : null}
    </header>
  )
}

export const HeaderIsland = defineIsland('header', Header, HeaderPropsSchema)
