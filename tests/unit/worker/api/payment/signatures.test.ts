// The provider signature checks against the documented algorithms, computed independently here
// with Node's crypto: Razorpay's checkout signature (HMAC-SHA256 of "<order id>|<payment id>" with
// the key secret), its webhook signature (HMAC-SHA256 of the raw body with the webhook secret),
// and the PayPal verify-webhook-signature request (the five transmission headers, our webhook id,
// the event exactly as it arrived).
import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { paypalMinor, paypalValue, paypalVerificationBody } from '../../../../../worker/api/payment/paypal'
import {
  razorpayPaymentSignatureValid,
  razorpayWebhookSignatureValid,
} from '../../../../../worker/api/payment/razorpay'

const KEY_SECRET = 'unit-key-secret'
const WEBHOOK_SECRET = 'unit-webhook-secret'
const hmac = (secret: string, message: string | Buffer) =>
  createHmac('sha256', secret).update(message).digest('hex')
const enc = (s: string) => new TextEncoder().encode(s)

describe('Razorpay checkout signature', () => {
  const orderId = 'order_IluGWxBm9U8zJ8'
  const paymentId = 'pay_29QQoUBi66xm2f'
  const good = hmac(KEY_SECRET, `${orderId}|${paymentId}`)

  it('accepts the documented signature for the order id we stored', async () => {
    expect(await razorpayPaymentSignatureValid(KEY_SECRET, orderId, paymentId, good)).toBe(true)
  })

  it('rejects a tampered order id, payment id, signature, secret or encoding', async () => {
    expect(await razorpayPaymentSignatureValid(KEY_SECRET, 'order_IluGWxBm9U8zJ9', paymentId, good)).toBe(
      false,
    )
    expect(await razorpayPaymentSignatureValid(KEY_SECRET, orderId, 'pay_29QQoUBi66xm2g', good)).toBe(false)
    const flipped = (good[0] === 'a' ? 'b' : 'a') + good.slice(1)
    expect(await razorpayPaymentSignatureValid(KEY_SECRET, orderId, paymentId, flipped)).toBe(false)
    expect(await razorpayPaymentSignatureValid('other-secret', orderId, paymentId, good)).toBe(false)
    expect(await razorpayPaymentSignatureValid(KEY_SECRET, orderId, paymentId, good.toUpperCase())).toBe(
      false,
    )
    expect(await razorpayPaymentSignatureValid(KEY_SECRET, orderId, paymentId, good.slice(0, 63))).toBe(false)
    expect(await razorpayPaymentSignatureValid(KEY_SECRET, orderId, paymentId, '')).toBe(false)
    // Moving the separator must not produce the same message.
    const shifted = hmac(KEY_SECRET, `${orderId}|${paymentId}`)
    expect(
      await razorpayPaymentSignatureValid(KEY_SECRET, `${orderId}|pay`, '_29QQoUBi66xm2f', shifted),
    ).toBe(false)
    // The webhook secret does not sign checkout callbacks.
    const wrongKey = hmac(WEBHOOK_SECRET, `${orderId}|${paymentId}`)
    expect(await razorpayPaymentSignatureValid(KEY_SECRET, orderId, paymentId, wrongKey)).toBe(false)
  })
})

