// WhatsApp order messages against the local WhatsApp stand-in: consent, the COD confirmation by
// button, the webhook's handshake and signatures, statuses out of order and twice, STOP.
import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { WHATSAPP_SANDBOX_SECRETS } from '../../../scripts/whatsapp-sandbox/sandbox'
import { CONSENT_CHANGES_PER_HOUR } from '../../../worker/api/messages/routes'
import { whatsappNumber } from '../../../worker/messages/phone'
import { drainMessageOutbox } from '../../../worker/messages/send'
import { freshIp, registerAndLogin } from '../../helpers/user'
import { operator } from '../admin/operator'
import {
  buttonPress,
  deliverWa,
  freshPhone,
  msgEnv,
  outboxOf,
  placeFor,
  shopCall,
  shopPage,
  statusOf,
  wa,
  waHeld,
  withMessageStandIns,
} from './harness'

withMessageStandIns()

const e164 = (phone: string) => whatsappNumber(phone) as string

describe('consent', () => {
  it('sends nothing to a shopper who did not tick the box, and the COD confirmation to one who did', async () => {
    const quiet = freshPhone()
    const o1 = await placeFor(quiet, { optIn: false })
    expect(wa.inbox(e164(quiet))).toEqual([])
    expect(await outboxOf(o1.orderId)).toEqual([])

    const phone = freshPhone()
    const o2 = await placeFor(phone, { optIn: true })
    const inbox = wa.inbox(e164(phone))
    expect(inbox.map((m) => m.template)).toEqual(['cod_confirmation'])
    expect(inbox[0]?.text).toContain(o2.orderNumber)
    expect(inbox[0]?.buttons.map((b) => b.text)).toEqual(['Confirm', 'Cancel'])
    const [row] = await outboxOf(o2.orderId)
    expect(row?.status).toBe('sent')
    expect(row?.provider_message_id).toBe(inbox[0]?.id)
  })

  it('honours STOP: no later message goes out, and a message waiting for a retry dies unsent', async () => {
    const phone = freshPhone()
    const o = await placeFor(phone, { optIn: true, payment: 'cashondelivery' })
    wa.setUnreachable(e164(phone))
    // A message the provider refused for a while waits in the outbox for a retry…
    await env.DB.prepare(
      `UPDATE message_outbox SET status = 'failed', next_attempt_at = 0 WHERE client_order_id = ?`,
    )
      .bind(o.orderId)
      .run()
    wa.setUnreachable(e164(phone), false)
    waHeld.length = 0
    await wa.replyText(e164(phone), 'STOP')
    const [answer] = await deliverWa()
    expect(answer?.json.result.handled).toContain('opted-out')
    // …and the drain does not send it.
    await drainMessageOutbox(msgEnv, Date.now())
    const [row] = await outboxOf(o.orderId)
    expect(row?.status).toBe('dead')
    expect(row?.provider_response).toContain('opted out')
    expect(wa.inbox(e164(phone))).toHaveLength(1)
    // A new order from the same phone with the box unticked sends nothing either.
    await placeFor(phone, { optIn: false })
    expect(wa.inbox(e164(phone))).toHaveLength(1)
  })

  it('records the account switch for the signed-in shopper only, and bounds how often it changes', async () => {
    const anonymous = await shopCall('/api/messages/consent', { body: { phone: '9876500000', optIn: true } })
    expect(anonymous.status).toBe(401)
    const me = await registerAndLogin('wa')
    const phone = freshPhone()
    const bad = await shopCall('/api/messages/consent', {
      body: { phone: '12', optIn: true },
      bearer: me.token,
    })
    expect(bad.status).toBe(400)
    expect(bad.json.result).toContain('10 digits')
    const statuses: number[] = []
    for (let i = 0; i < CONSENT_CHANGES_PER_HOUR + 1; i++)
      statuses.push(
        (
          await shopCall('/api/messages/consent', {
            body: { phone, optIn: i % 2 === 0 },
            bearer: me.token,
            headers: { 'cf-connecting-ip': freshIp() },
          })
        ).status,
      )
    // The invalid number counted too: the per-account limit is reached one change earlier.
    expect(statuses.filter((s) => s === 200)).toHaveLength(CONSENT_CHANGES_PER_HOUR - 1)
    expect(statuses.slice(-2)).toEqual([429, 429])
    const row = await env.DB.prepare(
      'SELECT opted_in, source, customer_id FROM message_consent WHERE phone = ?',
    )
      .bind(e164(phone))
      .first()
    expect(row).toEqual({ opted_in: 1, source: 'account', customer_id: me.id })
    const prefs = await shopCall('/api/messages/preferences', { bearer: me.token })
    expect(prefs.json.result).toEqual({ whatsappPhones: [`+${e164(phone)}`], cartReminders: false })
  })
})

