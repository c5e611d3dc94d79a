/** Gift cards for the browser tests: a real code issued on an order of the e2e shop. */
import { createHash } from 'node:crypto'
import { expect } from '@playwright/test'
import { pickProduct } from './checkout-fixtures'
import { d1, sqlText } from './pages'

const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789'

/** A fresh 16-character gift card code worth `minor` paise, issued on an order of the e2e shop. */
export async function issueCard(request: Parameters<typeof pickProduct>[0], minor: number): Promise<string> {
  const product = await pickProduct(request)
  const sku = product.variants[0]?.sku as string
  const address = {
    firstname: 'Asha',
    lastname: 'Rao',
    street: ['12 MG Road', 'Flat 4'],
    city: 'Bengaluru',
    postcode: '560001',
    country_id: 'IN',
    telephone: '9876500001',
    email: `card-buyer-${Date.now()}@example.com`,
  }
  const orderId = `e2e-card-${Date.now()}-${Math.random().toString(16).slice(2, 8)}`
  const placed = await request.post('/api/order', {
    data: {
      order_id: orderId,
      user_id: '',
      cart_id: '',
      products: [{ sku, qty: 1, price: 1 }],
      addressInformation: {
        shippingAddress: address,
        billingAddress: address,
        shipping_method_code: 'flatrate',
        shipping_carrier_code: 'flatrate',
        payment_method_code: 'cashondelivery',
      },
    },
  })
  expect(placed.status(), await placed.text()).toBe(200)
  const code = Array.from({ length: 16 }, () => ALPHABET[Math.floor(Math.random() * ALPHABET.length)]).join(
    '',
  )
  const hash = createHash('sha256').update(code).digest('hex')
  d1(
    `INSERT INTO gift_cards (code_hash, code_last4, client_order_id, line_no, unit_no, sku, amount_minor, currency,
       status, created_at, paid_minor, paid_currency)
     VALUES (${sqlText(hash)}, ${sqlText(code.slice(-4))}, ${sqlText(orderId)}, 99, 1, 'GIFT-CARD', ${minor}, 'INR',
       'issued', '2026-01-01 00:00:00', ${minor}, 'INR')`,
  )
  return code
}
