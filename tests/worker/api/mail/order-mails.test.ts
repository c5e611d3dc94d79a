// Order e-mails: what the shopper and the merchant read for each order event, sent through the
// mail provider (a local stand-in of a JSON mail API) or kept in the outbox. Until an order is paid
// or confirmed its shopper mails carry none of the placer's words and are limited per recipient
// and per sender, so nobody can use the order form to mail someone else.

import { env } from 'cloudflare:test'
import { formatPrice } from '@shared/domain/currency'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  notifyOrder,
  UNCONFIRMED_MAILS_PER_RECIPIENT,
  UNCONFIRMED_MAILS_PER_SENDER,
} from '../../../../worker/api/mail/notify'
import { drainOutboxes, retryPause } from '../../../../worker/api/mail/outbox'
import { transitionOrder } from '../../../../worker/api/order/lifecycle'
import type { OrderRow } from '../../../../worker/api/order/repo'
import { readConfig } from '../../../../worker/platform/env'
import { onePieceEach, seedCartFixtures } from '../../../helpers/cart-fixtures'
import { appFetch } from '../../../helpers/in-isolate'
import { freshEmail, orderBody } from '../../../helpers/orders'
import { countingDb } from '../../../helpers/recording-db'
import { freshIp } from '../../../helpers/user'
import { MAIL_API_URL, mailApiStandIn } from './mail-provider-stand-in'

beforeEach(seedCartFixtures)
afterEach(() => vi.restoreAllMocks())

const MAIL_KEY = 'mail-key-for-tests'
let n = 0
const meera = {
  firstname: 'Meera',
  lastname: 'Iyer',
  street: ['4 Residency Road', 'Flat 2B'],
  city: 'Chennai',
  postcode: '600001',
  country_id: 'IN',
  telephone: '9876500000',
  email: 'meera.mail@example.com',
}

/** Each order's shopper has an address of their own (the hold limits are tested elsewhere). */
let address = meera

/** Every kind of line: a size, an engraving (the shopper's own text), a bundle, a grouped product. */
const EVERY_KIND = [
  {
    sku: 'FX-KURTA-S',
    qty: 1,
    price: 1,
    product_option: {
      extension_attributes: {
        configurable_item_options: [{ option_id: '142', option_value: '1' }],
        custom_options: [],
        bundle_options: [],
      },
    },
  },
  {
    sku: 'FX-ENGRAVED',
    qty: 1,
    price: 1,
    product_option: {
      extension_attributes: {
        configurable_item_options: [],
        custom_options: [
          // A shopper's own text, trying to forge lines of the mail.
          { option_id: 99031, option_value: 'A & R\nYour order: https://evil.example' },
          { option_id: 99032, option_value: '9903202' },
        ],
        bundle_options: [],
      },
    },
  },
  {
    sku: 'FX-BUNDLE',
    qty: 1,
    price: 1,
    product_option: onePieceEach(9902102, 9902201),
  },
  { sku: 'FX-GROUPED', qty: 1, price: 1 },
]

async function placeOrder(payment = 'cashondelivery', products: unknown[] = EVERY_KIND) {
  address = { ...meera, email: freshEmail('meera.mail') }
  const orderId = `${Date.now()}-mail-${++n}`
  // In this isolate, waiting for the mails placement sends after its answer: a test that then
  // changes the order sees them already counted under what the order was placed with.
  const res = await appFetch('/api/order', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': freshIp() },
    body: JSON.stringify(orderBody(orderId, products, address, { payment })),
  })
  expect(res.status, await res.clone().text()).toBe(200)
  return orderId
}

function withProvider(vars: Record<string, unknown> = {}) {
  const standIn = mailApiStandIn(MAIL_KEY)
  const real = globalThis.fetch
  vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    return url === MAIL_API_URL ? standIn.fetch(input, init) : real(input, init)
  })
  const mailEnv = { ...env, MAIL_PROVIDER_URL: MAIL_API_URL, MAIL_PROVIDER_KEY: MAIL_KEY, ...vars } as Env
  return { standIn, mailEnv, config: readConfig(mailEnv) }
}

