import { SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { titleOf } from '../../helpers/html'
import { islandProps } from '../../helpers/islands'

const SHELLS: [string, string, string][] = [
  ['/cart', 'Shopping cart', 'cart-page'],
  ['/checkout', 'Checkout', 'checkout'],
  ['/confirmation', 'Order Confirmation', 'confirmation'],
  ['/my-account', 'My account', 'account'],
  ['/my-account/personal-details', 'Personal details', 'account'],
  ['/my-account/address-book', 'Address book', 'account'],
  ['/my-account/newsletter', 'Newsletter', 'account'],
  ['/my-account/credit-details', 'Store credit', 'account'],
  ['/my-account/orders', 'My orders', 'account'],
  ['/my-account/orders/42', 'Your order', 'account'],
]

describe('transaction and account shells', () => {
  for (const [path, title, island] of SHELLS) {
    it(`${path} renders its island privately, never cached or indexed`, async () => {
      const res = await SELF.fetch(`https://shop.test${path}`)
      expect(res.status).toBe(200)
      expect(res.headers.get('cache-control')).toBe('private, no-store')
      const html = await res.text()
      expect(titleOf(html)).toBe(title)
      expect(html).toMatch(/<meta name="robots" content="noindex[^"]*"/)
      expect(html).toContain(`data-island="${island}"`)
      // The default layout mounts the microcart and the auth modal on every page.
      expect(html).toContain('data-island="microcart"')
      expect(html).toContain('data-island="auth-modal"')
    })
  }

  it('puts nothing personal in the HTML even when the request carries a session', async () => {
    const res = await SELF.fetch('https://shop.test/my-account/personal-details?token=secret-token-value', {
      headers: { cookie: 'vs-token=secret-cookie-value; email=someone@example.com' },
    })
    const html = await res.text()
    expect(html).not.toContain('secret-token-value')
    expect(html).not.toContain('secret-cookie-value')
    expect(html).not.toContain('someone@example.com')
    expect(islandProps(html, 'account')).toEqual({ section: 'personal-details' })
  })

  it('passes the checkout only the store country, the support e-mail and the currencies each payment method charges', async () => {
    const html = await (await SELF.fetch('https://shop.test/checkout')).text()
    const props = islandProps(html, 'checkout') as {
      supportEmail: string
      country: string
      paymentCurrencies: string
    }
    expect(Object.keys(props).sort()).toEqual(['country', 'paymentCurrencies', 'supportEmail'])
    expect(props.country).toBe('IN')
    expect(props.supportEmail).toContain('@')
    expect(JSON.parse(props.paymentCurrencies)).toEqual({
      paypal_standard: ['USD', 'GBP'],
      card: ['INR'],
      cashondelivery: ['INR'],
    })
  })

  it('gives a single order page its id as a prop, truncated and escaped', async () => {
    const html = await (await SELF.fetch('https://shop.test/my-account/orders/%3Cscript%3E')).text()
    expect(html).not.toContain('<script>alert')
    expect(islandProps(html, 'account')).toEqual({ section: 'order', orderId: '<script>' })
    expect(html).not.toMatch(/<h1>[^<]*<script>/)
  })
})
