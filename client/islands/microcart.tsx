/**
 * The microcart panel (ui panel 'microcart'): registers the panel so the header's cart button
 * toggles it, and renders the cart lines, totals and 'Proceed to checkout' while it is open. The
 * panel's body is loaded on first open so this island stays tiny on every page.
 */
import { type ComponentType, useEffect, useState } from 'react'
import { closePanels, openPanel, registerPanel } from '../state/ui'
import { useSignalValue } from '../state/use-signal'
import { defineIsland } from './define'

function Microcart() {
  const open = useSignalValue(openPanel) === 'microcart'
  const [Body, setBody] = useState<ComponentType | null>(null)
  useEffect(() => registerPanel('microcart'), [])
  useEffect(() => {
    if (open && !Body) void import('./cart/microcart-body').then((m) => setBody(() => m.MicrocartBody))
  }, [open, Body])
  if (!open) return null
  return (
    <aside className="microcart" aria-label="Shopping cart" data-testid="microcart-panel">
      <div className="microcart__top">
        <h2>Shopping cart</h2>
        <button type="button" className="microcart__close" aria-label="Close cart" onClick={closePanels}>
          ×
        </button>
      </div>
      {Body ? <Body /> : <p>Loading…</p>}
    </aside>
  )
}

export const MicrocartIsland = defineIsland('microcart', Microcart)
