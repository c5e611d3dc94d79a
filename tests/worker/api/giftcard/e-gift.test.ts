// E-gift cards for someone else: the details are checked where the line is configured, the code
// waits on the card until the chosen day (Asia/Kolkata, 09:00), the scheduled job writes the
// recipient's mail to the mail outbox once, a voided card is never mailed, and redeeming gives the
// card's value to store credit once, with another shopper's redeemed code answered as unknown.
import { env } from 'cloudflare:test'
import { GIFT_CARD_LABELS } from '@shared/domain/gift-card-details'
import { zonedWallToInstant } from '@shared/domain/shop-clock'
import { describe, expect, it } from 'vitest'
import { inventoryStatement } from '../../../../scripts/catalogue/seed/write'
import { queueDueGiftCards } from '../../../../worker/api/giftcard/delivery'
import { readConfig } from '../../../../worker/platform/env'
import { fixtureProductStatement, GIFT } from '../../../helpers/cart-fixtures'
import { orderBody, testAddress } from '../../../helpers/orders'
import { registerAndLogin } from '../../../helpers/user'
import {
  call,
  payEnv,
  refund,
  runCron,
  sandbox,
  seedPaymentFixtures,
  setUpPaymentSandbox,
} from '../payment/harness'

const EGIFT_ID = 990140
const EGIFT = {
  ...GIFT,
  id: EGIFT_ID,
  sku: 'FX-EGIFT',
  name: 'E-Gift Card',
  custom_options: [
    GIFT_CARD_LABELS.name,
    GIFT_CARD_LABELS.email,
    GIFT_CARD_LABELS.message,
    GIFT_CARD_LABELS.sendOn,
  ].map((title, i) => ({
    option_id: EGIFT_ID * 10 + i + 1,
    title,
    type: 'field',
    is_require: false,
    price: 0,
    values: [],
  })),
}

setUpPaymentSandbox(async () => {
  await seedPaymentFixtures()
  await env.DB.batch([
    fixtureProductStatement(env.DB, EGIFT),
    inventoryStatement(env.DB, {
      sku: EGIFT.sku,
      product_id: EGIFT_ID,
      parent_sku: null,
      qty: 100,
      is_in_stock: true,
    }),
  ])
})

const TZ = 'Asia/Kolkata'
const DAY = 86_400_000
/** The shop's calendar day `days` from now, as the shopper types it (DD-MM-YYYY) and as stored. */
function shopDay(days: number) {
  const ymd = new Date(Date.now() + 5.5 * 3_600_000 + days * DAY).toISOString().slice(0, 10)
  return { typed: ymd.split('-').reverse().join('-'), ymd }
}

const giftOption = (d: { name?: string; email?: string; message?: string; sendOn?: string }) => ({
  extension_attributes: {
    custom_options: [d.name, d.email, d.message, d.sendOn].map((v, i) => ({
      option_id: EGIFT_ID * 10 + i + 1,
      option_value: v ?? '',
    })),
  },
})

async function placeCard(details: Parameters<typeof giftOption>[0], qty = 1) {
  return call('/api/order', {
    body: orderBody(
      `egift-${crypto.randomUUID()}`,
      [{ sku: 'FX-EGIFT', qty, price: 1, product_option: giftOption(details) }],
      testAddress(`buyer.${crypto.randomUUID()}@example.com`),
      { payment: 'card' },
    ),
  })
}

async function paidCard(details: Parameters<typeof giftOption>[0], qty = 1) {
  const placed = await placeCard(details, qty)
  expect(placed.status, JSON.stringify(placed.json)).toBe(200)
  const { orderNumber, accessKey } = placed.json.result
  const started = await call('/api/payment/start', { body: { orderNumber, accessKey } })
  const answer = (await sandbox.razorpayPay(
    started.json.result.options.order_id,
    'succeed',
  )) as unknown as Record<string, string>
  const res = await call('/api/payment/razorpay/verify', { body: { orderNumber, ...answer } })
  expect(res.json.result.status).toBe('processing')
  const row = await env.DB.prepare('SELECT client_order_id FROM orders WHERE increment_id = ?')
    .bind(orderNumber)
    .first<{ client_order_id: string }>()
  return { orderNumber, orderId: row?.client_order_id as string }
}

