// Back online with orders placed offline: the shopper is asked, and 'Send now' sends exactly the
// orders they were asked about (the order queue then says what happened).
import { beforeEach, describe, expect, it, vi } from 'vitest'

const sendNow = vi.fn(async (_ids?: string[]) => {})
const cancelPending = vi.fn(async () => {})
vi.mock('../../../../../client/engines/runtime/runtime', () => ({
  getRuntime: () => ({ orders: { sendNow, cancelPending } }),
}))

const { askToSendOfflineOrders } = await import('../../../../../client/islands/layout/offline-orders-prompt')
const { notifications } = await import('../../../../../client/state/notifications')

beforeEach(() => {
  for (const n of notifications.list.value) notifications.remove(n.id)
  sendNow.mockClear()
  cancelPending.mockClear()
})

describe('the offline-orders question', () => {
  it('asks about the orders, and Send now sends those ones', async () => {
    askToSendOfflineOrders({ orders: [{ order_id: 'a-1' }, { order_id: 'b-2' }] })
    const [note] = notifications.list.value
    expect(note?.message).toBe('You placed 2 orders while offline. Send them now?')
    expect(note?.action1?.label).toBe('Send now')
    note?.action1?.action?.()
    await vi.waitFor(() => expect(sendNow).toHaveBeenCalledWith(['a-1', 'b-2']))
    expect(cancelPending).not.toHaveBeenCalled()
  })

  it('Cancel the order drops them instead', async () => {
    askToSendOfflineOrders({ orders: [{ order_id: 'a-1' }] })
    const [note] = notifications.list.value
    expect(note?.message).toBe('You placed an order while offline. Send it now?')
    note?.action2?.action?.()
    await vi.waitFor(() => expect(cancelPending).toHaveBeenCalledTimes(1))
    expect(sendNow).not.toHaveBeenCalled()
  })

  it('asks nothing for an empty or malformed event', () => {
    askToSendOfflineOrders({ orders: [] })
    askToSendOfflineOrders(null)
    askToSendOfflineOrders({})
    expect(notifications.list.value).toEqual([])
  })
})
