// The order queue and a 409 "order_id already used": final (never retried forever), the shopper
// told to place the order again; other 409s (e.g. a store credit race) stay queued for a retry.
import '../../../../helpers/indexeddb'
import { describe, expect, it, vi } from 'vitest'
import type { OrderResponse } from '../../../../../client/engines/orders/context'
import { createOrderQueue } from '../../../../../client/engines/orders/order-queue'
import { ORDER_ID_TAKEN_NOTICE } from '../../../../../client/engines/orders/outcome'
import { clientSettings } from '../../../../../client/engines/runtime/config'
import { ORDER_ID_USED } from '../../../../../shared/domain/order-hash'
import { queueHarness } from './queue-harness'

vi.spyOn(console, 'warn').mockImplementation(() => {})

function setup(answers: (OrderResponse | 'network')[], online = true) {
  const { storage, notices, state, deps } = queueHarness(online)
  const send = vi.fn(async (): Promise<OrderResponse> => {
    const next = answers.shift() ?? { code: 200, result: { orderNumber: '000000001' } }
    if (next === 'network') throw new TypeError('Failed to fetch')
    return next
  })
  const queue = createOrderQueue({
    ...deps,
    send,
    settings: () => ({ ...clientSettings(), backgroundSync: false }),
  })
  return { queue, send, notices, storage, state }
}

const body = () => ({
  user_id: '',
  cart_id: '',
  products: [{ sku: 'A', qty: 1, price: 1 }],
  addressInformation: { payment_method_code: 'cashondelivery' },
})
const taken: OrderResponse = { code: 409, result: ORDER_ID_USED }

describe('409 order_id already used', () => {
  it('placing online: rejected, the shopper told to place it again, not queued', async () => {
    const t = setup([taken])
    const res = await t.queue.placeOrder(body())
    expect(res).toMatchObject({ state: 'rejected', message: ORDER_ID_TAKEN_NOTICE })
    expect(t.notices.map((n) => n.message)).toContain(ORDER_ID_TAKEN_NOTICE)
    expect(await t.queue.pending()).toEqual([])
    expect(await t.storage.getItem(res.orderId)).toMatchObject({ status: 'rejected', result_code: 409 })
    // Placing again (a new attempt) is allowed: the session guard was released.
    expect((await t.queue.placeOrder(body())).state).toBe('placed')
  })

  it('queue processing: canceled once, never resent, and the next order still goes out', async () => {
    const t = setup([], false)
    const first = await t.queue.placeOrder(body())
    const second = await t.queue.placeOrder({ ...body(), cart_id: 'other' })
    expect([first.state, second.state]).toEqual(['queued', 'queued'])
    t.state.online = true
    t.send.mockImplementationOnce(async () => taken)
    expect(await t.queue.process()).toBe(2)
    expect(await t.storage.getItem(first.orderId)).toMatchObject({ status: 'canceled', result_code: 409 })
    expect(await t.storage.getItem(second.orderId)).toMatchObject({ status: 'placed' })
    expect(t.notices.map((n) => n.message)).toContain(ORDER_ID_TAKEN_NOTICE)
    const sends = t.send.mock.calls.length
    await t.queue.process()
    expect(t.send.mock.calls.length).toBe(sends)
  })

  it('another 409 (a store credit race) stays queued and is retried with the same body', async () => {
    const t = setup([{ code: 409, result: 'Your store credit balance changed while the order was placed.' }])
    const res = await t.queue.placeOrder(body())
    expect(res.state).toBe('queued')
    expect(await t.queue.process()).toBe(1)
    const [firstSend, retry] = t.send.mock.calls.map((c) => (c as unknown[])[0])
    expect(retry).toEqual(firstSend)
    expect(await t.storage.getItem(res.orderId)).toMatchObject({ status: 'placed' })
  })
})