const mailsTo = async (to: string) =>
  (
    await env.DB.prepare(
      'SELECT kind, subject, body, html FROM mail_outbox WHERE target_address = ? ORDER BY id',
    )
      .bind(to)
      .all<{ kind: string; subject: string; body: string; html: string | null }>()
  ).results
const CODE = /\b[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}\b/
const redeem = (bearer: string, code: string) => call('/api/giftcard/redeem', { body: { code }, bearer })

describe('e-gift cards for someone else', () => {
  it('refuses details that could not be delivered, in words', async () => {
    const cases: [Parameters<typeof giftOption>[0], RegExp][] = [
      [{ name: 'Meera', email: 'meera.example.com' }, /is not an e-mail address/],
      [{ email: 'meera@example.com' }, /add the recipient's name/],
      [{ name: 'Meera' }, /add the recipient's e-mail/],
      [{ name: 'Meera', email: 'meera@example.com', sendOn: '31-04-2027' }, /day-month-year, for example/],
      [{ name: 'Meera', email: 'meera@example.com', sendOn: shopDay(-2).typed }, /send date has passed/],
      [{ name: 'Meera', email: 'meera@example.com', sendOn: shopDay(400).typed }, /at most a year/],
      [{ name: 'Meera', email: 'meera@example.com', message: 'x'.repeat(251) }, /at most 250 characters/],
    ]
    for (const [details, words] of cases) {
      const res = await placeCard(details)
      expect(res.status, JSON.stringify(details)).toBe(400)
      expect(String(res.json.result)).toMatch(words)
    }
    expect(
      (await env.DB.prepare("SELECT COUNT(*) AS n FROM gift_cards WHERE sku = 'FX-EGIFT'").first())?.n,
    ).toBe(0)
  })

  it('mails the recipient on the chosen day at 09:00 India time, once; the buyer never sees the code', async () => {
    const to = `meera.${crypto.randomUUID()}@example.com`
    const when = shopDay(3)
    const { orderId } = await paidCard({
      name: 'Meera',
      email: to,
      message: 'Happy birthday, Meera!',
      sendOn: when.typed,
    })
    const card = await env.DB.prepare('SELECT * FROM gift_cards WHERE client_order_id = ?')
      .bind(orderId)
      .first<Record<string, unknown>>()
    const due = zonedWallToInstant(`${when.ymd}T09:00`, TZ) as number
    expect(card).toMatchObject({ recipient_email: to, send_on: when.ymd, send_at: due, sent_at: null })
    const buyerMail = (
      await env.DB.prepare("SELECT body FROM mail_outbox WHERE kind = 'gift-card' AND instr(body, ?) > 0")
        .bind(to)
        .first<{ body: string }>()
    )?.body as string
    expect(buyerMail).toContain(`for Meera, e-mailed to ${to} on`)
    expect(buyerMail).not.toMatch(CODE)
    expect(await mailsTo(to)).toEqual([])

    // A minute before the hour nothing goes; at the hour (the cron) the mail is written once.
    expect(await queueDueGiftCards(payEnv, readConfig(payEnv), due - 60_000)).toBe(0)
    await runCron(due)
    await runCron(due + 5 * 60_000)
    const sent = await mailsTo(to)
    expect(sent).toHaveLength(1)
    expect(sent[0]?.kind).toBe('gift-card-recipient')
    expect(sent[0]?.body).toContain('Dear Meera,')
    expect(sent[0]?.body).toContain('"Happy birthday, Meera!"')
    // The HTML part in the label's layout says the same, the code included.
    expect(sent[0]?.html).toMatch(/^<!doctype html>[\s\S]*Dear Meera,[\s\S]*“Happy birthday, Meera!”/)
    expect(sent[0]?.html).toContain((sent[0]?.body.match(CODE) ?? [])[0])
    const code = (sent[0]?.body.match(CODE) ?? [])[0] as string
    expect(code.slice(-4)).toBe(card?.code_last4)
    const after = await env.DB.prepare('SELECT pending_code, sent_at FROM gift_cards WHERE id = ?')
      .bind(card?.id)
      .first<{ pending_code: string | null; sent_at: string | null }>()
    expect(after?.pending_code).toBeNull()
    expect(after?.sent_at).not.toBeNull()

    // The recipient redeems it: its value becomes store credit once, through the ledger.
    const meera = await registerAndLogin('meera')
    const ok = await redeem(meera.token, code)
    expect(ok.status, JSON.stringify(ok.json)).toBe(200)
    expect(ok.json.result.credited * 100).toBe(card?.amount_minor)
    const ledger = await call('/api/giftcard/store-credit-transaction', { bearer: meera.token })
    expect(ledger.json.result.items).toHaveLength(1)
    expect(ledger.json.result.total_balance * 100).toBe(card?.amount_minor)
  })

  it('with no date the recipient is mailed as soon as the order is paid', async () => {
    const to = `ravi.${crypto.randomUUID()}@example.com`
    await paidCard({ name: 'Ravi', email: to })
    const sent = await mailsTo(to)
    expect(sent).toHaveLength(1)
    expect(sent[0]?.body).toMatch(CODE)
  })

  it('a card voided by a refund before its day is never mailed', async () => {
    const to = `zoya.${crypto.randomUUID()}@example.com`
    const when = shopDay(10)
    const { orderId } = await paidCard({ name: 'Zoya', email: to, sendOn: when.typed })
    const order = await env.DB.prepare('SELECT paid_minor FROM orders WHERE client_order_id = ?')
      .bind(orderId)
      .first<{ paid_minor: number }>()
    await refund(orderId, order?.paid_minor as number)
    expect(
      (await env.DB.prepare('SELECT status FROM gift_cards WHERE client_order_id = ?').bind(orderId).first())
        ?.status,
    ).toBe('void')
    await queueDueGiftCards(payEnv, readConfig(payEnv), Date.now() + 11 * DAY, orderId)
    expect(await mailsTo(to)).toEqual([])
    const card = await env.DB.prepare('SELECT pending_code FROM gift_cards WHERE client_order_id = ?')
      .bind(orderId)
      .first<{ pending_code: string | null }>()
    expect(card?.pending_code).toBeNull()
  })

  it("another shopper's redeemed code is answered as unknown; two racing shoppers are credited once", async () => {
    const to = `kabir.${crypto.randomUUID()}@example.com`
    await paidCard({ name: 'Kabir', email: to }, 2)
    const codes = (await mailsTo(to)).map((m) => (m.body.match(CODE) ?? [])[0] as string)
    expect(codes).toHaveLength(2)
    const [first, second] = codes as [string, string]
    const kabir = await registerAndLogin('kabir')
    const stranger = await registerAndLogin('stranger')
    expect((await redeem(kabir.token, first)).status).toBe(200)
    const unknown = await redeem(stranger.token, 'AAAA-BBBB-CCCC-DDDD')
    const taken = await redeem(stranger.token, first)
    expect(taken.status).toBe(unknown.status)
    expect(taken.json.result).toBe(unknown.json.result)
    const again = await redeem(kabir.token, first)
    expect(again.status).toBe(409)
    expect(again.json.result).toMatch(/already redeemed this gift card/)

    const race = await Promise.all([redeem(kabir.token, second), redeem(stranger.token, second)])
    expect(race.map((r) => r.status).sort()).toEqual([200, 404])
    const total = await env.DB.prepare(
      `SELECT (SELECT SUM(balance_minor) FROM store_credit WHERE customer_id IN (?1, ?2)) AS balance,
              (SELECT SUM(amount_minor) FROM store_credit_ledger WHERE customer_id IN (?1, ?2)) AS ledger,
              (SELECT SUM(amount_minor) FROM gift_cards WHERE recipient_email = ?3) AS face`,
    )
      .bind(kabir.id, stranger.id, to)
      .first<{ balance: number; ledger: number; face: number }>()
    expect(total?.balance).toBe(total?.face)
    expect(total?.ledger).toBe(total?.face)
  })
})
