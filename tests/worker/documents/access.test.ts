// Who may fetch a tax document: the order's signed-in customer, the holder of its guest access key
// (in the POST body) or of its signed order link (header), and operators. Other people's order
// numbers, keys and links get the same refusal whether or not the order exists; a document of
// another order is never served under this one.
import { createExecutionContext, env } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import app from '../../../worker/app'
import { mumbaiBilling } from '../../helpers/orders'
import { registerAndLogin } from '../../helpers/user'
import { admin, operator } from '../admin/operator'
import { payEnv, setUpPaymentSandbox } from '../api/payment/harness'
import { docsOf, placeOrder, placePaid, seedDocumentFixtures } from './fixtures'

setUpPaymentSandbox(seedDocumentFixtures)

async function fetchDocument(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await app.fetch(
    new Request('https://shop.test/api/documents/get', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    }),
    payEnv,
    createExecutionContext(),
  )
  return { status: res.status, headers: res.headers, text: await res.text() }
}

describe('a shopper’s invoice', () => {
  it('is served to the guest key, the order link and the customer, exactly as stored, as a file', async () => {
    const o = await placePaid({ billing: mumbaiBilling })
    const [inv] = await docsOf(o.orderId)
    const byKey = await fetchDocument({ orderNumber: o.orderNumber, accessKey: o.accessKey })
    expect(byKey.status).toBe(200)
    expect(byKey.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(byKey.headers.get('content-disposition')).toBe(
      `attachment; filename="invoice-${inv!.number.replace(/\//g, '-')}.html"`,
    )
    expect(byKey.headers.get('cache-control')).toBe('no-store')
    // The stored text, with only the page's nonce added to its stylesheet.
    expect(byKey.text.replace(/<style nonce="[^"]+">/, '<style>')).toBe(inv!.html)
    const byLink = await fetchDocument({ orderNumber: o.orderNumber }, { 'x-order-link': o.orderLinkToken })
    expect(byLink.status).toBe(200)
    expect(byLink.text).toContain(inv!.number)
  })

  it('is served to the signed-in customer who placed the order, and to nobody else', async () => {
    const owner = await registerAndLogin('doc-owner')
    const other = await registerAndLogin('doc-other')
    const o = await placePaid({ headers: { authorization: `Bearer ${owner.token}` } })
    expect(
      (await fetchDocument({ orderNumber: o.orderNumber }, { authorization: `Bearer ${owner.token}` }))
        .status,
    ).toBe(200)
    const stranger = await fetchDocument(
      { orderNumber: o.orderNumber },
      { authorization: `Bearer ${other.token}` },
    )
    expect(stranger.status).toBe(403)
    expect(stranger.text).not.toContain('OA/')
  })

  it('refuses other people’s keys, links and order numbers alike', async () => {
    const mine = await placePaid()
    const theirs = await placePaid()
    const refusals = [
      await fetchDocument({ orderNumber: theirs.orderNumber, accessKey: mine.accessKey }),
      await fetchDocument({ orderNumber: theirs.orderNumber }, { 'x-order-link': mine.orderLinkToken }),
      await fetchDocument({ orderNumber: theirs.orderNumber }),
      await fetchDocument({ orderNumber: '999999999', accessKey: mine.accessKey }),
      await fetchDocument(
        { orderNumber: theirs.orderNumber },
        { 'x-order-link': `${theirs.orderLinkToken}x` },
      ),
    ]
    for (const r of refusals) {
      expect(r.status).toBe(403)
      expect(JSON.parse(r.text).result).toBe(
        'This order cannot be opened with what was sent: sign in as its customer, or open it from its order link.',
      )
    }
    // Another order's document number under my order: not found, never served.
    const [theirInvoice] = await docsOf(theirs.orderId)
    const crossed = await fetchDocument({
      orderNumber: mine.orderNumber,
      accessKey: mine.accessKey,
      number: theirInvoice!.number,
    })
    expect(crossed.status).toBe(404)
    expect(crossed.text).not.toContain('<html')
  })

  it('answers bad requests and orders not yet invoiced with words', async () => {
    const unpaid = await placeOrder('card')
    const none = await fetchDocument({ orderNumber: unpaid.orderNumber, accessKey: unpaid.accessKey })
    expect(none.status).toBe(404)
    expect(JSON.parse(none.text).result).toMatch(
      /has no tax invoice yet: it is issued when the order is paid/,
    )
    const bad = await fetchDocument({ orderNumber: 'abc', number: '../../etc' })
    expect(bad.status).toBe(400)
    expect(JSON.parse(bad.text).result).toMatch(/^Invalid document request: /)
    const big = await fetchDocument({ orderNumber: unpaid.orderNumber, accessKey: 'k'.repeat(5000) })
    expect(big.status).toBe(400)
  })
})

describe('the back office', () => {
  it('shows the delivery address first, the billing address and GSTIN beside it, and the documents', async () => {
    const viewer = await operator('viewer')
    const o = await placePaid({ billing: mumbaiBilling })
    const page = await admin(viewer, `/orders/${o.orderNumber}`)
    expect(page.status).toBe(200)
    const shipTo = page.text.indexOf('data-testid="ship-to"')
    const billTo = page.text.indexOf('data-testid="bill-to"')
    expect(shipTo).toBeGreaterThan(0)
    expect(billTo).toBeGreaterThan(shipTo)
    const shipBlock = page.text.slice(shipTo, billTo)
    expect(shipBlock).toContain('Asha')
    expect(shipBlock).toContain('Karnataka (state code 29)')
    expect(shipBlock).toContain('PIN 560001')
    expect(shipBlock).not.toContain('Vikram')
    expect(page.text.slice(billTo)).toContain('Shah Textiles Pvt Ltd')
    expect(page.text).toContain('GSTIN 27AAPFU0939F1ZV')
    const [inv] = await docsOf(o.orderId)
    expect(page.text).toContain(`Tax invoice ${inv!.number}`)
    const doc = await admin(viewer, `/orders/${o.orderNumber}/documents/${inv!.id}`)
    expect(doc.status).toBe(200)
    expect(doc.text).toContain(inv!.number)
    // The back office's CSP admits the document's stylesheet by nonce; no script at all.
    expect(doc.headers.get('content-security-policy')).toContain("script-src 'none'")
    const nonce = /style-src 'nonce-([^']+)'/.exec(doc.headers.get('content-security-policy') ?? '')?.[1]
    expect(doc.text).toContain(`<style nonce="${nonce}">`)
  })

  it('serves a document only under its own order', async () => {
    const viewer = await operator('viewer')
    const a = await placePaid()
    const b = await placePaid()
    const [invB] = await docsOf(b.orderId)
    const crossed = await admin(viewer, `/orders/${a.orderNumber}/documents/${invB!.id}`)
    expect(crossed.status).toBe(404)
    expect(crossed.text).not.toContain(invB!.number)
  })

  it('prints a packing slip with the delivery address first and no prices', async () => {
    const staff = await operator('staff')
    const o = await placeOrder('cashondelivery', { billing: mumbaiBilling, qty: 2 })
    const slip = await admin(staff, `/orders/${o.orderNumber}/packing-slip`)
    expect(slip.status).toBe(200)
    const deliver = slip.text.indexOf('data-testid="slip-ship-to"')
    const bill = slip.text.indexOf('data-testid="slip-bill-to"')
    expect(deliver).toBeGreaterThan(0)
    expect(bill).toBeGreaterThan(deliver)
    expect(slip.text).toContain('Silk Scarf')
    expect(slip.text).toContain('FX-SCARF')
    expect(slip.text).not.toMatch(/₹|\bINR\b/)
  })

  it('issues a missing invoice for an invoiceable order once, with an audit row, for staff only', async () => {
    const staff = await operator('staff')
    const viewer = await operator('viewer')
    // An order paid before the shop issued invoices: paid, no invoice.
    const o = await placeOrder('card')
    await env.DB.prepare(
      "UPDATE orders SET status = 'processing', payment_state = 'paid', paid_minor = grand_total_minor WHERE client_order_id = ?",
    )
      .bind(o.orderId)
      .run()
    expect((await admin(viewer, `/api/orders/${o.orderNumber}/invoice`, { body: {} })).status).toBe(403)
    const issued = await admin(staff, `/api/orders/${o.orderNumber}/invoice`, { body: {} })
    expect(issued.status).toBe(200)
    expect(issued.json.result.number).toMatch(/^OA\//)
    const again = await admin(staff, `/api/orders/${o.orderNumber}/invoice`, { body: {} })
    expect(again.json.result.number).toBe(issued.json.result.number)
    expect(await docsOf(o.orderId)).toHaveLength(1)
    const audit = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM admin_audit WHERE action = 'order.invoice' AND target = ?",
    )
      .bind(`order:${o.orderNumber}`)
      .first<{ n: number }>()
    expect(audit!.n).toBe(1)
    // An unpaid order cannot be invoiced by hand either.
    const unpaid = await placeOrder('card')
    const refused = await admin(staff, `/api/orders/${unpaid.orderNumber}/invoice`, { body: {} })
    expect(refused.status).toBe(409)
    expect(refused.json.result).toMatch(/cannot be invoiced yet/)
  })
})
