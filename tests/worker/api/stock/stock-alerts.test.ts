// "Notify me": what is stored, the limits, and the double opt-in of the address.
import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { signJws, tokenSecret } from '../../../../worker/api/auth/tokens'
import {
  CONFIRM_LINK_TTL_DAYS,
  CONFIRM_MAILS_PER_ADDRESS,
  MSG_BAD_CONFIRM_LINK,
} from '../../../../worker/api/stock-alerts/confirm'
import { mailBackInStock } from '../../../../worker/api/stock-alerts/notify'
import app from '../../../../worker/app'
import { readConfig } from '../../../../worker/platform/env'
import { followLink } from '../../../helpers/user'
import { confirmLinkOf } from './confirm-link'

let ipCounter = 0
/** A fresh client address per call unless one is given (the per-address limit is tested on its own). */
function post(body: unknown, ip = `198.51.100.${++ipCounter}`, raw?: string) {
  return SELF.fetch('https://shop.test/api/stock-alerts', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': ip },
    body: raw ?? JSON.stringify(body),
  })
}

async function skuWhere(inStock: boolean): Promise<string> {
  const row = await env.DB.prepare(
    `SELECT sku FROM inventory WHERE ${inStock ? 'qty > 0 AND is_in_stock = 1' : 'qty = 0'} ORDER BY sku LIMIT 1`,
  ).first<{ sku: string }>()
  if (!row) throw new Error('no such sku in the demo catalogue')
  return row.sku
}

async function alerts(sku: string) {
  const rows = await env.DB.prepare('SELECT email, sku, parent_sku FROM stock_alerts WHERE sku = ?')
    .bind(sku)
    .all<{ email: string; sku: string; parent_sku: string | null }>()
  return rows.results
}

describe('POST /api/stock-alerts ("Notify me")', () => {
  it('stores an address once for an out-of-stock sku; asking again is the same answer', async () => {
    const sku = await skuWhere(false)
    const first = await post({ email: 'Asha@Example.com ', sku })
    expect(first.status).toBe(200)
    expect(await first.json()).toMatchObject({ code: 200, result: { sku, subscribed: true } })
    const again = await post({ email: 'asha@example.com', sku })
    expect(again.status).toBe(200)
    const rows = await alerts(sku)
    expect(rows).toHaveLength(1)
    expect(rows[0]?.email).toBe('asha@example.com')
  })

  it('refuses a sku that is in stock (it can be ordered) and an unknown one, writing nothing', async () => {
    const inStock = await skuWhere(true)
    const res = await post({ email: 'b@example.com', sku: inStock })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { result: string }).result).toBe(
      `Invalid stock alert: sku: ${inStock} is in stock, so it can be ordered now`,
    )
    expect(await alerts(inStock)).toHaveLength(0)
    const unknown = await post({ email: 'b@example.com', sku: 'NO-SUCH-SKU' })
    expect(unknown.status).toBe(404)
    expect(await alerts('NO-SUCH-SKU')).toHaveLength(0)
  })

  it('answers bad input with a 400 naming the field', async () => {
    const sku = await skuWhere(false)
    const cases: Array<[unknown, RegExp]> = [
      [{ email: 'not-an-address', sku }, /^Invalid stock alert: email: /],
      [{ email: 'a@example.com' }, /^Invalid stock alert: sku: /],
      [{ email: 'a@example.com', sku: "X' OR '1'='1" }, /^Invalid stock alert: sku: /],
      [{ email: `${'a'.repeat(250)}@example.com`, sku }, /^Invalid stock alert: email: email is too long/],
      [{ email: ['a@example.com'], sku }, /^Invalid stock alert: email: /],
    ]
    for (const [body, message] of cases) {
      const res = await post(body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(((await res.json()) as { result: string }).result).toMatch(message)
    }
    const malformed = await post(null, undefined, '{"email":')
    expect(malformed.status).toBe(400)
    expect(((await malformed.json()) as { result: string }).result).toBe(
      'Invalid stock alert: malformed JSON',
    )
  })

  it('limits requests per network address before writing anything (429 naming the limit)', async () => {
    const sku = await skuWhere(false)
    const ip = '203.0.113.77'
    for (let i = 0; i < 10; i++)
      expect((await post({ email: `n${i}@example.com`, sku }, ip)).status).toBe(200)
    const over = await post({ email: 'late@example.com', sku }, ip)
    expect(over.status).toBe(429)
    expect(((await over.json()) as { result: string }).result).toMatch(/at most 10 per network address/)
    expect((await alerts(sku)).some((r) => r.email === 'late@example.com')).toBe(false)
  })
})

