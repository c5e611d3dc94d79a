/**
 * The microcart panel (ui panel 'microcart'): registers the panel so the header's cart button
 * toggles it, and renders the cart lines, totals and 'Proceed to checkout' while it is open. The
 * panel's body is loaded on first open so this island stays tiny on every page.
 */
import { type ComponentType, useEffect, useState } from 'react'
import { bus, EVENTS } from '../../engines/runtime/events'
import { notify } from '../../state/notifications'
import { closePanels, openPanel, registerPanel } from '../../state/ui'
import { useSignalValue } from '../../state/use-signal'
import { defineIsland } from '../define'
import { useDialog } from './dialog'
import { Icon } from './icons'

/**
 * Orders placed while offline and not yet sent: once back online the order queue announces them
 * (an offline-order confirmation event), and the shopper chooses to send them now or cancel them.
 */
function listenForOfflineOrders(): () => void {
  return bus.on(EVENTS.offlineOrderConfirmation, (payload) => {
    const count = (payload as { orders?: unknown[] } | null)?.orders?.length ?? 0
    if (!count) return
    notify({
      type: 'warning',
      message: `You placed ${count === 1 ? 'an order' : `${count} orders`} while offline. Send ${count === 1 ? 'it' : 'them'} now?`,
      hasNoTimeout: true,
      action1: {
        label: 'Send now',
        action: () =>
          void import('../../engines/runtime/runtime').then((m) => m.getRuntime().orders.sendNow()),
      },
      action2: {
        label: 'Cancel the order',
        action: () =>
          void import('../../engines/runtime/runtime').then((m) => m.getRuntime().orders.cancelPending()),
      },
    })
  })
}

function Microcart() {
  const open = useSignalValue(openPanel) === 'microcart'
  const [Body, setBody] = useState<ComponentType | null>(null)
  const dialog = useDialog<HTMLDivElement>(open, closePanels)
  useEffect(() => registerPanel('microcart'), [])
  useEffect(() => listenForOfflineOrders(), [])
  useEffect(() => {
    if (open && !Body) void import('../cart/microcart-body').then((m) => setBody(() => m.MicrocartBody))
  }, [open, Body])
  if (!open) return null
  return (
    <div
      ref={dialog}
      className="microcart"
      role="dialog"
      aria-modal="true"
      aria-label="Shopping cart"
      data-testid="microcart-panel"
    >
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
