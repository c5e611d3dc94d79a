/** Gift cards for the browser tests: a real code issued on an order of the e2e shop. */
import { createHash } from 'node:crypto'
import { expect } from '@playwright/test'
import { bookAddress, orderBody } from '../helpers/orders'
import { pickProduct } from './checkout-fixtures'
import { d1, sqlText } from './pages'

const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789'

/** A fresh 16-character gift card code worth `minor` paise, issued on an order of the e2e shop. */
export async function issueCard(request: Parameters<typeof pickProduct>[0], minor: number): Promise<string> {
  const product = await pickProduct(request)
  const sku = product.variants[0]?.sku as string
  const address = bookAddress({ email: `card-buyer-${Date.now()}@example.com` })
  const orderId = `e2e-card-${Date.now()}-${Math.random().toString(16).slice(2, 8)}`
  const placed = await request.post('/api/order', {
    data: orderBody(orderId, [{ sku, qty: 1, price: 1 }], address),
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
