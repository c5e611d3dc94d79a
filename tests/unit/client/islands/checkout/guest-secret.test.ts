// How the guest access key travels: back in the order answer, kept in this device's order storage,
// sent in the JSON body of POST /api/order/get — never in a URL, never in an analytics event.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { buildConversionEvent, eventSourceUrl, purchaseData } from '../../../../../client/engines/analytics'
import { fetchOrder } from '../../../../../client/islands/checkout/fetch-order'
import type { StoredOrder } from '../../../../../client/state/orders'
import { jsonResponse, stubFetch } from '../../../../helpers/browser-fakes'

const ACCESS_KEY = 'Zk3-secret-access-key-0123456789abcdefghijk'
const CLIENT_ORDER_ID = '1760000000000-a1b2c3d4e5f60718'
const confirmation = {
  magentoOrderId: '41',
  orderNumber: '000000041',
  backendOrderId: '41',
  status: 'pending',
  accessKey: ACCESS_KEY,
}
const stored: StoredOrder = {
  order_id: CLIENT_ORDER_ID,
  store_code: 'default',
  created_at: 1,
  updated_at: 1,
  transmited: true,
  transmited_at: 2,
  status: 'placed',
  confirmation,
  order: {},
}

afterEach(() => vi.unstubAllGlobals())

describe('fetching a guest order', () => {
  it('sends the access key in a POST body, with no secret in the URL', async () => {
    const calls = stubFetch(() => jsonResponse({ code: 200, result: { increment_id: '000000041' } }))
    const res = await fetchOrder(CLIENT_ORDER_ID, stored)
    expect(res.code).toBe(200)
    expect(calls).toHaveLength(1)
    const [call] = calls
    expect(call?.init.method).toBe('POST')
    expect(call?.url).not.toContain(ACCESS_KEY)
    expect(call?.url).not.toContain('accessKey')
    expect(JSON.parse(String(call?.init.body))).toEqual({ orderId: CLIENT_ORDER_ID, accessKey: ACCESS_KEY })
  })
})

describe('the Purchase event', () => {
  it("names the order by the shop's number, never by the client order id or with the access key", async () => {
    const data = purchaseData({
      confirmation,
      value: 1120,
      skus: ['FX-SCARF'],
      buyer: { email: 'asha@example.com', firstName: 'Asha', lastName: 'Rao', zip: '560001', phone: '98' },
    })
    expect(data.orderId).toBe('000000041')
    const event = await buildConversionEvent('Purchase', data, {
      now: 1_760_000_000_000,
      hex: '0123456789abcdef',
      url: eventSourceUrl(
        'Purchase',
        `https://shop.test/checkout?orderId=${CLIENT_ORDER_ID}#k=${ACCESS_KEY}`,
      ),
    })
    const text = JSON.stringify(event)
    expect(text).not.toContain(ACCESS_KEY)
    expect(text).not.toContain(CLIENT_ORDER_ID)
    expect(text).not.toContain('asha@example.com')
    expect(event.event_source_url).toBe('https://shop.test/checkout')
    expect(event.custom_data).toMatchObject({ order_id: '000000041', value: 1120, currency: 'INR' })
  })

  it('has no order id at all when the answer carries no order number', () => {
    expect(purchaseData({ confirmation: null, value: 1, skus: [], buyer: {} }).orderId).toBeUndefined()
    expect(eventSourceUrl('AddToCart', 'https://shop.test/p/x?childSku=y')).toBe(
      'https://shop.test/p/x?childSku=y',
    )
  })
})
