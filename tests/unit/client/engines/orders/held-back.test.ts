// An order the shop refuses for now with a 429 (too many orders from one network or account) is
// kept and sent again, and the shopper reads why in words, not "server error".
import 'fake-indexeddb/auto'
import { expect, it, vi } from 'vitest'
import type { OrderResponse } from '../../../../../client/engines/orders/context'
import { createOrderQueue } from '../../../../../client/engines/orders/order-queue'
import { clientSettings } from '../../../../../client/engines/runtime/config'
import { MSG } from '../../../../../shared/i18n/messages'
import { queueHarness, STILL_TIMERS } from './queue-harness'

vi.spyOn(console, 'warn').mockImplementation(() => {})

it('a 429 at placing queues the order with a message that says why; the retry places it once', async () => {
  const { notices, state, deps } = queueHarness(true)
  const answers: OrderResponse[] = [
    { code: 429, result: 'Too many orders from your network address: at most 5 a minute.' },
  ]
  const send = vi.fn(
    async (order: Record<string, unknown>): Promise<OrderResponse> =>
      answers.shift() ?? { code: 200, result: { orderNumber: `N-${String(order.order_id)}` } },
  )
  const queue = createOrderQueue({
    ...deps,
    send,
    settings: () => clientSettings(),
    clock: { now: () => state.now++, ...STILL_TIMERS },
    clearCart: async () => {},
    registerBackgroundSync: async () => {},
  })
  const placed = await queue.placeOrder({
    user_id: '',
    cart_id: 'c1',
    products: [{ sku: 'A', qty: 1, price: 100 }],
    addressInformation: { shippingAddress: { city: 'Pune' }, payment_method_code: 'cashondelivery' },
  })
  expect(placed).toMatchObject({ state: 'queued', message: MSG.orderHeldBack })
  expect(notices.map((n) => n.message)).toContain(MSG.orderHeldBack)
  expect(notices.map((n) => n.message)).not.toContain(MSG.orderException)
  expect(await queue.pending()).toHaveLength(1)

  await queue.sendNow()
  expect(send).toHaveBeenCalledTimes(2)
  expect(send.mock.calls[1]?.[0]).toMatchObject({ order_id: placed.orderId })
  expect(await queue.pending()).toEqual([])
})