describe('COD confirmation from WhatsApp', () => {
  it('moves the order to processing when the shopper presses Confirm, once under a replay', async () => {
    const phone = freshPhone()
    const o = await placeFor(phone, { optIn: true })
    expect(await statusOf(o.orderId)).toBe('pending')
    const [message] = wa.inbox(e164(phone))
    waHeld.length = 0
    await wa.pressButton(message?.id as string, 0)
    const press = { ...(waHeld[0] as (typeof waHeld)[number]) }
    const [first] = await deliverWa()
    expect(first?.json.result.handled).toEqual(['confirmed'])
    expect(await statusOf(o.orderId)).toBe('processing')
    // The same signed notification again (Meta's retry, or a replay): nothing happens twice.
    const again = await shopCall('/api/messages/whatsapp/webhook', {
      rawBody: press.body,
      headers: press.headers,
    })
    expect(again.json.result.handled).toEqual(['duplicate'])
    const events = await env.DB.prepare(
      `SELECT COUNT(*) AS n FROM order_events WHERE client_order_id = ? AND to_status = 'processing'`,
    )
      .bind(o.orderId)
      .first<{ n: number }>()
    expect(events?.n).toBe(1)
  })

  it('cancels on Cancel (stock back), and refuses a button from another phone or for another order', async () => {
    const phone = freshPhone()
    const o = await placeFor(phone, { optIn: true })
    const other = await placeFor(freshPhone(), { optIn: true })
    const [message] = wa.inbox(e164(phone))
    const confirmPayload = message?.buttons[0]?.payload as string
    // Another order's number under this mac: not a payload the shop sent.
    const forged = confirmPayload.replace(o.orderNumber, other.orderNumber)
    const intruder = freshPhone()
    const body = (from: string, payload: string, id: string) =>
      JSON.stringify(buttonPress(from, id, { payload, text: 'Confirm' }))
    const sign = async (raw: string) => {
      const key = await crypto.subtle.importKey(
        'raw',
        new TextEncoder().encode(WHATSAPP_SANDBOX_SECRETS.appSecret),
        { name: 'HMAC', hash: 'SHA-256' },
        false,
        ['sign'],
      )
      const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(raw)))
      return `sha256=${[...mac].map((b) => b.toString(16).padStart(2, '0')).join('')}`
    }
    for (const [from, payload, expected] of [
      [e164(intruder), confirmPayload, 'not-this-phone'],
      [e164(phone), forged, 'unknown-button'],
    ] as const) {
      const raw = body(from, payload, `wamid.in.${from}.${payload.length}`)
      const res = await shopCall('/api/messages/whatsapp/webhook', {
        rawBody: raw,
        headers: { 'x-hub-signature-256': await sign(raw) },
      })
      expect(res.json.result.handled).toEqual([expected])
    }
    expect(await statusOf(o.orderId)).toBe('pending')
    expect(await statusOf(other.orderId)).toBe('pending')
    waHeld.length = 0
    await wa.pressButton(message?.id as string, 1)
    const [answer] = await deliverWa()
    expect(answer?.json.result.handled).toEqual(['canceled'])
    expect(await statusOf(o.orderId)).toBe('canceled')
  })
})

