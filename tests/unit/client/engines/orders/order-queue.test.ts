import '../../../../helpers/indexeddb'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { OrderResponse } from '../../../../../client/engines/orders/context'
import { createOrderQueue } from '../../../../../client/engines/orders/order-queue'
import { type ClientSettings, clientSettings } from '../../../../../client/engines/runtime/config'
import { createEventBus, EVENTS } from '../../../../../client/engines/runtime/events'
import { isThankYouPage, lastOrderConfirmation, pendingOrders } from '../../../../../client/state/orders'
import { isAddProductsError, newOrderId, orderHash } from '../../../../../shared/domain/order-hash'
import { queueHarness, STILL_TIMERS } from './queue-harness'

vi.spyOn(console, 'warn').mockImplementation(() => {})

/** An idempotent order endpoint: one order per order_id, a replay returns the first result. */
function fakeOrderServer() {
  const orders = new Map<string, Record<string, unknown>>()
  let next = 1
  const script: (OrderResponse | 'network')[] = []
  let inFlight = 0
  let maxInFlight = 0
  const send = vi.fn(async (order: Record<string, unknown>): Promise<OrderResponse> => {
    inFlight++
    maxInFlight = Math.max(maxInFlight, inFlight)
    await new Promise((r) => setImmediate(r))
    inFlight--
    const step = script.shift()
    if (step === 'network') throw new TypeError('Failed to fetch')
    if (step) return step
    const id = String(order.order_id)
    if (!orders.has(id)) orders.set(id, { orderNumber: `00000${next++}`, order_id: id })
    return { code: 200, result: orders.get(id) }
  })
  return { send, orders, script, maxInFlight: () => maxInFlight }
}

function setup(opts: { online?: boolean; settings?: Partial<ClientSettings> } = {}) {
  const server = fakeOrderServer()
  const bus = createEventBus()
  const events: [string, unknown][] = []
  for (const e of Object.values(EVENTS)) bus.on(e, (p) => events.push([e, p]))
  const { storage, notices, state, deps } = queueHarness(opts.online ?? true, bus)
  const clearCart = vi.fn(async () => {})
  const registerBackgroundSync = vi.fn(async () => {})
  let rnd = 0
  const make = () =>
    createOrderQueue({
      ...deps,
      send: server.send,
      settings: () => ({ ...clientSettings(), supportEmail: 'help@shop.test', ...opts.settings }),
      clock: { now: () => state.now, ...STILL_TIMERS },
      random: () => (rnd++ === 0 ? 'abc123' : `r${rnd}`),
      clearCart,
      registerBackgroundSync,
    })
  return {
    server,
    storage,
    bus,
    events,
    notices,
    state,
    clearCart,
    registerBackgroundSync,
    queue: make(),
    make,
  }
}

const body = (extra: Record<string, unknown> = {}) => ({
  user_id: '',
  cart_id: 'c1',
  products: [{ sku: 'A', qty: 1, price: 100 }],
  addressInformation: { shippingAddress: { city: 'Pune' }, payment_method_code: 'cashondelivery' },
  ...extra,
})

beforeEach(() => {
  lastOrderConfirmation.value = null
  isThankYouPage.value = false
})

describe('order hash and id', () => {
  it('ignores the attempt id and timestamps, not the content', () => {
    expect(orderHash(body({ order_id: '1', created_at: 1 }))).toBe(
      orderHash(body({ order_id: '2', created_at: 2 })),
    )
    expect(orderHash(body({ cart_id: 'c2' }))).not.toBe(orderHash(body()))
    expect(newOrderId(5, 'ff')).toBe('5-ff')
  })
  it.each([
    [500, 'Error while adding products', true],
    [500, 'Internal error', false],
    [400, 'Error while adding products', false],
  ])('isAddProductsError(%i, %j) → %s', (code, result, expected) => {
    expect(isAddProductsError(code, result)).toBe(expected)
  })
})

