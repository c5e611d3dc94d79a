/**
 * The microcart panel (ui panel 'microcart'): registers the panel so the header's cart button
 * toggles it, and renders the cart lines, totals and 'Proceed to checkout' while it is open. The
 * panel's body is loaded on first open so this island stays tiny on every page.
 */
import { type ComponentType, useEffect, useState } from 'react'
import { bus, EVENTS } from '../../engines/runtime/events'
import { closePanels, openPanel, registerPanel } from '../../state/ui'
import { useSignalValue } from '../../state/use-signal'
import { defineIsland } from '../define'
import { useDialog } from './dialog'
import { Icon } from './icons'

/**
 * Orders placed while offline and not yet sent: once back online the order queue announces them
 * (an offline-order confirmation event), and the shopper is asked to send them now or cancel them
 * (the question's code is loaded when it is needed).
 */
function listenForOfflineOrders(): () => void {
  return bus.on(EVENTS.offlineOrderConfirmation, (payload) => {
    void import('./offline-orders-prompt').then((m) => m.askToSendOfflineOrders(payload))
  })
}

function Microcart() {
  const open = useSignalValue(openPanel) === 'microcart'
  const [Body, setBody] = useState<ComponentType | null>(null)
  const dialog = useDialog<HTMLDivElement>(open, closePanels, { 'aria-label': 'Shopping cart' })
  useEffect(() => registerPanel('microcart'), [])
  useEffect(() => listenForOfflineOrders(), [])
  useEffect(() => {
    if (open && !Body) void import('../cart/microcart-body').then((m) => setBody(() => m.MicrocartBody))
  }, [open, Body])
  if (!open) return null
  return (
    <div {...dialog} className="microcart" data-testid="microcart-panel">
      <div className="microcart__top">
        <h2>Shopping cart</h2>
        <button type="button" className="microcart__close" aria-label="Close cart" onClick={closePanels}>
          <Icon name="x" />
        </button>
      </div>
      {Body ? <Body /> : <p>Loading…</p>}
    </div>
  )
}

export const MicrocartIsland = defineIsland('microcart', Microcart)
