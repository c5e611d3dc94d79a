/**
 * The account mails (password reset, an e-gift card to its recipient, back in stock) in both parts,
 * plain text and HTML, through the same layout as the order mails (./html.ts).
 *
 * The operator may edit each one's subject, opening text and closing note (/admin/mail), with the
 * placeholders of that mail; what makes the mail work is always written by the shop, outside the
 * editable words: the reset link and code, the gift card's code, value and the buyer's message, the
 * product's link and the unsubscribe link. The placeholders never hold a secret (no reset token,
 * no gift card code), so edited words cannot move one into a subject or anywhere else.
 */
import {
  blockHtml,
  blockText,
  fillPlaceholders,
  type MailTemplateText,
  type PlaceholderList,
  paragraphs,
} from './blocks'
import { button, facts, mailDocument, mailto, paragraph, paragraphHtml, STYLES, textLink } from './html'

/** What each account mail is filled with. */
export interface AccountMailInputs {
  password_reset: {
    /** The account's first name. */
    name: string
    /** The signed, single-use, one-hour link that opens the reset form. */
    link: string
    /** The same token, for typing in by hand. */
    code: string
  }
  gift_card: {
    recipient: string
    /** Who sent it (the buyer's first name, or "Someone"). */
    from: string
    /** The card's value, formatted in its currency. */
    value: string
    message: string | null
    code: string
    /** Where a card is redeemed. */
    redeemUrl: string
  }
  back_in_stock: {
    product: string
    productUrl: string
    /** The day the shopper asked (YYYY-MM-DD). */
    asked: string
    unsubscribe: string
  }
}

export type AccountMailKind = keyof AccountMailInputs

interface AccountMailSpec<K extends AccountMailKind> {
  /** How the operator knows it. */
  title: string
  placeholders: PlaceholderList
  values: (input: AccountMailInputs[K], shop: string) => Record<string, string>
  subject: (v: Record<string, string>) => string
  intro: (v: Record<string, string>) => string[]
  /** The shop's own part: lines of the text part and pieces of the HTML part. */
  fixed: (input: AccountMailInputs[K], shop: AccountShop) => { text: string[]; html: string[] }
}

interface AccountShop {
  name: string
  supportEmail: string
}

const SHOP = { shop: "the shop's name" } as const

export const ACCOUNT_MAILS: { [K in AccountMailKind]: AccountMailSpec<K> } = {
  password_reset: {
    title: 'Password reset',
    placeholders: { name: "the account's first name", ...SHOP },
    values: (i, shop) => ({ name: i.name, shop }),
    subject: (v) => `${v.shop}: reset your password`,
    intro: (v) => [`Hello ${v.name},`, 'To choose a new password, open this link within one hour.'],
    fixed: (i) => ({
      text: [i.link, '', `Reset code: ${i.code}`, '', 'If you did not ask for this, ignore this mail.'],
      html: [
        button(i.link, 'Choose a new password'),
        paragraph(`Reset code: ${i.code}`, STYLES.muted),
        paragraph(
          'If you did not ask for this, ignore this mail: your password stays as it is.',
          STYLES.muted,
        ),
      ],
    }),
  },
  gift_card: {
    title: 'E-gift card',
    placeholders: {
      name: "the recipient's name",
      from: "the buyer's first name",
      value: "the card's value",
      ...SHOP,
    },
    values: (i, shop) => ({ name: i.recipient, from: i.from, value: i.value, shop }),
    subject: (v) => `${v.from} sent you a ${v.shop} gift card`,
    intro: (v) => [
      `Dear ${v.name},`,
      `${v.from} has sent you an e-gift card worth ${v.value} from ${v.shop}.`,
    ],
    fixed: (i) => ({
      text: [
        ...(i.message ? [`"${i.message}"`, ''] : []),
        `Your gift card code: ${i.code}`,
        '',
        `To use it, sign in or create an account at ${i.redeemUrl}`,
        'and enter the code under "Redeem a gift card": its value becomes store credit for anything in',
        'the shop. Keep this e-mail: the code is shown only here.',
      ],
      html: [
        ...(i.message ? [paragraph(`“${i.message}”`)] : []),
        facts([
          ['Gift card code', i.code],
          ['Value', i.value],
        ]),
        paragraph(
          'Sign in or create an account and enter the code under "Redeem a gift card": its value becomes store credit for anything in the shop. Keep this e-mail: the code is shown only here.',
        ),
        button(i.redeemUrl, 'Redeem your gift card'),
      ],
    }),
  },
  back_in_stock: {
    title: 'Back in stock',
    placeholders: { product: "the product's name", ...SHOP },
    values: (i, shop) => ({ product: i.product, shop }),
    subject: (v) => `${v.product} is back in stock`,
    intro: (v) => [`Good news: ${v.product} is back in stock at ${v.shop}.`],
    fixed: (i, shop) => ({
      text: [
        `See it here: ${i.productUrl}`,
        '',
        `You asked us on ${i.asked} to write when it was back. This is the only mail we send for that request.`,
        `If you did not ask, nothing else will follow. Questions? Write to ${shop.supportEmail}.`,
        '',
        `To remove this alert, or to stop all back-in-stock mail to this address: ${i.unsubscribe}`,
      ],
      html: [
        button(i.productUrl, `See ${i.product}`),
        paragraph(
          `You asked us on ${i.asked} to write when it was back. This is the only mail we send for that request. If you did not ask, nothing else will follow.`,
          STYLES.muted,
        ),
        `<p style="${STYLES.muted}">${textLink(i.unsubscribe, 'Remove this alert, or stop all back-in-stock mail to this address')}</p>`,
      ],
    }),
  },
}