describe('placeOrder', () => {
  it('200: stored as transmitted with the confirmation, cart cleared, "Processing order..." shown', async () => {
    const t = setup()
    const res = await t.queue.placeOrder(body())
    expect(res).toEqual({
      state: 'placed',
      orderId: '1700000000000-abc123',
      confirmation: expect.objectContaining({ orderNumber: '000001' }),
    })
    expect(t.notices[0]).toEqual({ type: 'info', message: 'Processing order...' })
    const stored = await t.storage.getItem(res.orderId)
    expect(stored).toMatchObject({
      transmited: true,
      transmited_at: t.state.now,
      status: 'placed',
      store_code: 'default',
    })
    expect(stored?.order).toMatchObject({ order_id: res.orderId, store_code: 'default', cart_id: 'c1' })
    expect(lastOrderConfirmation.value?.order_id).toBe(res.orderId)
    expect(t.clearCart).toHaveBeenCalledTimes(1)
    expect(t.events.map(([e]) => e)).toContain(EVENTS.orderAfterPlaced)
  })

  it('the same order submitted twice in a session is sent once', async () => {
    const t = setup()
    const [a, b] = await Promise.all([t.queue.placeOrder(body()), t.queue.placeOrder(body())])
    expect([a.state, b.state].sort()).toEqual(['duplicate', 'placed'])
    expect(t.server.send).toHaveBeenCalledTimes(1)
  })

  it('offline: stored untransmitted and reported queued (pending, never confirmed)', async () => {
    const t = setup({ online: false })
    const res = await t.queue.placeOrder(body())
    expect(res.state).toBe('queued')
    expect(res.confirmation).toBeUndefined()
    expect(t.server.send).not.toHaveBeenCalled()
    expect(await t.storage.getItem(res.orderId)).toMatchObject({ transmited: false, status: 'pending' })
    expect(pendingOrders.value.map((o) => o.order_id)).toEqual([res.orderId])
    expect(lastOrderConfirmation.value).toBeNull()
    expect(t.registerBackgroundSync).toHaveBeenCalled()
  })

  it('direct backend sync off: queued too', async () => {
    const t = setup({ settings: { directBackendSync: false } })
    expect((await t.queue.placeOrder(body())).state).toBe('queued')
    expect(t.server.send).not.toHaveBeenCalled()
  })

  it('400: hash removed, the validation message with the support e-mail, stored as transmitted', async () => {
    const t = setup()
    t.server.script.push({ code: 400, result: [{ message: 'must have required property' }] })
    const res = await t.queue.placeOrder(body())
    expect(res.state).toBe('rejected')
    expect(t.notices).toContainEqual({
      type: 'error',
      message:
        'Internal validation error. Please check if all required fields are filled in. Please contact us on help@shop.test',
      action1: { label: 'OK' },
      hasNoTimeout: true,
    })
    expect(await t.storage.getItem(res.orderId)).toMatchObject({ transmited: true, status: 'rejected' })
    // The hash was removed: fixing the form and submitting again sends again.
    expect((await t.queue.placeOrder(body())).state).toBe('placed')
  })

  it("400 with the server's reason in words: that reason is shown until closed, never the generic text", async () => {
    const t = setup()
    const reason = 'The coupon code "FIRST10" has already been used the most times allowed for you.'
    t.server.script.push({ code: 400, result: reason })
    const res = await t.queue.placeOrder(body())
    expect(res).toMatchObject({ state: 'rejected', message: reason })
    expect(t.notices).toContainEqual({
      type: 'error',
      message: reason,
      action1: { label: 'OK' },
      hasNoTimeout: true,
    })
    expect(t.notices.some((n) => /Internal validation error/.test(String(n.message)))).toBe(false)
  })

  it("400 with a validator's field report: the generic text with the support e-mail", async () => {
    const t = setup()
    t.server.script.push({ code: 400, result: 'Invalid order: products.0.qty: must be a whole number' })
    const res = await t.queue.placeOrder(body())
    expect(res.message).toMatch(/^Internal validation error\./)
  })

  it.each([
    ['a 500', { code: 500, result: 'db down' } as const],
    ['an exception', 'network' as const],
  ])('%s: hash removed, the queued message, queued untransmitted', async (_label, step) => {
    const t = setup()
    t.server.script.push(step)
    const res = await t.queue.placeOrder(body())
    expect(res.state).toBe('queued')
    expect(t.notices).toContainEqual({
      type: 'error',
      message: 'The order can not be transfered because of server error. Order has been queued',
      action1: { label: 'OK' },
    })
    expect(await t.storage.getItem(res.orderId)).toMatchObject({ transmited: false, status: 'pending' })
    expect(t.registerBackgroundSync).toHaveBeenCalled()
  })
})

