import { describe, expect, it } from 'vitest'
import {
  isAddProductsError,
  newOrderId,
  ORDER_ID_USED,
  orderHash,
} from '../../../../shared/domain/order-hash'

const order = {
  order_id: '1795000000000-a1b2c3',
  created_at: '2026-11-20 10:00:00',
  updated_at: '2026-11-20 10:00:00',
  transmited: false,
  transmited_at: null,
  user_id: '42',
  cart_id: 'cart-1',
  products: [{ sku: 'KURTA-RED-S', qty: 2, price: 1499 }],
  addressInformation: {
    shippingAddress: { city: 'Pune', postcode: '411001', street: ['1 MG Road'] },
    shipping_method_code: 'flatrate',
    payment_method_code: 'cashondelivery',
  },
}

describe('orderHash: one hash per order, whatever the attempt', () => {
  const base = orderHash(order)
  it.each([
    ['order_id', '1795000000999-ffffff'],
    ['created_at', '2026-11-20 10:05:00'],
    ['updated_at', '2026-11-20 10:05:00'],
    ['transmited', true],
    ['transmited_at', 1795000000999],
  ])('a retry with another %s is the same order', (field, value) => {
    expect(orderHash({ ...order, [field]: value })).toBe(base)
  })

  it('a retry without the attempt fields is the same order', () => {
    const { order_id, created_at, updated_at, transmited, transmited_at, ...rest } = order
    expect(orderHash(rest)).toBe(base)
  })

  it.each([
    ['another quantity', { products: [{ sku: 'KURTA-RED-S', qty: 3, price: 1499 }] }],
    ['another product', { products: [{ sku: 'KURTA-RED-M', qty: 2, price: 1499 }] }],
    ['another customer', { user_id: '43' }],
    ['another cart', { cart_id: 'cart-2' }],
    [
      'another payment method',
      { addressInformation: { ...order.addressInformation, payment_method_code: 'checkmo' } },
    ],
    [
      'another address',
      {
        addressInformation: {
          ...order.addressInformation,
          shippingAddress: { ...order.addressInformation.shippingAddress, city: 'Goa' },
        },
      },
    ],
  ])('%s is a different order', (_name, change) => {
    expect(orderHash({ ...order, ...change })).not.toBe(base)
  })
})

describe('newOrderId', () => {
  it('is the creation time and the random part, so two orders in the same ms still differ', () => {
    expect(newOrderId(1795000000000, 'a1b2c3')).toBe('1795000000000-a1b2c3')
    expect(newOrderId(1795000000000, 'a1b2c3')).not.toBe(newOrderId(1795000000000, 'a1b2c4'))
  })
})

describe('isAddProductsError: the out-of-stock answer of order placement', () => {
  it.each([
    [500, 'Error while adding products', true],
    [500, 'Product KURTA-RED-S is OUT OF STOCK', true],
    [500, 'error while Adding Products to the quote', true],
    [400, 'Error while adding products', false],
    [200, 'Error while adding products', false],
    [500, 'Internal server error', false],
    [500, ['Error while adding products'], false],
    [500, { message: 'out of stock' }, false],
    [500, null, false],
    [500, undefined, false],
  ])('code %i, result %j → %s', (code, result, expected) => {
    expect(isAddProductsError(code, result)).toBe(expected)
  })
})

describe('the answer for an order id another caller used', () => {
  it('names the field and what to do', () => {
    expect(ORDER_ID_USED).toMatch(/order_id/)
    expect(ORDER_ID_USED).toMatch(/new order_id/)
  })
})
