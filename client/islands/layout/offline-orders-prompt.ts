/**
 * The question after coming back online with orders placed offline: send them now or cancel them.
 * 'Send now' sends them and then says what happened (sent, or still saved with a retry).
 */
import { notify } from '../../state/notifications'

const runtime = () => import('../../engines/runtime/runtime').then((m) => m.getRuntime())

/** Shows the question for an offline-order confirmation event's payload ({ orders }). */
export function askToSendOfflineOrders(payload: unknown): void {
  const orders = (payload as { orders?: { order_id: string }[] } | null)?.orders ?? []
  const count = orders.length
  if (!count) return
  const ids = orders.map((o) => o.order_id)
  notify({
    type: 'warning',
    message: `You placed ${count === 1 ? 'an order' : `${count} orders`} while offline. Send ${count === 1 ? 'it' : 'them'} now?`,
    hasNoTimeout: true,
    action1: { label: 'Send now', action: () => void runtime().then((r) => r.orders.sendNow(ids)) },
    action2: {
      label: 'Cancel the order',
      action: () => void runtime().then((r) => r.orders.cancelPending()),
    },
  })
}