describe('queue processing', () => {
  it('an order queued offline that the server creates unpaid asks for payment, never says paid', async () => {
    const t = setup({ online: false })
    const res = await t.queue.placeOrder(body())
    expect(res.state).toBe('queued')
    t.state.online = true
    t.server.script.push({
      code: 200,
      result: { orderNumber: '000000042', status: 'pending_payment', paymentPending: true },
    })
    expect(await t.queue.process()).toBe(1)
    const asked = t.notices.find((n) => /awaits payment/.test(n.message)) as
      | { message: string; action1?: { label: string; href?: string } }
      | undefined
    expect(asked?.message).toContain('000000042')
    expect(asked?.message).not.toMatch(/\bpaid\b|charged/i)
    expect(asked?.action1).toEqual({
      label: 'Pay now',
      href: `/confirmation?orderId=${encodeURIComponent(res.orderId)}`,
    })
  })

  it('an order queued offline for cash on delivery asks for nothing', async () => {
    const t = setup({ online: false })
    await t.queue.placeOrder(body())
    t.state.online = true
    t.server.script.push({
      code: 200,
      result: { orderNumber: '000000043', status: 'pending', paymentPending: false },
    })
    expect(await t.queue.process()).toBe(1)
    expect(t.notices.filter((n) => /awaits payment/.test(n.message))).toEqual([])
  })

  it('a failed order is retried with the SAME order_id: exactly one order on the server', async () => {
    const t = setup()
    t.server.script.push('network')
    const res = await t.queue.placeOrder(body())
    // A reload: a new queue over the same storage still has it.
    const after = t.make()
    expect((await after.pending()).map((o) => o.order_id)).toEqual([res.orderId])
    t.server.script.push({ code: 503, result: 'unavailable' })
    expect(await after.process()).toBe(0)
    expect((await after.pending()).length).toBe(1)
    t.state.now += 5000
    expect(await after.process()).toBe(1)
    expect(await after.process()).toBe(0)
    const ids = t.server.send.mock.calls.map(([o]) => o.order_id)
    expect(new Set(ids)).toEqual(new Set([res.orderId]))
    expect(t.server.orders.size).toBe(1)
    expect(await t.storage.getItem(res.orderId)).toMatchObject({
      transmited: true,
      transmited_at: t.state.now,
      status: 'placed',
      confirmation: { orderNumber: '000001', order_id: res.orderId },
    })
  })

  it('sends one at a time; 400 cancels with the address message; 500 add-products cancels with the out-of-stock message', async () => {
    const t = setup({ online: false })
    const a = await t.queue.placeOrder(body({ cart_id: 'a' }))
    const b = await t.queue.placeOrder(body({ cart_id: 'b' }))
    const c = await t.queue.placeOrder(body({ cart_id: 'c' }))
    t.state.online = true
    t.server.script.push(
      { code: 400, result: 'Invalid order: addressInformation.shippingAddress.city: city is required' },
      { code: 500, result: 'Error while adding products' },
    )
    expect(await t.queue.process({ now: () => 42 })).toBe(3)
    expect(t.server.maxInFlight()).toBe(1)
    expect((await t.storage.getItem(a.orderId))?.status).toBe('canceled')
    expect((await t.storage.getItem(b.orderId))?.status).toBe('canceled')
    expect(await t.storage.getItem(c.orderId)).toMatchObject({ status: 'placed', transmited_at: 42 })
    expect(t.notices.map((n) => n.message)).toEqual([
      'Address provided in checkout contains invalid data... Your order has been canceled.',
      "Some products you've ordered are out of stock. Your order has been canceled.",
    ])
  })

  it('process() accepts an injected send', async () => {
    const t = setup({ online: false })
    await t.queue.placeOrder(body())
    const send = vi.fn(async () => ({ code: 200, result: { orderNumber: 'X' } }))
    expect(await t.queue.process({ send })).toBe(1)
    expect(send).toHaveBeenCalledTimes(1)
  })
})

describe('coming online', () => {
  it('an order placed offline is sent once back online, from any page and after a reload, without asking', async () => {
    const t = setup({ online: false })
    await t.queue.placeOrder(body())
    // Still offline (a Background Sync or a page start): nothing is sent and nothing is asked.
    await t.queue.handleOnline()
    expect(t.server.send).not.toHaveBeenCalled()
    expect(t.events.filter(([e]) => e === EVENTS.offlineOrderConfirmation)).toHaveLength(0)
    // A reload: a fresh queue over the same storage, not on the thank-you page.
    isThankYouPage.value = false
    const reloaded = t.make()
    t.state.online = true
    await Promise.all([reloaded.handleOnline(), reloaded.handleOnline()])
    expect(t.server.send).toHaveBeenCalledTimes(1)
    expect(t.events.filter(([e]) => e === EVENTS.offlineOrderConfirmation)).toHaveLength(0)
    expect(await reloaded.pending()).toEqual([])
    // Placed: the shopper is told.
    expect(t.notices.at(-1)).toMatchObject({
      type: 'success',
      message: 'Your order has been sent to the shop.',
    })
  })

  it('an order stored without the promise (an earlier client) is asked about, only once online', async () => {
    const t = setup({ online: false })
    await t.queue.placeOrder(body())
    const [stored] = await t.queue.pending()
    await t.storage.setItem(stored!.order_id, { ...stored!, promised: false })
    await t.queue.handleOnline()
    expect(t.events.filter(([e]) => e === EVENTS.offlineOrderConfirmation)).toHaveLength(0)
    t.state.online = true
    await t.queue.handleOnline()
    expect(t.server.send).not.toHaveBeenCalled()
    expect(t.events.filter(([e]) => e === EVENTS.offlineOrderConfirmation)).toHaveLength(1)
    await t.queue.cancelPending()
    expect(await t.queue.pending()).toEqual([])
  })

  it('on the thank-you page (or with auto-transmission on) sends them', async () => {
    const t = setup({ online: false })
    await t.queue.placeOrder(body())
    t.state.online = true
    isThankYouPage.value = true
    await t.queue.handleOnline()
    expect(t.server.send).toHaveBeenCalledTimes(1)
    const t2 = setup({ online: false, settings: { offlineOrdersAutoTransmit: true } })
    await t2.queue.placeOrder(body())
    t2.state.online = true
    isThankYouPage.value = false
    await t2.queue.handleOnline()
    expect(t2.server.send).toHaveBeenCalledTimes(1)
  })

  it('with nothing queued emits nothing', async () => {
    const t = setup()
    await t.queue.handleOnline()
    expect(t.events).toEqual([])
  })
})
