// The account mails (password reset, e-gift card, back in stock) as the shopper reads them: each
// renders a plain-text and an HTML part in the label's layout; the HTML escapes whatever a shopper
// or an operator wrote (a first name, a buyer's message, a product name, edited words), so it holds
// only the shop's own tags and attributes; the link that makes the mail work is the shop's, always;
// edited words cannot name a secret (reset token, gift card code).
import { describe, expect, it } from 'vitest'
import {
  ACCOUNT_MAIL_KINDS,
  ACCOUNT_MAILS,
  type AccountMailInputs,
  renderAccountMail,
} from '../../../../worker/mail/account-mail'
import { templateTextProblem } from '../../../../worker/mail/blocks'
import { expectOnlyShopMarkup } from './markup'

const ORIGIN = 'https://ode.example'
const HOSTILE = '"><img src=x onerror=alert(1)><script>alert(2)</script>'
const SHOP = { name: 'Ode <Atelier>', supportEmail: 'care@ode.example' }

const INPUTS: AccountMailInputs = {
  password_reset: {
    name: `Meera${HOSTILE}`,
    link: `${ORIGIN}/?resetPassword=1&email=meera%40example.com&resetToken=tok123`,
    code: 'tok123',
  },
  gift_card: {
    recipient: `Ravi${HOSTILE}`,
    from: `Meera${HOSTILE}`,
    value: '₹5,000',
    message: `Happy birthday ${HOSTILE}`,
    code: 'GIFTCODE00001234',
    redeemUrl: `${ORIGIN}/my-account/credit-details`,
  },
  back_in_stock: {
    product: `Silk Scarf ${HOSTILE}`,
    productUrl: `${ORIGIN}/silk-scarf`,
    asked: '2026-01-15',
    unsubscribe: `${ORIGIN}/api/stock-alerts/unsubscribe?key=abc`,
  },
}

/** The secret each mail carries, and the link that carries it or acts on it. */
const WORKING: Record<keyof AccountMailInputs, { link: string; secret?: string }> = {
  password_reset: { link: INPUTS.password_reset.link, secret: 'tok123' },
  gift_card: { link: INPUTS.gift_card.redeemUrl, secret: 'GIFTCODE00001234' },
  back_in_stock: { link: INPUTS.back_in_stock.unsubscribe },
}

const attr = (url: string) => url.replace(/&/g, '&amp;')

describe('account mails', () => {
  it.each(ACCOUNT_MAIL_KINDS)('%s renders a text and an HTML part holding only the shop’s markup', (kind) => {
    const mail = renderAccountMail(kind, INPUTS[kind], SHOP)
    expect(mail.html.startsWith('<!doctype html>')).toBe(true)
    expectOnlyShopMarkup(mail.html)
    expect(mail.html).not.toMatch(/<script|<img src=x/i)
    expect(mail.html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;alert(2)')
    expect(mail.html).toContain('Ode &lt;Atelier&gt;')
    expect(mail.html).toContain(`href="${attr(WORKING[kind].link)}"`)
    expect(mail.text).toContain(WORKING[kind].link)
    const secret = WORKING[kind].secret
    if (secret) {
      expect(mail.text).toContain(secret)
      expect(mail.html).toContain(secret)
      expect(mail.subject).not.toContain(secret)
    }
  })

  it.each(ACCOUNT_MAIL_KINDS)('%s uses the edited words, escaped, and keeps the shop’s link', (kind) => {
    const placeholder = Object.keys(ACCOUNT_MAILS[kind].placeholders)[0] as string
    const custom = {
      subject: `News for {${placeholder}}`,
      intro: `**Hello** {${placeholder}}\n\n<a href="https://evil.example">click</a>`,
      note: 'With love,\nthe studio',
    }
    const mail = renderAccountMail(kind, INPUTS[kind], SHOP, custom)
    expect(mail.subject).toMatch(/^News for \S/)
    expect(mail.subject).not.toContain('{')
    expect(mail.html).toContain('<strong>Hello</strong> ')
    expect(mail.html).toContain('&lt;a href=&quot;https://evil.example&quot;&gt;click&lt;/a&gt;')
    expect(mail.html).not.toContain('href="https://evil.example"')
    expect(mail.html).toContain('With love,<br>the studio')
    expect(mail.html).toContain(`href="${attr(WORKING[kind].link)}"`)
    expectOnlyShopMarkup(mail.html)
    expect(mail.text).toMatch(/^Hello \S/)
    expect(mail.text).toContain('<a href="https://evil.example">click</a>')
    expect(mail.text).toContain(WORKING[kind].link)
  })

  it('refuses words that name a secret or another mail’s placeholder', () => {
    const reset = ACCOUNT_MAILS.password_reset.placeholders
    for (const word of ['{code}', '{link}', '{token}', '{order}', '{constructor}'])
      expect(templateTextProblem('intro', `Yours: ${word}`, reset), word).toMatch(
        /which the shop cannot fill/,
      )
    expect(templateTextProblem('subject', 'Hello {name} from {shop}', reset)).toBeNull()
    const gift = ACCOUNT_MAILS.gift_card.placeholders
    expect(templateTextProblem('subject', 'Your {code}', gift)).toMatch(/cannot fill/)
    expect(templateTextProblem('subject', '{from} sent {name} {value}', gift)).toBeNull()
  })

  it('writes no link when a URL is not an absolute http(s) one', () => {
    const mail = renderAccountMail(
      'back_in_stock',
      { ...INPUTS.back_in_stock, productUrl: 'javascript:alert(1)', unsubscribe: 'javascript:alert(2)' },
      SHOP,
    )
    expect(mail.html).not.toContain('javascript:')
    expectOnlyShopMarkup(mail.html)
  })
})
