import { describe, expect, it } from 'vitest'
import {
  addressLines,
  orderDate,
  orderDateTime,
  orderDeliveryEstimate,
  orderStatusName,
  paymentMethodName,
} from '../../../../../shared/components/order/order-text'
import { PAYMENT_METHODS } from '../../../../../shared/config/checkout'
import { ORDER_STATUS_LABELS } from '../../../../../shared/config/order-status'

describe('how an order reads to its shopper', () => {
  it('names payment methods, never their codes', () => {
    for (const m of PAYMENT_METHODS) expect(paymentMethodName(m.code)).toBe(m.title)
    expect(paymentMethodName('cashondelivery')).not.toMatch(/cashondelivery/)
    expect(paymentMethodName('razorpay')).toMatch(/^Razorpay/)
    expect(paymentMethodName('bank_transfer')).toBe('Bank transfer')
    expect(paymentMethodName(undefined)).toBe('')
  })

  it('says statuses in words', () => {
    expect(orderStatusName('pending')).toBe(ORDER_STATUS_LABELS.pending)
    expect(orderStatusName('pending_payment')).toBe(ORDER_STATUS_LABELS.pending_payment)
    expect(orderStatusName('on_hold')).toBe('On hold')
  })

  it('writes dates unambiguously, in India, whatever the reader’s time zone', () => {
    // 20:00 UTC on the 23rd is already the 24th in India (UTC+5:30).
    expect(orderDate('2026-11-23 20:00:00')).toBe('24 November 2026')
    expect(orderDateTime('2026-11-23 20:00:00')).toBe('24 November 2026, 1:30 AM IST')
    expect(orderDateTime('2026-11-24T09:15:00Z')).toBe('24 November 2026, 2:45 PM IST')
    expect(orderDate('not a date')).toBe('')
    expect(orderDate(null)).toBe('')
  })

  it('estimates delivery from the order date, and not once nothing is on its way', () => {
    expect(orderDeliveryEstimate('2026-11-24 06:00:00', 'processing', 'IN')).toBe('1 December 2026')
    expect(orderDeliveryEstimate('2026-11-24 06:00:00', 'pending', 'GB')).toBe('8 December 2026')
    for (const done of ['delivered', 'canceled', 'expired', 'closed'])
      expect(orderDeliveryEstimate('2026-11-24 06:00:00', done, 'IN')).toBe('')
  })

  it('lays out an address line by line, skipping what is missing', () => {
    expect(
      addressLines({
        firstname: 'Asha',
        lastname: 'Rao',
        street: ['12 MG Road', ''],
        city: 'Bengaluru',
        region: { region: 'Karnataka' },
        postcode: '560001',
        country_id: 'IN',
        telephone: '',
      }),
    ).toEqual(['Asha Rao', '12 MG Road', 'Bengaluru, Karnataka, 560001', 'India'])
    // Countries by their names, never their codes; one the shop does not list stays as given.
    expect(addressLines({ city: 'London', country_id: 'GB' })).toEqual(['London', 'United Kingdom'])
    expect(addressLines({ city: 'Oslo', country_id: 'NO' })).toEqual(['Oslo', 'NO'])
    expect(addressLines(null)).toEqual([])
  })
})
