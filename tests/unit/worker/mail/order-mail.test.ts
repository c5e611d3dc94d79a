// Order mails as the shopper reads them: every event renders a plain-text and an HTML part; the
// HTML escapes whatever the shopper (or an operator) wrote, so it holds only the shop's own tags
// and attributes; its money is the order's, in the order's currency; its pictures and links are
// absolute URLs of the shop.
import { documentMoneyRows } from '@shared/components/order/money-rows'
import { formatPrice } from '@shared/domain/currency'
import { describe, expect, it } from 'vitest'
import { type OrderMailEvent, SUBJECTS } from '../../../../worker/api/mail/order-words'
import type { OrderDocument } from '../../../../worker/api/order/document'
import { templateTextProblem } from '../../../../worker/mail/blocks'
import { type OrderMailInput, renderMerchantMail, renderOrderMail } from '../../../../worker/mail/order-mail'
import { expectOnlyShopMarkup } from './markup'

const EVENTS = Object.keys(SUBJECTS) as OrderMailEvent[]
const ORIGIN = 'https://ode.example'
const HOSTILE = '"><img src=x onerror=alert(1)><script>alert(2)</script>'

function address(kind: 'billing' | 'shipping', first: string) {
  return {
    address_type: kind,
    email: 'meera@example.com',
    firstname: first,
    lastname: `Iyer${HOSTILE}`,
    street: ['4 Residency Road', `Flat 2B </td></tr></table>${HOSTILE}`],
    city: 'Chennai',
    postcode: '600001',
    country_id: kind === 'shipping' ? 'IN' : 'GB',
    telephone: '9876500000',
  }
}

function input(currency: 'INR' | 'GBP', over: Partial<OrderMailInput> = {}): OrderMailInput {
  const doc = {
    subtotal_incl_tax: 5348,
    discount_amount: -500,
    coupon_code: `FEST${HOSTILE}`,
    shipping_incl_tax: 149,
    customer_balance_amount: 0,
    grand_total: 4997,
    customer_firstname: `Meera${HOSTILE}`,
    customer_lastname: 'Iyer',
    billing_address: address('billing', 'Ravi'),
    payment: { method: 'razorpay', additional_information: [] },
    extension_attributes: {
      shipping_assignments: [
        { shipping: { address: address('shipping', 'Meera'), method: 'flat' }, items: [] },
      ],
    },
  } as unknown as OrderDocument
  return {
    event: 'placed',
    order: {
      increment_id: '000000042',
      status: 'processing',
      payment_state: 'paid',
      payment_method: 'razorpay',
      paid_minor: 499700,
      refunded_minor: 100000,
      grand_total_minor: 499700,
      expires_at: null,
      currency,
      customer_email: 'meera@example.com',
      customer_id: null,
    },
    doc,
    lines: [
      {
        qty: 1,
        name: `Linen Kurta ${HOSTILE}`,
        rowTotal: 2999,
        chosen: [{ label: 'Size', value: 'S' }],
        image: '/p/kurta-red.svg',
      },
      {
        qty: 2,
        name: 'Engraved Cuff',
        rowTotal: 2349,
        chosen: [{ label: 'Engraving', value: `A & R ${HOSTILE}`, typed: true }],
        image: null,
      },
    ],
    payment: 'paid (UPI)',
    withheld: false,
    orderLink: `${ORIGIN}/order/000000042#k=abc`,
    invoice: 'INV/25-26/0042',
    codLink: null,
    detail: {
      carrier: 'Blue Dart',
      tracking_number: `BD1${HOSTILE}`,
      tracking_url: 'https://track.example/BD1',
    },
    shop: { name: 'Ode <Atelier>', origin: ORIGIN, supportEmail: 'care@ode.example' },
    ...over,
  }
}

