/**
 * The header's 'wishlist' panel (ui panel 'wishlist'). A thin layout island: the
 * list (and the wishlist store with its storage code) is loaded only when the panel first opens,
 * so pages that never open it pay almost nothing.
 */
import { type ComponentType, useEffect, useState } from 'react'
import { closePanels, openPanel } from '../../state/ui'
import { useSignalValue } from '../../state/use-signal'
import { defineIsland } from '../define'
import { useDialog } from '../layout/dialog'
import { Icon } from '../layout/icons'
import { pageCurrency } from '../page-currency'

function WishlistPanel() {
  const panel = useSignalValue(openPanel)
  const open = panel === 'wishlist'
  const [List, setList] = useState<ComponentType<{ currency: string }> | null>(null)
  const dialog = useDialog<HTMLDivElement>(open, closePanels, { 'aria-label': 'Wishlist' })
  useEffect(() => {
    if (open && !List) {
      void import('./wishlist-list').then((m) => setList(() => m.WishlistList))
    }
  }, [open, List])
  return (
    <div
      {...dialog}
      className={`side-panel wishlist-panel${open ? ' side-panel--open' : ''}`}
      hidden={!open}
      data-testid="wishlist-panel"
    >
      <div className="side-panel__top">
        <h2>Wishlist</h2>
        <button type="button" className="side-panel__close" onClick={closePanels} aria-label="Close wishlist">
          <Icon name="x" />
        </button>
      </div>
      {open ? (
        List ? (
          <List currency={pageCurrency()} />
        ) : (
          <p className="list-loading">Loading your wishlist…</p>
        )
      ) : null}
      <p>
        <a href="/wishlist">View wishlist</a>
      </p>
    </div>
  )
}

export const WishlistPanelIsland = defineIsland('wishlist-panel', WishlistPanel)