describe('the webhook', () => {
  it('answers the verification handshake only with the verify token', async () => {
    const good = await wa.verifyShop()
    expect(good).toBe('verified')
    const bad = await shopCall(
      '/api/messages/whatsapp/webhook?hub.mode=subscribe&hub.verify_token=guess&hub.challenge=42',
    ).catch((e) => e)
    expect(bad.status ?? 403).toBe(403)
  })

  it('refuses a wrong signature, a missing one and a re-serialised body', async () => {
    const phone = freshPhone()
    await placeFor(phone, { optIn: true })
    await wa.replyText(e164(phone), 'STOP — ₹ “please”')
    const w = waHeld.pop() as (typeof waHeld)[number]
    const wrong = await shopCall('/api/messages/whatsapp/webhook', {
      rawBody: w.body,
      headers: { 'x-hub-signature-256': `sha256=${'0'.repeat(64)}` },
    })
    expect(wrong.status).toBe(401)
    const missing = await shopCall('/api/messages/whatsapp/webhook', { rawBody: w.body })
    expect(missing.status).toBe(401)
    // The same JSON written again with its non-ASCII characters escaped: the bytes differ.
    const reserialised = JSON.stringify(JSON.parse(w.body)).replace(
      /[\u007f-\uffff]/g,
      (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
    )
    expect(reserialised).not.toBe(w.body)
    const res = await shopCall('/api/messages/whatsapp/webhook', {
      rawBody: reserialised,
      headers: w.headers,
    })
    expect(res.status).toBe(401)
    const genuine = await shopCall('/api/messages/whatsapp/webhook', { rawBody: w.body, headers: w.headers })
    expect(genuine.status).toBe(200)
  })

  it('keeps the furthest status of a message, whatever order and however often statuses come', async () => {
    const phone = freshPhone()
    const o = await placeFor(phone, { optIn: true })
    const [message] = wa.inbox(e164(phone))
    const id = message?.id as string
    waHeld.length = 0
    await wa.status(id, 'sent')
    await wa.status(id, 'delivered')
    await wa.status(id, 'read')
    const [sent, delivered, read] = waHeld.splice(0)
    const deliver = async (w: typeof sent) =>
      (await shopCall('/api/messages/whatsapp/webhook', { rawBody: w?.body, headers: w?.headers })).json
        .result.handled[0]
    // read arrives first, then delivered twice, then sent: read stays.
    expect(await deliver(read)).toBe('status:read')
    expect(await deliver(delivered)).toBe('status:kept')
    expect(await deliver(delivered)).toBe('status:kept')
    expect(await deliver(sent)).toBe('status:kept')
    expect((await outboxOf(o.orderId))[0]?.delivery_status).toBe('read')
    // failed after delivered does not undo it; delivered after failed proves it arrived.
    const phone2 = freshPhone()
    const o2 = await placeFor(phone2, { optIn: true })
    const id2 = wa.inbox(e164(phone2))[0]?.id as string
    waHeld.length = 0
    await wa.status(id2, 'failed')
    await wa.status(id2, 'delivered')
    const [failed, delivered2] = waHeld.splice(0)
    expect(await deliver(failed)).toBe('status:failed')
    expect(await deliver(delivered2)).toBe('status:delivered')
    expect(await deliver(failed)).toBe('status:kept')
    expect((await outboxOf(o2.orderId))[0]?.delivery_status).toBe('delivered')
  })
})

describe('phone numbers', () => {
  it('reads Indian mobile numbers as WhatsApp addresses them and refuses the rest', () => {
    expect(whatsappNumber('+91 98765-43210')).toBe('919876543210')
    expect(whatsappNumber('09876543210')).toBe('919876543210')
    expect(whatsappNumber('919876543210')).toBe('919876543210')
    expect(whatsappNumber('12345')).toBeNull()
    expect(whatsappNumber('5876543210')).toBeNull()
    expect(whatsappNumber('98765432<script>')).toBeNull()
    expect(whatsappNumber(freshIp())).toBeNull()
  })
})

describe('COD confirmation by the signed mail link', () => {
  const linkIn = async (orderNumber: string) => {
    const mail = await env.DB.prepare(
      `SELECT body FROM mail_outbox WHERE kind = 'order-placed' AND subject LIKE '%' || ? ORDER BY id DESC LIMIT 1`,
    )
      .bind(orderNumber)
      .first<{ body: string }>()
    const url = new URL(mail?.body.match(/Confirm it \(or cancel it\) here: (\S+)/)?.[1] as string)
    return { path: url.pathname, token: url.searchParams.get('t') as string }
  }

  it('shows a page whose button confirms the order once; a GET alone changes nothing', async () => {
    const o = await placeFor(freshPhone(), { optIn: false })
    const link = await linkIn(o.orderNumber)
    const page = await shopPage(`${link.path}?t=${link.token}`)
    expect(page.status).toBe(200)
    expect(page.text).toContain('Confirm my order')
    expect(await statusOf(o.orderId)).toBe('pending')
    const done = await shopPage(link.path, { t: link.token, action: 'confirm' })
    expect(done.text).toContain(`Order ${o.orderNumber} is confirmed`)
    expect(await statusOf(o.orderId)).toBe('processing')
    const again = await shopPage(link.path, { t: link.token, action: 'cancel' })
    expect(again.text).toContain('already confirmed')
    expect(await statusOf(o.orderId)).toBe('processing')
  })

  it("refuses a forged token and another order's token, in words", async () => {
    const a = await placeFor(freshPhone(), { optIn: false })
    const b = await placeFor(freshPhone(), { optIn: false })
    const link = await linkIn(a.orderNumber)
    const other = await shopPage(`/api/messages/cod/${b.orderNumber}`, { t: link.token, action: 'confirm' })
    expect(other.status).toBe(403)
    expect(other.text).toContain('This link no longer works')
    const forged = await shopPage(link.path, { t: `${link.token.slice(0, -4)}AAAA`, action: 'confirm' })
    expect(forged.status).toBe(403)
    expect(await statusOf(a.orderId)).toBe('pending')
    expect(await statusOf(b.orderId)).toBe('pending')
  })
})

describe('the back office', () => {
  it("shows a pending COD order's confirmation channels and its WhatsApp messages", async () => {
    const ops = await operator('staff')
    const phone = freshPhone()
    const o = await placeFor(phone, { optIn: true })
    const quiet = await placeFor(freshPhone(), { optIn: false })
    const page = async (n: string) =>
      (await SELF.fetch(`https://shop.test/admin/orders/${n}`, { headers: { cookie: ops.cookie } })).text()
    const html = await page(o.orderNumber)
    expect(html).toContain(`confirm from WhatsApp (+${e164(phone)}): the confirmation is sent`)
    expect(html).toMatch(/cod_confirmation \(sent, \d+ \w+ \d{4}, /)
    expect(await page(quiet.orderNumber)).toContain('did not opt in to WhatsApp')
  })
})