describe('Razorpay webhook signature', () => {
  const body =
    '{"entity":"event","event":"payment.captured","payload":{"payment":{"entity":{"id":"pay_1","amount":50000,"currency":"INR"}}},"note":"₹ ok"}'
  const sig = hmac(WEBHOOK_SECRET, Buffer.from(body, 'utf8'))

  it('accepts the raw body signed with the webhook secret', async () => {
    expect(await razorpayWebhookSignatureValid(WEBHOOK_SECRET, enc(body), sig)).toBe(true)
  })

  it('rejects the same event re-serialised, a changed amount, a missing header, the key secret', async () => {
    const reserialised = JSON.stringify(JSON.parse(body), null, 2)
    expect(await razorpayWebhookSignatureValid(WEBHOOK_SECRET, enc(reserialised), sig)).toBe(false)
    expect(
      await razorpayWebhookSignatureValid(WEBHOOK_SECRET, enc(body.replace('50000', '50001')), sig),
    ).toBe(false)
    expect(await razorpayWebhookSignatureValid(WEBHOOK_SECRET, enc(body), null)).toBe(false)
    expect(await razorpayWebhookSignatureValid(KEY_SECRET, enc(body), sig)).toBe(false)
    expect(await razorpayWebhookSignatureValid(WEBHOOK_SECRET, enc(`${body} `), sig)).toBe(false)
  })

  it('checks the bytes as sent, not text decoded and encoded again', async () => {
    const bytes = new Uint8Array([...enc('{"a":"'), 0xff, ...enc('"}')])
    const signed = hmac(WEBHOOK_SECRET, Buffer.from(bytes))
    expect(await razorpayWebhookSignatureValid(WEBHOOK_SECRET, bytes, signed)).toBe(true)
    const roundTripped = enc(new TextDecoder().decode(bytes))
    expect(await razorpayWebhookSignatureValid(WEBHOOK_SECRET, roundTripped, signed)).toBe(false)
  })
})

describe('PayPal verify-webhook-signature request', () => {
  const raw =
    '{"id":"WH-1","event_type":"PAYMENT.CAPTURE.COMPLETED","resource":{"amount":{"value":"10.50","currency_code":"USD"}},  "z":1.0}'
  const headers = new Headers({
    'paypal-auth-algo': 'SHA256withRSA',
    'paypal-cert-url': 'https://api.paypal.com/v1/notifications/certs/CERT-360caa42',
    'paypal-transmission-id': '69cd13f0-d67a-11e5-baa3-778b53f4ae55',
    'paypal-transmission-sig': 'lmI95Jx3Y9nhR5SJWlHVIWpg4AgFk7n9bCHSRxbrd8A9zrhdu2rMyFrmz+Zjh3s3',
    'paypal-transmission-time': '2016-02-18T20:01:35Z',
  })

  it('carries the five transmission headers, our webhook id and the event bytes unchanged', () => {
    const body = paypalVerificationBody(headers, 'WEBHOOK123', raw) as string
    const parsed = JSON.parse(body)
    expect(parsed).toMatchObject({
      auth_algo: 'SHA256withRSA',
      cert_url: 'https://api.paypal.com/v1/notifications/certs/CERT-360caa42',
      transmission_id: '69cd13f0-d67a-11e5-baa3-778b53f4ae55',
      transmission_sig: 'lmI95Jx3Y9nhR5SJWlHVIWpg4AgFk7n9bCHSRxbrd8A9zrhdu2rMyFrmz+Zjh3s3',
      transmission_time: '2016-02-18T20:01:35Z',
      webhook_id: 'WEBHOOK123',
      webhook_event: JSON.parse(raw),
    })
    // Spacing and the "1.0" survive: the event is spliced in as received, not re-serialised.
    expect(body.endsWith(`"webhook_event":${raw}}`)).toBe(true)
  })

  it('is not built when a header is missing or the body is not a JSON object', () => {
    const missing = new Headers(headers)
    missing.delete('paypal-transmission-sig')
    expect(paypalVerificationBody(missing, 'W', raw)).toBeNull()
    expect(paypalVerificationBody(headers, 'W', '[1,2]')).toBeNull()
    expect(paypalVerificationBody(headers, 'W', '{"a":1}, "webhook_id":"X"')).toBeNull()
    expect(paypalVerificationBody(headers, 'W', 'not json')).toBeNull()
  })

  it('converts amounts between minor units and PayPal decimal strings exactly', () => {
    expect(paypalValue(12345)).toBe('123.45')
    expect(paypalValue(5)).toBe('0.05')
    expect(paypalMinor('123.45')).toBe(12345)
    expect(paypalMinor('10.5')).toBe(1050)
    expect(paypalMinor('10')).toBe(1000)
    for (const bad of ['1e3', '-1.00', '1.005', '', ' 1.00', 12, null]) expect(paypalMinor(bad)).toBeNull()
  })
})
