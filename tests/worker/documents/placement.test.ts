// What an order records at placement for its invoice (HSN, unit, GST rate, discount share, place
// of supply, buyer GSTIN), what placement refuses (a mistyped GSTIN, an Indian address whose state
// cannot be told), and an export: charged in USD to London, invoiced in rupees under the letter of
// undertaking with its endorsement, the UK VAT apart.
import { env } from 'cloudflare:test'
import { istMonth } from '@shared/domain/gst'
import { EXPORT_UNDER_LUT } from '@shared/domain/tax-document'
import { describe, expect, it } from 'vitest'
import { mumbaiBilling } from '../../helpers/orders'
import { admin, operator } from '../admin/operator'
import { call, sandbox, setUpPaymentSandbox } from '../api/payment/harness'
import { docsOf, placeOrder, seedDocumentFixtures } from './fixtures'

setUpPaymentSandbox(seedDocumentFixtures)

const docOf = async (orderId: string) =>
  JSON.parse(
    (await env.DB.prepare('SELECT doc FROM orders WHERE client_order_id = ?')
      .bind(orderId)
      .first<{ doc: string }>())!.doc,
  )

describe('placement records what the invoice needs', () => {
  it('keeps each line’s HSN, unit, GST rate and discount share, the place of supply and the GSTIN', async () => {
    const o = await placeOrder('cashondelivery', { billing: mumbaiBilling })
    const doc = await docOf(o.orderId)
    expect(doc.items[0]).toMatchObject({ hsn_code: '6214', uqc: 'PCS', gst_rate: 12, discount_minor: 0 })
    expect(doc.extension_attributes.gst).toEqual({
      place_of_supply: { state: '29', name: 'Karnataka' },
      buyer_gstin: '27AAPFU0939F1ZV',
    })
  })

  it('refuses a mistyped GSTIN, saying why', async () => {
    await expect(
      placeOrder('cashondelivery', { billing: { ...mumbaiBilling, vat_id: '27AAPFU0939F1ZW' } }),
    ).rejects.toThrow(
      /billingAddress\.vat_id: 27AAPFU0939F1ZW is not a GSTIN: its last character does not match/,
    )
  })

  it('asks for the state when neither the region nor the PIN code tells it', async () => {
    const chandigarhOrMohali = {
      firstname: 'Ravi',
      lastname: 'Gill',
      street: ['SCO 12'],
      city: 'Chandigarh',
      postcode: '160017',
      country_id: 'IN',
      telephone: '9876500003',
      email: 'ravi@example.com',
    }
    await expect(placeOrder('card', { shipping: chandigarhOrMohali })).rejects.toThrow(
      /shippingAddress\.region: choose the state or union territory of the address/,
    )
    const named = await placeOrder('card', { shipping: { ...chandigarhOrMohali, region: 'Chandigarh' } })
    expect((await docOf(named.orderId)).extension_attributes.gst.place_of_supply).toEqual({
      state: '04',
      name: 'Chandigarh',
    })
  })
})

describe('an export', () => {
  it('is invoiced in rupees under the letter of undertaking, its UK VAT apart, and reported as an export', async () => {
    const london = {
      firstname: 'Priya',
      lastname: 'Nair',
      street: ['10 Downing Mews'],
      city: 'London',
      postcode: 'SW1A 2AA',
      country_id: 'GB',
      telephone: '+447700900123',
      email: 'priya@example.com',
    }
    // A UK shopper is shown pounds, and pays them through PayPal.
    const o = await placeOrder('paypal_standard', {
      shipping: london,
      qty: 2,
      headers: { cookie: 'currency=GBP' },
    })
    const row = await env.DB.prepare(
      'SELECT currency, grand_total_minor, base_grand_total_minor FROM orders WHERE client_order_id = ?',
    )
      .bind(o.orderId)
      .first<{ currency: string; grand_total_minor: number; base_grand_total_minor: number }>()
    expect(row!.currency).toBe('GBP')
    const started = await call('/api/payment/start', {
      body: { orderNumber: o.orderNumber, accessKey: o.accessKey },
    })
    expect(sandbox.paypalApprove(started.json.result.providerOrderId)).toBe(true)
    const captured = await call('/api/payment/paypal/capture', {
      body: { orderNumber: o.orderNumber, accessKey: o.accessKey },
    })
    expect(captured.json.result).toMatchObject({ outcome: 'paid' })
    const [inv] = await docsOf(o.orderId)
    expect(inv).toMatchObject({
      kind: 'invoice',
      place_of_supply: '96',
      igst_minor: 0,
      cgst_minor: 0,
      sgst_minor: 0,
    })
    // In rupees: the order's total as it recorded it in INR, split over its lines exactly.
    expect(inv!.total_minor).toBe(row!.base_grand_total_minor)
    const data = JSON.parse(inv!.data)
    expect(data.figures.regime).toBe('export_lut')
    expect(data.figures.lines[0].destinationTaxMinor).toBeGreaterThan(0)
    expect(inv!.taxable_minor + data.figures.totals.destinationTaxMinor).toBe(inv!.total_minor)
    expect(inv!.html).toContain(EXPORT_UNDER_LUT)
    expect(inv!.html).toContain('AD290326000123X')
    expect(inv!.html).toContain('Tax Invoice (Export)')
    expect(inv!.html).toContain('UK VAT')
    const owner = await operator('owner')
    const exp = await admin(owner, `/api/tax/gstr1.csv?month=${istMonth(Date.now())}&section=exp`)
    expect(exp.text).toContain('"WOPAY"')
    expect(exp.text).toContain(`"${inv!.number}"`)
  })
})
