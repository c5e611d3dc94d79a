// Outside development and tests, accounts and payments refuse to serve (503, a clear message, one
// log line naming the missing secrets) when a secret they need is not set; everything else serves.
import { env } from 'cloudflare:test'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { REQUIRED_SECRETS } from '../../../worker/platform/middleware/required-secrets'
import { appFetch } from '../../helpers/in-isolate'

const secretsOf = (area: string) =>
  Object.fromEntries(
    (REQUIRED_SECRETS.find((a) => a.area === area)?.secrets ?? []).map((s) => [s, `value-of-${s}`]),
  )
const RAZORPAY_SECRETS = secretsOf('Card and UPI payments')
const PAYPAL_SECRETS = secretsOf('PayPal payments')
const PAYMENT_SECRETS = { ...RAZORPAY_SECRETS, ...PAYPAL_SECRETS }

function call(path: string, vars: Record<string, unknown>, init?: RequestInit) {
  return appFetch(path, init, { ...env, ...vars } as Env)
}

const loginBody = {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ username: 'nobody@example.com', password: 'not-the-password-1' }),
}

describe('production refuses account and payment routes without their secrets', () => {
  afterEach(() => vi.restoreAllMocks())

  it('answers 503 for sign-in without TOKEN_SECRET and logs the missing name, not a value', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const res = await call(
      '/api/user/login',
      { ENVIRONMENT: 'production', TOKEN_SECRET: undefined },
      loginBody,
    )
    expect(res.status).toBe(503)
    const body = (await res.json()) as { code: number; result: string }
    expect(body.code).toBe(503)
    expect(body.result).toMatch(/Accounts are not available/)
    expect(body.result).not.toMatch(/TOKEN_SECRET/) // the shopper is not told the secret's name
    const lines = errors.mock.calls
      .map((a) => String(a[0]))
      .filter((l) => l.includes('required secret missing'))
    expect(lines).toHaveLength(1)
    expect(JSON.parse(lines[0] as string)).toMatchObject({ missing: ['TOKEN_SECRET'] })
  })

  it('treats an empty or blank secret as missing, and staging like production', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    for (const vars of [
      { ENVIRONMENT: 'production', TOKEN_SECRET: '' },
      { ENVIRONMENT: 'production', TOKEN_SECRET: '   ' },
      { ENVIRONMENT: 'staging', TOKEN_SECRET: undefined },
    ]) {
      expect((await call('/api/user/me', vars)).status, JSON.stringify(vars)).toBe(503)
    }
  })

  it('guards every account area, matching prefixes only at a path-segment boundary', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const vars = { ENVIRONMENT: 'production', TOKEN_SECRET: undefined }
    for (const path of ['/api/user/me', '/api/wishlist', '/api/order/get', '/api/ext/mailchimp-subscribe']) {
      expect((await call(path, vars)).status, path).toBe(503)
    }
    // A prefix only matches at a segment boundary: /api/username is not /api/user.
    expect((await call('/api/username', vars)).status).toBe(404)
  })

  it('answers 503 for payment routes naming each missing provider secret in the log', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const partial = { ...PAYMENT_SECRETS, RAZORPAY_WEBHOOK_SECRET: undefined, RAZORPAY_KEY_SECRET: '' }
    const res = await call('/api/payment/razorpay/webhook', { ENVIRONMENT: 'production', ...partial })
    expect(res.status).toBe(503)
    expect(((await res.json()) as { result: string }).result).toMatch(
      /Card and UPI payments are not available/,
    )
    const line = errors.mock.calls.map((a) => String(a[0])).find((l) => l.includes('required secret missing'))
    expect(JSON.parse(line as string).missing).toEqual(['RAZORPAY_KEY_SECRET', 'RAZORPAY_WEBHOOK_SECRET'])
    expect(line).not.toContain('value-of-')
  })

  it('lets a shop run one provider: PayPal routes refused without PayPal keys, Razorpay routes served', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const razorpayOnly = { ENVIRONMENT: 'production', ...RAZORPAY_SECRETS }
    expect((await call('/api/payment/paypal/webhook', razorpayOnly, { method: 'POST' })).status).toBe(503)
    expect((await call('/api/payment/razorpay/webhook', razorpayOnly, { method: 'POST' })).status).not.toBe(
      503,
    )
  })

  it('lets the routes through once the secrets are set, and never blocks the catalogue', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const configured = { ENVIRONMENT: 'production', ...PAYMENT_SECRETS }
    expect((await call('/api/user/me', configured)).status).toBe(401) // reaches the account code
    expect((await call('/api/payment/anything', configured)).status).not.toBe(503)
    const bare = { ENVIRONMENT: 'production', TOKEN_SECRET: undefined }
    expect((await call('/api/catalog/vue_storefront_catalog/product/_search?size=1', bare)).status).toBe(200)
    expect((await call('/', bare)).status).toBe(200)
  })

  it('does not refuse in development or tests', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    for (const ENVIRONMENT of ['development', 'test']) {
      expect((await call('/api/user/me', { ENVIRONMENT, TOKEN_SECRET: undefined })).status).toBe(401)
    }
  })
})