describe('order mails', () => {
  it.each(EVENTS)('%s renders a text and an HTML part holding only the shop’s markup', (event) => {
    const mail = renderOrderMail(input('INR', { event }))
    expect(mail.subject).toContain('000000042')
    expect(mail.text).toContain('Order 000000042')
    expect(mail.text).toContain(`Your order: ${ORIGIN}/order/000000042#k=abc`)
    expect(mail.html.startsWith('<!doctype html>')).toBe(true)
    expectOnlyShopMarkup(mail.html)
    expect(mail.html).not.toMatch(/<script|<img src=x/i)
    expect(mail.html).toContain('Iyer&quot;&gt;&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;')
    expect(mail.html).toContain('Ode &lt;Atelier&gt;')
  })

  it('shows the money rows of the order, in its currency, the same in both parts', () => {
    for (const currency of ['INR', 'GBP'] as const) {
      const i = input(currency)
      const mail = renderOrderMail(i)
      const expected = documentMoneyRows(i.doc).map((r) => [
        r.title,
        `${r.minor < 0 ? '−' : ''}${formatPrice(Math.abs(r.minor) / 100, currency, { convert: false })}`,
      ])
      expect(expected.at(-1)).toEqual(['Total', formatPrice(4997, currency, { convert: false })])
      const cells = [
        ...mail.html.matchAll(
          /<tr><td style="[^"]*">([^<]*)<\/td><td style="[^"]*(?:right)[^"]*">([^<]*)<\/td><\/tr>/g,
        ),
      ]
        .map(([, t = '', a = '']) => [t.replace(/&amp;/g, '&'), a])
        .filter(([t]) => expected.some(([e]) => e?.startsWith(t?.slice(0, 8) ?? '-')))
      expect(cells.map(([, a]) => a)).toEqual(expected.map(([, a]) => a))
      for (const [title, amount] of expected) expect(mail.text).toContain(`${title}: ${amount}`)
      // Each line's amount, as the order stored it.
      expect(mail.html).toContain(`>${formatPrice(2999, currency, { convert: false })}</td>`)
      expect(mail.text).toContain(`2 × Engraved Cuff — ${formatPrice(2349, currency, { convert: false })}`)
      expect(mail.html).toContain(currency === 'INR' ? '₹' : '£')
      expect(mail.html).not.toContain(currency === 'INR' ? '£' : '₹')
    }
  })

  it('links the pictures, the order, the invoice and the tracking page by absolute URLs', () => {
    const mail = renderOrderMail(input('INR', { event: 'shipped' }))
    expect(mail.html).toContain(`<img src="${ORIGIN}/img/150/150/p/kurta-red.svg" width="76" height="76"`)
    expect(mail.html).toContain(`href="${ORIGIN}/order/000000042#k=abc"`)
    expect(mail.html).toContain(`href="${ORIGIN}/order/000000042#k=abc&amp;doc=invoice"`)
    expect(mail.html).toContain('href="https://track.example/BD1"')
    // Country names, not codes; the billing address when it differs.
    expect(mail.text).toContain('  India\n')
    expect(mail.text).toMatch(/Billing address:\n {2}Ravi[^\n]*\n[\s\S]*United Kingdom/)
    // A tracking "URL" that is not http(s) is text, never a link.
    const sly = renderOrderMail(
      input('INR', { event: 'shipped', detail: { tracking_url: 'javascript:alert(1)' } }),
    )
    expect(sly.html).not.toContain('href="javascript')
    expect(sly.text).toContain('Track it at: javascript:alert(1)')
  })

  it('leaves out the addresses until the order is paid or confirmed', () => {
    const mail = renderOrderMail(
      input('INR', { withheld: true, codLink: `${ORIGIN}/api/messages/cod/42?t=x` }),
    )
    for (const part of [mail.text, mail.html]) {
      expect(part).not.toContain('Residency')
      expect(part).not.toContain('Ravi')
      expect(part).toContain(
        'The delivery address and anything you wrote for this order are on your order page.',
      )
    }
    expect(mail.html).toContain(`href="${ORIGIN}/api/messages/cod/42?t=x"`)
  })

  it("uses the operator's words, escaped, with placeholders filled and **bold**", () => {
    const mail = renderOrderMail(
      input('INR', {
        event: 'refunded',
        custom: {
          subject: 'Refund for {order} from {shop}',
          intro: 'We refunded **{refunded}** of {total}.\n\n<a href="https://evil.example">Click</a>',
          note: 'With love,\nthe studio',
        },
      }),
    )
    expect(mail.subject).toBe('Refund for 000000042 from Ode <Atelier>')
    expect(mail.html).toContain(
      '<p style="margin:0 0 14px">We refunded <strong>₹1,000</strong> of ₹4,997.</p>',
    )
    expect(mail.html).toContain('&lt;a href=&quot;https://evil.example&quot;&gt;Click&lt;/a&gt;')
    expect(mail.html).not.toContain('href="https://evil.example"')
    expect(mail.html).toContain('With love,<br>the studio')
    expect(mail.text).toMatch(/^We refunded ₹1,000 of ₹4,997\.\n\n<a href/)
    expect(mail.text).toContain('With love,\nthe studio\n\nYour order:')
  })

  it("gives the merchant the customer's details in both parts, escaped", () => {
    const mail = renderMerchantMail({ ...input('INR'), placedAt: '29/11/2026, 10:00 Asia/Kolkata' })
    expect(mail.subject).toBe(`New order 000000042 — ${formatPrice(4997, 'INR', { convert: false })}`)
    expect(mail.text).toContain('Customer: Meera')
    expect(mail.text).toContain(`Open it in the back office: ${ORIGIN}/admin`)
    expect(mail.html).not.toMatch(/<script|<img src=x/i)
    expect(mail.html).toContain('Residency Road')
  })
})

describe('edited words', () => {
  it('are refused, with a sentence, when the shop could not use them', () => {
    expect(templateTextProblem('subject', 'Your order {order}')).toBeNull()
    expect(templateTextProblem('subject', 'two\nlines')).toBe('The subject must be one line.')
    expect(templateTextProblem('intro', 'Hello {name}')).toMatch(
      /^The opening text uses \{name\}, which the shop cannot fill\. Use \{order\}/,
    )
    expect(templateTextProblem('note', 'x'.repeat(1001))).toBe(
      'The closing note is longer than 1000 characters.',
    )
    expect(templateTextProblem('intro', 'bell\u0007')).toMatch(/control character/)
  })
})
