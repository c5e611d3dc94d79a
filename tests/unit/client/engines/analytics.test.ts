import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { buildConversionEvent, eventId, normalizePii, sha256Hex } from '../../../../client/engines/analytics'
import { randomHex } from '../../../../client/engines/random-hex'

const sha = (s: string) => createHash('sha256').update(s).digest('hex')
const ctx = {
  now: 1_700_000_000_123,
  hex: '0a1b2c3d4e5f6071',
  url: 'https://shop.test/checkout',
  fbc: 'fb.1.1.abc',
  fbp: 'fb.1.2.def',
}

describe('analytics events', () => {
  it('ids are the event name plus random hex', () => {
    expect(eventId('Purchase', 'ff00')).toBe('Purchase_ff00')
    expect(randomHex()).toMatch(/^[0-9a-f]{16}$/)
    expect(randomHex()).not.toBe(randomHex())
  })

  it('hashes with SHA-256 exactly as node does', async () => {
    expect(await sha256Hex('asha@example.com')).toBe(sha('asha@example.com'))
  })

  it('a Purchase carries hashed em, fn, ln, zp, ph, the browser ids, INR and action_source website', async () => {
    const e = await buildConversionEvent(
      'Purchase',
      {
        value: 2399.499,
        email: ' Asha@Example.com ',
        firstName: 'Asha',
        lastName: 'Rao',
        zip: '560 001',
        phone: '+91 98450-12345',
        orderId: 'o-1',
        contentIds: ['A'],
      },
      ctx,
    )
    expect(e).toEqual({
      event_name: 'Purchase',
      event_id: 'Purchase_0a1b2c3d4e5f6071',
      event_time: 1_700_000_000,
      user_data: {
        em: sha('asha@example.com'),
        fbc: 'fb.1.1.abc',
        fbp: 'fb.1.2.def',
        fn: sha('asha'),
        ln: sha('rao'),
        zp: sha('560001'),
        ph: sha('919845012345'),
      },
      event_source_url: 'https://shop.test/checkout',
      action_source: 'website',
      custom_data: { currency: 'INR', value: 2399.5, order_id: 'o-1', content_ids: ['A'] },
    })
    // No clear-text PII anywhere in the payload.
    expect(JSON.stringify(e)).not.toMatch(/asha|rao|560|9845/i)
  })

  it('other events send only em, fbc and fbp, never the purchase-only fields', async () => {
    for (const name of ['InitiateCheckout', 'AddToCart', 'ViewContent', 'ViewCategory'] as const) {
      const e = await buildConversionEvent(
        name,
        { email: 'a@b.co', firstName: 'A', zip: '1', phone: '2' },
        ctx,
      )
      expect(Object.keys(e.user_data).sort()).toEqual(['em', 'fbc', 'fbp'])
      expect(e.custom_data.currency).toBe('INR')
      expect(e.event_id.startsWith(`${name}_`)).toBe(true)
    }
  })

  it('leaves user_data fields out when there is nothing to send', async () => {
    const e = await buildConversionEvent('ViewCategory', {}, { now: 0, hex: 'aa', url: 'u' })
    expect(e.user_data).toEqual({})
  })

  it('normalises PII before hashing', () => {
    expect(normalizePii('em', '  A@B.Co ')).toBe('a@b.co')
    expect(normalizePii('ph', '+91 (984) 501-2345')).toBe('919845012345')
    expect(normalizePii('zp', 'SW1A 1AA')).toBe('sw1a1aa')
  })
})
