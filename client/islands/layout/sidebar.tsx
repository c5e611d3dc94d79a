/**
 * The menu drawer of the header island, loaded when the menu is first opened (it is not part of any
 * page's first load): the full category tree, a submenu sliding in and its path popping after
 * 300 ms, and the country prices are for ("Deliver to").
 */

import { useState } from 'react'
import type { UseDialog } from './dialog'
import type { MenuItem } from './header'
import { Icon } from './icons'

/** Finds the menu items along a submenu path of ids (stops at the first unknown id). */
export function menuTrail(menu: MenuItem[], path: number[]): MenuItem[] {
  const trail: MenuItem[] = []
  let level = menu
  for (const id of path) {
    const item = level.find((m) => m.id === id)
    if (!item) break
    trail.push(item)
    level = item.children
  }
  return trail
}

/**
 * What the header hands the drawer: the panel state it already holds (the submenu path and its
 * actions, the dialog hook), so this code, loaded later, brings no second copy of them.
 */
interface SidebarProps {
  menu: MenuItem[]
  open: boolean
  country: string
  countries: { code: string; name: string }[]
  onCountry: (code: string) => void
  path: number[]
  onPush: (id: number) => void
  onPop: (after: (pop: () => void, ms: number) => void) => void
  onClose: () => void
  useDialog: UseDialog
}

/** The menu drawer: the category tree (a submenu slides in, its path pops after 300 ms) and the delivery country. */
export function Sidebar(props: SidebarProps) {
  const { menu, open, country, countries, onCountry, path, onPush, onPop, onClose, useDialog } = props
  // The submenu slides out during its 300 ms transition before its path pops.
  const [leaving, setLeaving] = useState(false)
  const trail = menuTrail(menu, path)
  const current = trail[trail.length - 1]
  const items = current ? current.children : menu
  const dialog = useDialog<HTMLDivElement>(open, onClose, { 'aria-label': 'Menu' })
  return (
    <div
      {...dialog}
      id="sidebar-menu"
      className={`sidebar${open ? ' sidebar--open' : ''}`}
      hidden={!open}
      data-testid="sidebar"
    >
      <div className="sidebar__top">
        {current ? (
          <button
            type="button"
            className="sidebar__back"
            onClick={() => {
              setLeaving(true)
              onPop((pop, ms) =>
                setTimeout(() => {
                  pop()
                  setLeaving(false)
                }, ms),
              )
            }}
          >
            <Icon name="chevron-left" /> Back
          </button>
        ) : (
          <span className="sidebar__title">Shop</span>
        )}
        <button type="button" className="sidebar__close" onClick={onClose} aria-label="Close menu">
          <Icon name="x" />
        </button>
      </div>
      <label className="sidebar__country">
        Deliver to{' '}
        <select
          value={country}
          data-testid="country-switcher"
          onChange={(e) => onCountry(e.currentTarget.value)}
        >
          {countries.map((c) => (
            <option key={c.code} value={c.code}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
      <nav aria-label="Categories">
        <ul className={`sidebar__list${leaving ? ' sidebar__list--leaving' : ''}`}>
          {current ? (
            <li>
              <a href={current.url} className="sidebar__all">
                All {current.name}
              </a>
            </li>
          ) : null}
          {items.map((item) => (
            <li key={item.id} className="sidebar__item">
              <a href={item.url}>{item.name}</a>
              {item.children.length > 0 ? (
                <button
                  type="button"
                  className="sidebar__expand"
                  aria-label={`Open ${item.name} submenu`}
                  onClick={() => onPush(item.id)}
                >
                  <Icon name="chevron-right" />
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      </nav>
    </div>
  )
}
