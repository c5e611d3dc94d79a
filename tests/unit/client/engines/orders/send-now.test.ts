// 'Send now' on orders placed offline: the shopper always learns what happened to them.
import '../../../../helpers/indexeddb'
import { describe, expect, it, vi } from 'vitest'
import type { OrderResponse } from '../../../../../client/engines/orders/context'
import { createOrderQueue } from '../../../../../client/engines/orders/order-queue'
import { clientSettings } from '../../../../../client/engines/runtime/config'
import { MSG, msgQueuedOrdersSent, QUEUE_MSG } from '../../../../../shared/i18n/messages'
import { queueHarness, STILL_TIMERS } from './queue-harness'

vi.spyOn(console, 'warn').mockImplementation(() => {})

function setup() {
  const { notices, state, deps } = queueHarness(false)
  const answers: (OrderResponse | 'network')[] = []
  const send = vi.fn(async (order: Record<string, unknown>): Promise<OrderResponse> => {
    const next = answers.shift()
    if (next === 'network') throw new TypeError('Failed to fetch')
    return next ?? { code: 200, result: { orderNumber: `N-${String(order.order_id)}` } }
  })
  const queue = createOrderQueue({
    ...deps,
    send,
    settings: () => clientSettings(),
    clock: { now: () => state.now++, ...STILL_TIMERS },
    clearCart: async () => {},
    registerBackgroundSync: async () => {},
  })
  return { queue, answers, send, state, notices }
}

const body = (cart: string) => ({
  user_id: '',
  cart_id: cart,
  products: [{ sku: 'A', qty: 1, price: 100 }],
  addressInformation: { shippingAddress: { city: 'Pune' }, payment_method_code: 'cashondelivery' },
})

/** Places `n` different orders while offline; the notices of placing are dropped. */
async function queued(t: ReturnType<typeof setup>, n: number) {
  for (let i = 0; i < n; i++) await t.queue.placeOrder(body(`c${i}`))
  t.notices.length = 0
  t.state.online = true
}

describe('Send now', () => {
  it('one queued order sent → a success notice', async () => {
    const t = setup()
    await queued(t, 1)
    await t.queue.sendNow()
    expect(t.send).toHaveBeenCalledTimes(1)
    expect(t.notices).toEqual([
      expect.objectContaining({ type: 'success', message: QUEUE_MSG.queuedOrdersSent }),
    ])
    expect(await t.queue.pending()).toEqual([])
  })

  it('two queued orders sent → the notice counts them', async () => {
    const t = setup()
    await queued(t, 2)
    await t.queue.sendNow()
    expect(t.notices).toHaveLength(1)
    expect(t.notices[0]).toMatchObject({ type: 'success', message: msgQueuedOrdersSent(2) })
  })

  it('the network is still down → the order stays saved, the shopper is told and can retry', async () => {
    const t = setup()
    await queued(t, 1)
    t.answers.push('network')
    await t.queue.sendNow()
    expect(await t.queue.pending()).toHaveLength(1)
    expect(t.notices).toEqual([
      expect.objectContaining({
        type: 'warning',
        message: QUEUE_MSG.queuedOrdersNotSent,
        hasNoTimeout: true,
      }),
    ])
    // Retrying once the network is back sends it and says so.
    t.notices[0]?.action1?.action?.()
    await vi.waitFor(() => expect(t.notices.at(-1)).toMatchObject({ type: 'success' }))
    expect(await t.queue.pending()).toEqual([])
  })

  it('an order Background Sync sent meanwhile still counts as sent (the shopper asked about it)', async () => {
    const t = setup()
    await queued(t, 1)
    const asked = (await t.queue.pending()).map((o) => o.order_id)
    await t.queue.process()
    await t.queue.sendNow(asked)
    expect(t.send).toHaveBeenCalledTimes(1)
    expect(t.notices).toEqual([
      expect.objectContaining({ type: 'success', message: QUEUE_MSG.queuedOrdersSent }),
    ])
  })

  it('the shop answers 503 → not claimed as sent', async () => {
    const t = setup()
    await queued(t, 1)
    t.answers.push({ code: 503, result: 'busy' })
    await t.queue.sendNow()
    expect(t.notices.map((n) => n.type)).toEqual(['warning'])
  })

  it('an order the shop cancels (out of stock) gets only the cancel reason, no success notice', async () => {
    const t = setup()
    await queued(t, 1)
    t.answers.push({ code: 500, result: 'Error while adding products' })
    await t.queue.sendNow()
    expect(t.notices).toEqual([
      expect.objectContaining({ type: 'error', message: MSG.queuedOrderOutOfStock }),
    ])
  })
})

describe('an order the shop refuses for now (429: too many orders from one network or account)', () => {
  it('is queued with words that say why, not "server error", and the retry places it once', async () => {
    const t = setup()
    t.state.online = true
    t.answers.push({ code: 429, result: 'Too many orders from your network address: at most 5 a minute.' })
    const placed = await t.queue.placeOrder(body('c1'))
    expect(placed).toMatchObject({ state: 'queued', message: MSG.orderHeldBack })
    expect(t.notices.map((n) => n.message)).toContain(MSG.orderHeldBack)
    expect(t.notices.map((n) => n.message)).not.toContain(MSG.orderException)
    expect(await t.queue.pending()).toHaveLength(1)

    await t.queue.sendNow()
    expect(t.send).toHaveBeenCalledTimes(2)
    expect(t.send.mock.calls[1]?.[0]).toMatchObject({ order_id: placed.orderId })
    expect(await t.queue.pending()).toEqual([])
  })
})
