import { describe, expect, it } from 'vitest'
import type { HistoryOrder } from '../../../../../client/islands/account/account-model'
import { orderDetail, orderRow } from '../../../../../client/islands/account/orders-model'

/** A shipped, invoiced order in rupees, placed late on 27 November UTC (28 November in India). */
const shipped: HistoryOrder = {
  entity_id: 14,
  increment_id: '000000014',
  created_at: '2026-11-27 20:15:00',
  status: 'shipped',
  grand_total: 8798,
  order_currency_code: 'INR',
  items: [
    {
      sku: 'KURTA-M-INDIGO',
      name: 'Indigo kurta',
      qty_ordered: 2,
      row_total: 5000,
      row_total_incl_tax: 5598,
      options: [
        { label: 'Size', value: 'M' },
        { label: 'Colour', value: 'Indigo' },
      ],
      image: '/p/kurta.svg',
    },
    { sku: 'SCARF', name: 'Silk scarf', qty_ordered: 1, row_total_incl_tax: 3200, options: [] },
  ],
  shipments: [{ carrier: 'Delhivery', trackingNumber: '1490810123' }],
  invoice_number: 'INV/26-27/000031',
}

describe('order history row', () => {
  it('reads in words: number, date in India, status in the shop words, lines with options, qty and price', () => {
    const row = orderRow(shipped)
    expect(row.number).toBe('000000014')
    expect(row.date).toBe('28 November 2026')
    expect(row.status).toBe('Shipped')
    expect(row.lines).toEqual([
      {
        key: 'KURTA-M-INDIGO:0',
        name: 'Indigo kurta',
        options: 'Size: M, Colour: Indigo',
        qty: 2,
        price: '₹5,598',
        image: '/p/kurta.svg',
      },
      { key: 'SCARF:1', name: 'Silk scarf', options: '', qty: 1, price: '₹3,200', image: null },
    ])
    expect(row.total).toBe('₹8,798')
  })

  it("shows money in the order's own currency, never the page's", () => {
    const row = orderRow({
      ...shipped,
      order_currency_code: 'GBP',
      grand_total: 89.5,
      items: [{ sku: 'SCARF', name: 'Silk scarf', row_total_incl_tax: 40 }],
    })
    expect(row.total).toBe('£89.50')
    expect(row.lines[0]?.price).toBe('£40.00')
    expect(row.lines[0]?.qty).toBe(1)
  })

  it('says nothing rather than ₹0 when the order gives no amount', () => {
    const row = orderRow({ ...shipped, grand_total: undefined, items: [{ sku: 'X', name: 'Dupatta' }] })
    expect(row.total).toBe('')
    expect(row.lines[0]?.price).toBe('')
  })

  it('links the order page, each parcel by courier and AWB, and the invoice by the order mails’ link', () => {
    const row = orderRow(shipped)
    expect(row.order).toEqual({ href: '/order/000000014', label: 'View order' })
    expect(row.tracking).toEqual([
      { href: '/order/000000014', label: 'Track with Delhivery: AWB 1490810123' },
    ])
    expect(row.invoice).toEqual({
      href: '/order/000000014#doc=invoice',
      label: 'Tax invoice INV/26-27/000031',
    })
  })

  it('has no tracking before a shipment and no invoice before one is issued; an unpaid order offers Pay now', () => {
    const row = orderRow({
      ...shipped,
      status: 'pending_payment',
      shipments: [],
      invoice_number: null,
    })
    expect(row.status).toBe('Awaiting payment')
    expect(row.tracking).toEqual([])
    expect(row.invoice).toBeNull()
    expect(row.order.label).toBe('Pay now')
    const older = orderRow({ ...shipped, shipments: undefined, invoice_number: undefined })
    expect(older.tracking).toEqual([])
    expect(older.invoice).toBeNull()
    // A shipment without a tracking number has nothing to track.
    expect(
      orderRow({ ...shipped, shipments: [{ carrier: 'Delhivery', trackingNumber: '' }] }).tracking,
    ).toEqual([])
  })

  it('puts an order number with URL characters into its links escaped', () => {
    const row = orderRow({ ...shipped, increment_id: '14/../x?y#z' })
    expect(row.order.href).toBe('/order/14%2F..%2Fx%3Fy%23z')
    expect(row.invoice?.href).toBe('/order/14%2F..%2Fx%3Fy%23z#doc=invoice')
  })
})

describe('single order (my account)', () => {
  it('is the history row plus the time placed in India and the payment in words', () => {
    const view = orderDetail({ ...shipped, payment: { method: 'razorpay', paid_with: 'upi' } })
    expect(view).toMatchObject(orderRow(shipped))
    expect(view.placed).toBe('28 November 2026, 1:45 AM IST')
    expect(view.payment).toBe('UPI')
    expect(view.returns).toBeNull()
    expect(view.cancel).toBeNull()
  })

  it('offers returns once delivered, and Cancel only while a pay-on-delivery order is to be confirmed', () => {
    expect(orderDetail({ ...shipped, status: 'delivered' }).returns).toEqual({
      href: '/order/000000014',
      label: 'Return or exchange pieces',
    })
    expect(orderDetail({ ...shipped, status: 'pending' }).cancel).toBe('000000014')
    for (const status of ['pending_payment', 'processing', 'packed', 'shipped', 'delivered', 'canceled'])
      expect(orderDetail({ ...shipped, status }).cancel, status).toBeNull()
  })
})
