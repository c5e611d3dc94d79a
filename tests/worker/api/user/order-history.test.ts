// The account's order history (/api/user/order-history) gives each of the customer's orders what its
// row links to: the shipments (courier and tracking number) once shipped and the tax invoice's
// number once issued, both as the order page has them; nothing of another customer's orders, even
// when those are shipped and invoiced.
import { describe, expect, it } from 'vitest'
import { api, registerAndLogin } from '../../../helpers/user'
import { operator, type Session } from '../../admin/operator'
import { placeOrder, seedDocumentFixtures } from '../../documents/fixtures'
import { call, setUpPaymentSandbox } from '../payment/harness'

setUpPaymentSandbox(seedDocumentFixtures)

/** Places a cash-on-delivery order as the signed-in customer. */
const place = async (customer: { id: number; token: string }) =>
  (await placeOrder('cashondelivery', { customer })).orderNumber

/** Ships the order through the back office (cash on delivery is invoiced with the ship move). */
async function ship(staff: Session, orderNumber: string, awb: string) {
  for (const to of ['processing', 'packed'] as const) {
    const moved = await call(`/admin/api/orders/${orderNumber}/transition`, {
      body: { to },
      headers: { cookie: staff.cookie, 'x-csrf-token': staff.csrf },
    })
    expect(moved.status).toBe(200)
  }
  const shipped = await call(`/admin/api/orders/${orderNumber}/transition`, {
    body: { to: 'shipped', carrier: 'Delhivery', tracking_number: awb },
    headers: { cookie: staff.cookie, 'x-csrf-token': staff.csrf },
  })
  expect(shipped.status).toBe(200)
}

interface HistoryRow {
  increment_id: string
  shipments: { carrier: string; trackingNumber: string }[]
  invoice_number: string | null
}

describe('order history: shipments and invoice', () => {
  it("gives each own order its shipments and invoice number, as its order page has them, and nothing of another's", async () => {
    const staff = await operator('staff')
    const shopper = await registerAndLogin('history')
    const stranger = await registerAndLogin('stranger')
    const waiting = await place(shopper)
    const sent = await place(shopper)
    const theirs = await place(stranger)
    await ship(staff, sent, 'AWB-MINE-1')
    await ship(staff, theirs, 'AWB-THEIRS-1')

    const history = await api(`/user/order-history?token=${shopper.token}`)
    expect(history.status).toBe(200)
    const rows = history.json.result.items as HistoryRow[]
    expect(rows.map((r) => r.increment_id).sort()).toEqual([waiting, sent].sort())
    const byNumber = Object.fromEntries(rows.map((r) => [r.increment_id, r]))
    expect(byNumber[waiting]).toMatchObject({ shipments: [], invoice_number: null })
    expect(byNumber[sent]?.shipments).toEqual([{ carrier: 'Delhivery', trackingNumber: 'AWB-MINE-1' }])
    // The same invoice the order page lists for download.
    const page = await api('/payment/order', { body: { orderNumber: sent }, bearer: shopper.token })
    expect(page.status).toBe(200)
    const invoice = (page.json.result.documents as { kind: string; number: string }[]).find(
      (d) => d.kind === 'invoice',
    )
    expect(invoice?.number).toBeTruthy()
    expect(byNumber[sent]?.invoice_number).toBe(invoice?.number)
    expect(page.json.result.shipments).toMatchObject([{ carrier: 'Delhivery', trackingNumber: 'AWB-MINE-1' }])
    // Nothing of the stranger's shipped, invoiced order reaches this history.
    expect(JSON.stringify(history.json)).not.toContain('AWB-THEIRS-1')
    expect(JSON.stringify(history.json)).not.toContain(theirs)
  })
})
