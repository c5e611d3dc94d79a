/** The order queue's pure steps: the stored order's shape and what an answer means. */
import { describe, expect, it } from 'vitest'
import {
  closedOrder,
  isOrderIdTaken,
  newStoredOrder,
  ORDER_ID_TAKEN_NOTICE,
  placedOrder,
  queuedOutcome,
} from '../../../../../client/engines/orders/outcome'
import { ORDER_ID_USED } from '../../../../../shared/domain/order-hash'
import { MSG } from '../../../../../shared/i18n/messages'

describe('stored orders', () => {
  it('a new order is pending and its body carries the id, store and timestamps', () => {
    const stored = newStoredOrder({ products: [], order_id: 'ignored-here' }, 'ord-123456', 'de', 5)
    expect(stored).toMatchObject({
      order_id: 'ord-123456',
      status: 'pending',
      transmited: false,
      transmited_at: null,
    })
    expect(stored.order).toEqual({
      products: [],
      order_id: 'ord-123456',
      store_code: 'de',
      created_at: 5,
      updated_at: 5,
      transmited: false,
    })
  })
  it('placed keeps an object confirmation only; closed orders are transmitted without one', () => {
    const stored = newStoredOrder({}, 'ord-123456', 'de', 5)
    expect(placedOrder(stored, { orderNumber: '7' }, 9)).toMatchObject({
      status: 'placed',
      transmited: true,
      transmited_at: 9,
      result_code: 200,
      confirmation: { orderNumber: '7' },
    })
    expect(placedOrder(stored, 'ok', 9).confirmation).toBeNull()
    expect(closedOrder(stored, 'canceled', 400, 9)).toMatchObject({
      status: 'canceled',
      transmited: true,
      transmited_at: 9,
      result_code: 400,
    })
  })
})

describe('a queued order answer', () => {
  it.each([
    [{ code: 200, result: {} }, { type: 'placed' }],
    [
      { code: 400, result: 'Invalid order: addressInformation.shippingAddress.city: city is required' },
      { type: 'canceled', code: 400, message: MSG.queuedOrderInvalidAddress },
    ],
    [
      { code: 400, result: 'The coupon code "FIRST10" is for a first order only.' },
      { type: 'canceled', code: 400, message: 'The coupon code "FIRST10" is for a first order only.' },
    ],
    [
      {
        code: 400,
        result:
          'Invalid order: addressInformation.payment_method_code: Cash on delivery is not available for PIN 110001.',
      },
      { type: 'canceled', code: 400, message: 'Cash on delivery is not available for PIN 110001.' },
    ],
    [
      { code: 409, result: ORDER_ID_USED },
      { type: 'canceled', code: 409, message: ORDER_ID_TAKEN_NOTICE },
    ],
    [
      { code: 500, result: 'Error while adding products' },
      { type: 'canceled', code: 500, message: MSG.queuedOrderOutOfStock },
    ],
    [{ code: 409, result: 'store credit changed' }, { type: 'retry' }],
    [{ code: 500, result: 'boom' }, { type: 'retry' }],
    [{ code: 503, result: null }, { type: 'retry' }],
  ])('%j → %j', (res, outcome) => {
    expect(queuedOutcome(res)).toEqual(outcome)
  })
  it('only a 409 with the order-id-used answer is "taken"', () => {
    expect(isOrderIdTaken({ code: 409, result: ORDER_ID_USED })).toBe(true)
    expect(isOrderIdTaken({ code: 400, result: ORDER_ID_USED })).toBe(false)
    expect(isOrderIdTaken({ code: 409, result: 'other' })).toBe(false)
  })
})