const incrementOf = async (orderId: string) =>
  (
    await env.DB.prepare('SELECT increment_id FROM orders WHERE client_order_id = ?')
      .bind(orderId)
      .first<{ increment_id: string }>()
  )?.increment_id as string

const confirm = (orderId: string) =>
  transitionOrder(env.DB, { orderId, to: 'processing', actor: 'ops', from: ['pending'] }, Date.now())

describe('order confirmation', () => {
  it("names every item with what was chosen, the total, payment and the order link, and none of the placer's words", async () => {
    const { standIn, mailEnv, config } = withProvider()
    const orderId = await placeOrder()
    const number = await incrementOf(orderId)
    await notifyOrder(mailEnv, config, 'placed', orderId, Date.now())
    const mail = standIn.accepted.find((m) => m.to === address.email)
    expect(mail?.subject).toBe(`We have received your order ${number}`)
    expect(mail?.from).toBe(config.SUPPORT_EMAIL)
    const text = mail?.text ?? ''
    expect(text).toMatch(/1 × Linen Kurta S — ₹[\d,.]+\n\s+Size: S\n/)
    // The engraving is the placer's text: not repeated while the order is not confirmed.
    expect(text).toMatch(
      /1 × Engraved Cuff[^\n]*\n\s+Engraving: \(as you wrote it: see your order page\)\n\s+Finish: Gloss\n/,
    )
    for (const placerText of ['evil.example', 'A & R', 'Meera', 'Iyer', 'Residency', '9876500000', 'Chennai'])
      expect(text).not.toContain(placerText)
    expect(text).not.toContain('Delivery address:')
    expect(text).toContain(
      'The delivery address and anything you wrote for this order are on your order page.',
    )
    // Cash on delivery: the shop confirms it before packing, or it expires (in India Standard Time).
    expect(text).toMatch(
      /^Thank you for your order\. We will confirm it with you before we pack it; if it is not confirmed by \d{1,2} \w+ \d{4}, \d{1,2}:\d\d [AP]M IST, it expires/,
    )
    expect(text).toMatch(/1 × Festive Bundle[^\n]*\n\s+Earrings: Jhumka B\n\s+Bag: Potli A\n/)
    expect(text).toMatch(/1 × Gift Set[^\n]*\n\s+Includes: Jhumka A, Potli A\n/)
    expect(text).toMatch(/^Total: ₹[\d,]+(\.\d\d)?$/m)
    expect(text).toContain('Payment: to be paid on delivery (Cash On Delivery)')
    // Exactly one order link, and it is the shop's own signed one.
    const links = text.split('\n').filter((l) => l.startsWith('Your order: '))
    expect(links).toEqual([
      `Your order: ${config.PUBLIC_ORIGIN}/order/${number}${links[0]?.slice(links[0].indexOf('#'))}`,
    ])
    expect(links[0]).toMatch(/#k=[\w.-]+$/)
  })

  it('shows the address and the engraving, one line each, once the shop has confirmed the order', async () => {
    const { standIn, mailEnv, config } = withProvider()
    const orderId = await placeOrder()
    expect((await confirm(orderId)).changed).toBe(true)
    await notifyOrder(mailEnv, config, 'shipped', orderId, Date.now(), { carrier: 'Blue Dart' })
    const text = standIn.accepted.find((m) => m.to === address.email)?.text ?? ''
    expect(text).toContain('Delivery address:\n  Meera Iyer\n  4 Residency Road\n  Flat 2B\n  600001 Chennai')
    expect(text).toMatch(/\n\s+Engraving: A & R Your order: https:\/\/evil\.example\n/)
    // The forged link is inside the engraving's line, never a line of its own.
    expect(text.split('\n').filter((l) => l.startsWith('Your order: '))).toHaveLength(1)
  })

  it('mails the merchant at MERCHANT_EMAIL with the customer as reply-to and without the shopper link', async () => {
    const { standIn, mailEnv, config } = withProvider({ MERCHANT_EMAIL: 'orders@ode-atelier.example' })
    const orderId = await placeOrder()
    const number = await incrementOf(orderId)
    await notifyOrder(mailEnv, config, 'placed', orderId, Date.now())
    const merchant = standIn.accepted.find((m) => m.to === 'orders@ode-atelier.example')
    expect(merchant?.subject).toMatch(new RegExp(`^New order ${number} — ₹`))
    expect(merchant?.reply_to).toBe(address.email)
    expect(merchant?.text).toContain(`Customer: Meera Iyer <${address.email}> (guest)`)
    expect(merchant?.text).toContain('Phone: 9876500000')
    expect(merchant?.text).toContain('Earrings: Jhumka B')
    // The shop's own inbox gets the whole order, the address included.
    expect(merchant?.text).toContain('4 Residency Road')
    expect(merchant?.text).not.toContain('#k=')
    expect(standIn.accepted).toHaveLength(2)
  })

  it('falls back to SUPPORT_EMAIL for the merchant, and keeps both mails queued without a provider', async () => {
    const config = readConfig(env)
    const orderId = await placeOrder()
    await notifyOrder(env, config, 'placed', orderId, Date.now())
    const rows = (
      await env.DB.prepare(
        "SELECT kind, target_address, status, attempts FROM mail_outbox WHERE kind IN ('order-placed', 'order-merchant') ORDER BY id DESC LIMIT 2",
      ).all()
    ).results
    expect(rows).toEqual([
      { kind: 'order-merchant', target_address: config.SUPPORT_EMAIL, status: 'queued', attempts: 0 },
      { kind: 'order-placed', target_address: address.email, status: 'queued', attempts: 0 },
    ])
  })
})

describe('what the mails cost the database', () => {
  // Every order event reads the order (placement hands over the row it wrote), then what its mails
  // are made of: the invoice number, whether the shop has confirmed the order, the lines' pictures
  // and the operator's words for the event, with the WhatsApp number. Those go in one round trip;
  // then the per-recipient and per-sender limits (one batch), both mails' outbox rows (one batch)
  // and, with a provider, both outcomes (one batch).
  it('reads what the placed mails are made of in one round trip, and writes both mails together', async () => {
    const { mailEnv, config } = withProvider()
    const orderId = await placeOrder()
    const { db, seen, calls } = countingDb(env.DB)
    await notifyOrder({ ...mailEnv, DB: db }, config, 'placed', orderId, Date.now())
    // One batch with the invoice's read and the message's number among them.
    const parts = calls.find((c) => c.includes('tax_documen'))
    expect(parts, calls.join('\n')).toMatch(/^batch\[[^|]*(\|[^|]*){4}\]$/)
    expect(parts).toContain('FROM order_messag')
    // Both daily limits counted in one batch.
    expect(
      calls.filter((c) => c.includes('rate_limits')),
      calls.join('\n'),
    ).toEqual([
      expect.stringMatching(/^batch\[INSERT INTO rate_limits[^|]*\| INSERT INTO rate_limits[^|]*\]$/),
    ])
    // The shopper's and the merchant's rows written together, and their outcomes recorded together.
    expect(
      calls.filter((c) => c.includes('mail_outbox')),
      calls.join('\n'),
    ).toEqual([
      expect.stringMatching(/^batch\[INSERT INTO mail_outbox[^|]*\| INSERT INTO mail_outbox[^|]*\]$/),
      expect.stringMatching(/^batch\[UPDATE mail_outbox[^|]*\| UPDATE mail_outbox[^|]*\]$/),
    ])
    expect(seen.trips, calls.join('\n')).toBe(5)
    // Handed the order as placement wrote it, the order is not read again.
    const order = await env.DB.prepare('SELECT * FROM orders WHERE client_order_id = ?')
      .bind(orderId)
      .first<OrderRow>()
    const again = countingDb(env.DB)
    await notifyOrder({ ...mailEnv, DB: again.db }, config, 'placed', order as OrderRow, Date.now())
    expect(again.calls.join('\n')).not.toMatch(/^SELECT \* FROM orders/m)
    expect(again.seen.trips, again.calls.join('\n')).toBe(4)
  })
})

describe('the HTML part', () => {
  it("goes with the text: pictures and links absolute, the typed text escaped, the total the order's, kept for a retry", async () => {
    const { standIn, mailEnv, config } = withProvider()
    await env.DB.prepare(
      "UPDATE products SET doc = json_set(doc, '$.thumbnail', '/p/fx-kurta.svg') WHERE sku LIKE 'FX-KURTA%'",
    ).run()
    const orderId = await placeOrder()
    await confirm(orderId)
    // The first call fails: the drain sends the row again, HTML part included.
    standIn.script.push(503)
    const now = Date.now()
    await notifyOrder(mailEnv, config, 'shipped', orderId, now, {
      carrier: 'Blue Dart',
      tracking_url: 'https://track.example/BD123',
    })
    expect(standIn.accepted).toHaveLength(0)
    await drainOutboxes(mailEnv, now + retryPause(1))
    // The placed mail waited in the outbox too; this is the shipped one.
    const mail = standIn.accepted.find((m) => m.to === address.email && m.subject.includes('on its way'))
    const html = mail?.html ?? ''
    expect(html).toMatch(/^<!doctype html>/)
    expect(html).toContain(`<img src="${config.PUBLIC_ORIGIN}/img/150/150/p/fx-kurta.svg"`)
    expect(html).toContain('href="https://track.example/BD123"')
    expect(html).toContain(`href="${config.PUBLIC_ORIGIN}/order/${await incrementOf(orderId)}#k=`)
    // The engraving is the shopper's text: escaped, its forged link never a link.
    expect(html).toContain('Engraving: A &amp; R Your order: https://evil.example')
    expect(html).not.toContain('href="https://evil.example')
    const order = await env.DB.prepare(
      'SELECT grand_total_minor, currency FROM orders WHERE client_order_id = ?',
    )
      .bind(orderId)
      .first<{ grand_total_minor: number; currency: string }>()
    const total = formatPrice((order?.grand_total_minor ?? 0) / 100, order?.currency ?? '', {
      convert: false,
    })
    expect(html).toMatch(new RegExp(`>Total</td><td style="[^"]*">${total.replace(/[.$]/g, '\\$&')}</td>`))
    expect(mail?.text).toContain(`Total: ${total}`)
    // The delivery address, its country by name.
    expect(html).toMatch(/>Meera Iyer<br>4 Residency Road<br>Flat 2B<br>600001 Chennai<br>(.*<br>)?India<br>/)
  })
})

describe('later order mails', () => {
  it('shipped names the carrier and tracking number, one line each however they were typed', async () => {
    const { standIn, mailEnv, config } = withProvider()
    const orderId = await placeOrder()
    await confirm(orderId)
    await notifyOrder(mailEnv, config, 'shipped', orderId, Date.now(), {
      carrier: 'Blue Dart',
      tracking_number: 'BD123\r\nBcc: victim@example.com',
    })
    const text = standIn.accepted.at(-1)?.text ?? ''
    expect(standIn.accepted.at(-1)?.subject).toMatch(/is on its way$/)
    expect(text).toMatch(
      /^Your order is on its way\.\n\nCarrier: Blue Dart\nTracking number: BD123 Bcc: victim@example\.com\n/,
    )
  })

  it('payment received, cancellation and refund say what happened to the money', async () => {
    const { standIn, mailEnv, config } = withProvider()
    const orderId = await placeOrder()
    const now = Date.now()
    // Collected on delivery: paid in full, then partly refunded.
    await transitionOrder(
      env.DB,
      { orderId, to: 'processing', actor: 'ops', paymentState: 'paid', paidMinor: 500000 },
      now,
    )
    await notifyOrder(mailEnv, config, 'paid', orderId, now)
    expect(standIn.accepted.at(-1)?.text).toMatch(/^We have received your payment of ₹5,000(\.00)?\./)
    await env.DB.prepare(
      "UPDATE orders SET refunded_minor = 120000, payment_state = 'partially_refunded' WHERE client_order_id = ?",
    )
      .bind(orderId)
      .run()
    await notifyOrder(mailEnv, config, 'refunded', orderId, now)
    expect(standIn.accepted.at(-1)?.subject).toMatch(/^A refund for order/)
    expect(standIn.accepted.at(-1)?.text).toMatch(
      /^We have refunded ₹1,200(\.00)? of the ₹5,000(\.00)? you paid\./,
    )
    expect(standIn.accepted.at(-1)?.text).toContain('Payment: paid, partly refunded')
    await notifyOrder(mailEnv, config, 'canceled', orderId, now)
    expect(standIn.accepted.at(-1)?.text).toMatch(
      /^Your order has been canceled\. The money you paid will be refunded/,
    )
  })

  it('sends nothing for an order id that does not exist', async () => {
    const { standIn, mailEnv, config } = withProvider()
    await notifyOrder(mailEnv, config, 'shipped', 'no-such-order-123', Date.now())
    expect(standIn.calls).toBe(0)
  })
})

describe('mails about orders nobody has paid or confirmed', () => {
  beforeEach(() => env.DB.prepare("UPDATE inventory SET qty = 1000 WHERE sku = 'FX-SCARF'").run())

  /** A one-scarf cash-on-delivery order of a shopper of its own. */
  const scarfOrder = () => placeOrder('cashondelivery', [{ sku: 'FX-SCARF', qty: 1, price: 1 }])

  /** How many mails of `kind` the outbox holds for `to`. */
  const mailsTo = (kind: string, to: string) =>
    env.DB.prepare('SELECT COUNT(*) AS n FROM mail_outbox WHERE kind = ? AND target_address = ?')
      .bind(kind, to)
      .first<number>('n')

  it(`go to one address at most ${UNCONFIRMED_MAILS_PER_RECIPIENT} times a day; the order's history says which were held back`, async () => {
    const config = readConfig(env)
    const victim = freshEmail('victim')
    const ids: string[] = []
    for (let i = 0; i <= UNCONFIRMED_MAILS_PER_RECIPIENT; i++) {
      const orderId = await scarfOrder()
      // Written for the victim's address after placement, so only these explicit mails count.
      await env.DB.prepare('UPDATE orders SET customer_email = ? WHERE client_order_id = ?')
        .bind(victim, orderId)
        .run()
      await notifyOrder(env, config, 'placed', orderId, Date.now())
      ids.push(orderId)
    }
    expect(await mailsTo('order-placed', victim)).toBe(UNCONFIRMED_MAILS_PER_RECIPIENT)
    const held = await env.DB.prepare(
      "SELECT client_order_id, detail FROM order_events WHERE kind = 'mail' AND client_order_id = ?",
    )
      .bind(ids.at(-1))
      .all<{ detail: string }>()
    expect(held.results.map((r) => JSON.parse(r.detail))).toEqual([
      { mail: 'order-placed', held_back: 'daily mail limit' },
    ])
    // A confirmed order's mails are the shopper's own business: not counted, not held back.
    const confirmed = ids[0] as string
    await confirm(confirmed)
    await notifyOrder(env, config, 'shipped', confirmed, Date.now())
    expect(await mailsTo('order-shipped', victim)).toBe(1)
  })

  it(`are caused by one sender at most ${UNCONFIRMED_MAILS_PER_SENDER} times a day, whatever the recipients`, async () => {
    const config = readConfig(env)
    const sender = '203.0.113.201'
    const recipients: string[] = []
    for (let i = 0; i <= UNCONFIRMED_MAILS_PER_SENDER; i++) {
      const orderId = await scarfOrder()
      await env.DB.prepare('UPDATE orders SET placed_from = ? WHERE client_order_id = ?')
        .bind(sender, orderId)
        .run()
      recipients.push(address.email)
      await notifyOrder(env, config, 'expired', orderId, Date.now())
    }
    const sent = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM mail_outbox WHERE kind = 'order-expired' AND target_address IN (SELECT value FROM json_each(?))",
    )
      .bind(JSON.stringify(recipients))
      .first<{ n: number }>()
    expect(sent?.n).toBe(UNCONFIRMED_MAILS_PER_SENDER)
  })
})