describe('double opt-in', () => {
  const confirmMails = async (email: string) =>
    (
      await env.DB.prepare(
        "SELECT subject, body FROM mail_outbox WHERE kind = 'stock-alert-confirm' AND target_address = ? ORDER BY id",
      )
        .bind(email)
        .all<{ subject: string; body: string }>()
    ).results
  const confirmed = async (email: string) =>
    (await env.DB.prepare('SELECT 1 AS yes FROM stock_alert_addresses WHERE email = ?')
      .bind(email)
      .first()) !== null
  const restockAndMail = async (sku: string) => {
    await env.DB.prepare('UPDATE inventory SET qty = 4, is_in_stock = 1 WHERE sku = ?').bind(sku).run()
    return mailBackInStock(env, Date.now(), { skus: [sku] })
  }
  const soldOutSkus = async (n: number, offset: number) => {
    const { results } = await env.DB.prepare(
      `SELECT min(i.sku) AS sku FROM inventory i JOIN products p ON p.sku = coalesce(i.parent_sku, i.sku)
       WHERE p.status = 1 AND i.manage_stock = 1 GROUP BY p.id ORDER BY p.id LIMIT ?1 OFFSET ?2`,
    )
      .bind(n, offset)
      .all<{ sku: string }>()
    for (const r of results)
      await env.DB.prepare('UPDATE inventory SET qty = 0, backorders = 0 WHERE sku = ?').bind(r.sku).run()
    return results.map((r) => r.sku)
  }

  it('mails a new address a confirmation with only the shop’s words, and no back-in-stock mail until it confirms', async () => {
    const [sku] = (await soldOutSkus(1, 200)) as [string]
    const email = 'optin@example.com'
    expect((await post({ email, sku })).status).toBe(200)
    const link = await confirmLinkOf(email)
    const [mail] = await confirmMails(email)
    expect(mail?.subject).toBe(`${readConfig(env).STORE_NAME}: please confirm back-in-stock mail`)
    expect(mail?.body).toContain(`${readConfig(env).PUBLIC_ORIGIN}/api/stock-alerts/confirm?key=`)
    // Back in stock before the address confirmed: nothing is mailed, the alert keeps waiting.
    expect((await restockAndMail(sku)).mailed).toBe(0)
    await env.DB.prepare('UPDATE inventory SET qty = 0 WHERE sku = ?').bind(sku).run()
    // Opening the link (a mail scanner does) only shows a page.
    const page = await followLink(link, 'page')
    expect(page.status).toBe(200)
    expect(page.text).toContain('Yes, send me back-in-stock mail')
    expect(await confirmed(email)).toBe(false)
    const pressed = await followLink(link, 'form')
    expect(pressed.status).toBe(200)
    expect(pressed.text).toContain('Back-in-stock mail confirmed')
    expect(await confirmed(email)).toBe(true)
    expect((await restockAndMail(sku)).mailed).toBe(1)
  })

  it(`sends at most ${CONFIRM_MAILS_PER_ADDRESS} confirmation mails to one address a day, however many ask; one link confirms every alert`, async () => {
    const skus = await soldOutSkus(CONFIRM_MAILS_PER_ADDRESS + 2, 210)
    const email = 'flooded@example.com'
    // Each request with the work it does after its answer (the mail) finished.
    for (const sku of skus) {
      const ctx = createExecutionContext()
      const res = await app.fetch(
        new Request('https://shop.test/api/stock-alerts', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'cf-connecting-ip': `198.51.100.${++ipCounter}` },
          body: JSON.stringify({ email, sku }),
        }),
        env,
        ctx,
      )
      expect(res.status).toBe(200)
      await waitOnExecutionContext(ctx)
    }
    expect(await confirmMails(email)).toHaveLength(CONFIRM_MAILS_PER_ADDRESS)
    const res = await followLink(await confirmLinkOf(email), 'json')
    expect(res.status).toBe(200)
    for (const sku of skus) expect((await restockAndMail(sku)).mailed).toBe(1)
  })

  it('answers alike for an address that confirmed and one that did not', async () => {
    const [a, b] = (await soldOutSkus(2, 220)) as [string, string]
    await env.DB.prepare('INSERT INTO stock_alert_addresses (email, confirmed_at) VALUES (?, ?)')
      .bind('known@example.com', Date.now())
      .run()
    const known = await (await post({ email: 'known@example.com', sku: a })).json()
    const fresh = await (await post({ email: 'fresh@example.com', sku: b })).json()
    expect({ ...(known as object), meta: undefined }).toEqual({
      ...(fresh as object),
      meta: undefined,
      result: { sku: a, subscribed: true },
    })
    await confirmLinkOf('fresh@example.com')
    expect(await confirmMails('known@example.com')).toHaveLength(0)
  })

  it('refuses an edited, foreign or expired confirmation key and confirms nothing', async () => {
    const [sku] = (await soldOutSkus(1, 230)) as [string]
    expect((await post({ email: 'target@example.com', sku })).status).toBe(200)
    const link = await confirmLinkOf('target@example.com')
    const key = new URL(link).searchParams.get('key') as string
    const claims = JSON.parse(atob((key.split('.')[1] as string).replace(/-/g, '+').replace(/_/g, '/')))
    const secret = tokenSecret(env, readConfig(env))
    const now = Math.floor(Date.now() / 1000)
    const at = (k: string) => `${readConfig(env).PUBLIC_ORIGIN}/api/stock-alerts/confirm?key=${k}`
    for (const bad of [
      at(`${key.slice(0, -2)}${key.endsWith('AA') ? 'BB' : 'AA'}`),
      at(await signJws(secret, { ...claims, typ: 'newsletter-confirm' })),
      at(await signJws(secret, { ...claims, iat: now - 8 * 86400, exp: now - 86400 })),
      at(await signJws(secret, { ...claims, exp: undefined })),
      at('not-a-token'),
    ]) {
      const res = await followLink(bad, 'json')
      expect(res.status, bad).toBe(400)
      expect(JSON.parse(res.text).result).toBe(MSG_BAD_CONFIRM_LINK)
    }
    expect(await confirmed('target@example.com')).toBe(false)
  })

  it(`lets alerts nobody confirmed lapse after ${CONFIRM_LINK_TTL_DAYS} days, and "stop all" takes the confirmation back`, async () => {
    const [sku, later] = (await soldOutSkus(2, 240)) as [string, string]
    expect((await post({ email: 'quiet@example.com', sku })).status).toBe(200)
    await confirmLinkOf('quiet@example.com')
    const run = await mailBackInStock(env, Date.now() + (CONFIRM_LINK_TTL_DAYS + 1) * 86_400_000)
    expect(run.lapsed).toBeGreaterThanOrEqual(1)
    expect(await alerts(sku)).toEqual([])

    // A confirmed address that stops all back-in-stock mail must confirm again before any more.
    await env.DB.prepare('INSERT INTO stock_alert_addresses (email, confirmed_at) VALUES (?, ?)')
      .bind('leaver@example.com', Date.now())
      .run()
    expect((await post({ email: 'leaver@example.com', sku })).status).toBe(200)
    const mailed = await restockAndMail(sku)
    expect(mailed.mailed).toBe(1)
    const mail = await env.DB.prepare(
      "SELECT body FROM mail_outbox WHERE kind = 'back-in-stock' AND target_address = 'leaver@example.com'",
    ).first<{ body: string }>()
    const unsubscribe = mail?.body.match(/https?:\/\/\S+\/api\/stock-alerts\/unsubscribe\?key=\S+/)?.[0] ?? ''
    const stop = await followLink(unsubscribe, 'json', '{"scope":"all"}')
    expect(stop.status).toBe(200)
    expect(await confirmed('leaver@example.com')).toBe(false)
    expect((await post({ email: 'leaver@example.com', sku: later })).status).toBe(200)
    expect((await restockAndMail(later)).mailed).toBe(0)
  })
})