export const ACCOUNT_MAIL_KINDS = Object.keys(ACCOUNT_MAILS) as AccountMailKind[]

/** An account mail's subject, text and HTML, with the operator's edited words when there are any. */
export function renderAccountMail<K extends AccountMailKind>(
  kind: K,
  input: AccountMailInputs[K],
  shop: AccountShop,
  custom?: MailTemplateText | null,
): { subject: string; text: string; html: string } {
  const spec = ACCOUNT_MAILS[kind] as AccountMailSpec<K>
  const values = spec.values(input, shop.name)
  const edited = (words: string | null | undefined) =>
    words ? paragraphs(fillPlaceholders(words, values)) : null
  const subject = custom?.subject
    ? fillPlaceholders(custom.subject, values).replace(/\s+/g, ' ').trim().slice(0, 200)
    : spec.subject(values)
  const intro = edited(custom?.intro) ?? spec.intro(values)
  const note = edited(custom?.note) ?? []
  const fixed = spec.fixed(input, shop)
  const text = [
    intro.map(blockText).join(custom?.intro ? '\n\n' : '\n'),
    '',
    ...fixed.text,
    ...(note.length ? ['', note.map(blockText).join('\n\n')] : []),
  ].join('\n')
  const html = mailDocument({
    title: subject,
    preheader: blockText(intro.at(-1) ?? ''),
    shop: shop.name,
    body: [
      ...intro.map((p) => paragraphHtml(blockHtml(p))),
      ...fixed.html,
      ...note.map((p) => paragraphHtml(blockHtml(p))),
    ],
    footer: `Questions? Write to ${mailto(shop.supportEmail)}.`,
  })
  return { subject, text, html }
}

/** Sample fillings for the back office's preview (no real account, card or alert). */
export function sampleAccountInput<K extends AccountMailKind>(kind: K, origin: string): AccountMailInputs[K] {
  const samples: AccountMailInputs = {
    password_reset: {
      name: 'Ananya',
      link: `${origin}/?resetPassword=1&email=ananya%40example.com&resetToken=SAMPLE-TOKEN`,
      code: 'SAMPLE-TOKEN',
    },
    gift_card: {
      recipient: 'Meera',
      from: 'Ananya',
      value: '₹5,000',
      message: 'Happy birthday!',
      code: 'SAMPLE-CODE-0000',
      redeemUrl: `${origin}/my-account/credit-details`,
    },
    back_in_stock: {
      product: 'Chanderi Kurta',
      productUrl: `${origin}/chanderi-kurta`,
      asked: '2026-01-15',
      unsubscribe: `${origin}/api/stock-alerts/unsubscribe?key=SAMPLE`,
    },
  }
  return samples[kind]
}
