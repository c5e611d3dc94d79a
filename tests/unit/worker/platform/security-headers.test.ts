import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import type { AppEnv } from '../../../../worker/platform/env'
import { securityHeaders } from '../../../../worker/platform/middleware/security-headers'

function shop() {
  const app = new Hono<AppEnv>()
  app.use('*', async (c, next) => {
    c.set('nonce', 'n0nce')
    await next()
  })
  app.use('*', securityHeaders)
  app.get('/', (c) => c.html('<p>page</p>'))
  return app
}

const csp = (res: Response) => res.headers.get('content-security-policy') ?? ''

const RAZORPAY = {
  RAZORPAY_CHECKOUT_SCRIPT: 'https://checkout.razorpay.com/v1/checkout.js',
  RAZORPAY_API_BASE: 'https://api.razorpay.com',
}

describe('the page CSP and the payment configuration', () => {
  it('answers a page when no payment provider is configured, then follows each configuration', async () => {
    // First request of the isolate, without the Razorpay URLs: the page still answers.
    const bare = await shop().request('/', {}, {})
    expect(bare.status).toBe(200)
    expect(csp(bare)).toContain("connect-src 'self' 'self'")
    const configured = await shop().request('/', {}, RAZORPAY)
    expect(csp(configured)).toContain(
      "connect-src 'self' https://checkout.razorpay.com https://api.razorpay.com",
    )
    expect(csp(configured)).toContain("script-src 'nonce-n0nce'")
    const again = await shop().request('/', {}, {})
    expect(csp(again)).toContain("connect-src 'self' 'self'")
  })
})
