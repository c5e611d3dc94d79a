/**
 * A sample order for previewing a mail when the operator names none: two pieces of the demo
 * catalogue delivered in Mumbai, paid by UPI, its money rows adding up to its total.
 */
import type { OrderMailEvent } from '../api/mail/order-words'
import type { OrderDocument } from '../api/order/document'
import type { OrderMailInput } from './order-mail'

const ADDRESS = {
  firstname: 'Ananya',
  lastname: 'Rao',
  street: ['12 Carter Road', 'Bandra West'],
  city: 'Mumbai',
  region: 'Maharashtra',
  postcode: '400050',
  country_id: 'IN',
  telephone: '9820000000',
  email: 'ananya@example.com',
}

export function sampleMailInput(
  event: OrderMailEvent,
  shop: OrderMailInput['shop'],
): Omit<OrderMailInput, 'custom'> {
  const doc = {
    subtotal_incl_tax: 8998,
    discount_amount: 0,
    shipping_incl_tax: 0,
    customer_balance_amount: 0,
    grand_total: 8998,
    customer_firstname: ADDRESS.firstname,
    customer_lastname: ADDRESS.lastname,
    billing_address: { ...ADDRESS, address_type: 'billing' },
    payment: { method: 'razorpay', additional_information: [], paid_with: 'upi' },
    extension_attributes: {
      shipping_assignments: [
        { shipping: { address: { ...ADDRESS, address_type: 'shipping' }, method: 'standard' }, items: [] },
      ],
    },
  } as unknown as OrderDocument
  return {
    event,
    order: {
      increment_id: '000000123',
      status: event === 'shipped' ? 'shipped' : 'processing',
      payment_state: event === 'refunded' ? 'partially_refunded' : 'paid',
      payment_method: 'razorpay',
      paid_minor: 899800,
      refunded_minor: event === 'refunded' ? 499900 : 0,
      grand_total_minor: 899800,
      expires_at: null,
      currency: 'INR',
      customer_email: ADDRESS.email,
      customer_id: 1,
    },
    doc,
    lines: [
      {
        qty: 1,
        name: 'Chanderi Kurta',
        rowTotal: 4999,
        chosen: [{ label: 'Size', value: 'M' }],
        image: '/p/kurta-red.svg',
      },
      { qty: 1, name: 'Block-print Dupatta', rowTotal: 3999, chosen: [], image: '/p/dupatta-indigo.svg' },
    ],
    payment: 'paid (UPI)',
    withheld: false,
    orderLink: `${shop.origin}/order/000000123`,
    invoice: 'INV/26-27/000123',
    codLink: null,
    detail:
      event === 'shipped'
        ? {
            carrier: 'Blue Dart',
            tracking_number: 'BD123456789IN',
            tracking_url: `${shop.origin}/order/000000123`,
          }
        : {},
    shop,
  }
}
