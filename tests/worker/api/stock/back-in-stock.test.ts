// Back-in-stock mail: a shopper who asked "Notify me" (and confirmed the address) gets exactly one
// mail, through the mail outbox, once the sku is sellable again, linking to the product; two runs
// racing never mail an alert twice; nobody's inbox can be flooded (waiting alerts per address,
// mails per address a day); alerts lapse; the Cron Trigger runs the job before the outbox drain, so
// the mail goes out at once.
import { env, SELF } from 'cloudflare:test'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { signJws, tokenSecret } from '../../../../worker/api/auth/tokens'
import {
  ALERT_TTL_DAYS,
  MAILS_PER_ADDRESS_PER_DAY,
  mailBackInStock,
} from '../../../../worker/api/stock-alerts/notify'
import { MSG_BAD_ALERT_LINK } from '../../../../worker/api/stock-alerts/unsubscribe'
import { readConfig } from '../../../../worker/platform/env'
import { placeScarves, seedCartFixtures, stockOf } from '../../../helpers/cart-fixtures'
import { runCron } from '../../../helpers/in-isolate'
import { followLink as follow } from '../../../helpers/user'
import { admin, operator } from '../../admin/operator'
import { MAIL_API_URL, mailApiStandIn } from '../mail/mail-provider-stand-in'
import { confirmAddress } from './confirm-link'

let ipCounter = 0
/** "Notify me" for `sku`; the first time for an address, its confirmation link is followed too. */
async function ask(email: string, sku: string) {
  const res = await SELF.fetch('https://shop.test/api/stock-alerts', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': `203.0.113.${++ipCounter % 250}` },
    body: JSON.stringify({ email, sku }),
  })
  const answer = { status: res.status, body: (await res.json()) as { result: unknown } }
  if (answer.status === 200) await confirmAddress(email)
  return answer
}

interface Sku {
  sku: string
  product_sku: string
  name: string
  url_path: string
}

/** `n` counted skus of enabled products (one per product), each made sold out for the test. */
async function soldOut(n: number, offset = 0): Promise<Sku[]> {
  const { results } = await env.DB.prepare(
    `SELECT min(i.sku) AS sku, p.sku AS product_sku, p.name, p.url_path FROM inventory i JOIN products p ON p.sku = coalesce(i.parent_sku, i.sku)
     WHERE p.status = 1 AND i.manage_stock = 1
       AND (i.parent_sku IS NULL OR EXISTS (SELECT 1 FROM json_each(p.doc, '$.configurable_children') c
         WHERE json_extract(c.value, '$.sku') = i.sku AND coalesce(json_extract(c.value, '$.status'), 1) = 1))
     GROUP BY p.id ORDER BY p.id LIMIT ?1 OFFSET ?2`,
  )
    .bind(n, offset)
    .all<Sku>()
  expect(results).toHaveLength(n)
  for (const r of results)
    await env.DB.prepare('UPDATE inventory SET qty = 0, backorders = 0 WHERE sku = ?').bind(r.sku).run()
  return results
}

const restock = (sku: string) =>
  env.DB.prepare('UPDATE inventory SET qty = 4, is_in_stock = 1 WHERE sku = ?').bind(sku).run()

async function mailsTo(email: string) {
  const { results } = await env.DB.prepare(
    "SELECT target_address, subject, body, status FROM mail_outbox WHERE kind = 'back-in-stock' AND target_address = ?",
  )
    .bind(email)
    .all<{ target_address: string; subject: string; body: string; status: string }>()
  return results
}

beforeEach(async () => {
  await env.DB.prepare('DELETE FROM stock_alerts').run()
  await env.DB.prepare('DELETE FROM stock_alert_addresses').run()
  await env.DB.prepare('DELETE FROM mail_outbox').run()
})
afterEach(() => vi.restoreAllMocks())

describe('back-in-stock mail', () => {
  it('mails each waiting address once when the sku is back, never twice when two runs race', async () => {
    const [item] = (await soldOut(1, 3)) as [Sku]
    for (const who of ['asha@example.com', 'ravi@example.com'])
      expect((await ask(who, item.sku)).status).toBe(200)
    const now = Date.now()
    // Still sold out: nothing is sent.
    expect(await mailBackInStock(env, now)).toMatchObject({ checked: 1, back: 0, mailed: 0 })
    expect(await mailsTo('asha@example.com')).toHaveLength(0)

    await restock(item.sku)
    const runs = await Promise.all([mailBackInStock(env, now + 1), mailBackInStock(env, now + 1)])
    expect(runs.reduce((sum, r) => sum + r.mailed, 0)).toBe(2)
    for (const who of ['asha@example.com', 'ravi@example.com']) {
      const mails = await mailsTo(who)
      expect(mails).toHaveLength(1)
      expect(mails[0]?.subject).toMatch(/ is back in stock$/)
      expect(mails[0]?.body).toContain(`/${item.url_path}`)
      expect(mails[0]?.status).toBe('queued')
    }
    const waiting = await env.DB.prepare(
      'SELECT count(*) AS n FROM stock_alerts WHERE notified_at IS NULL',
    ).first('n')
    expect(waiting).toBe(0)
    // Later runs find nothing more to send.
    expect((await mailBackInStock(env, now + 2)).mailed).toBe(0)
    expect(await mailsTo('asha@example.com')).toHaveLength(1)
  })

  it('sends at most the daily number of mails to one address; the rest go out the next day', async () => {
    const items = await soldOut(MAILS_PER_ADDRESS_PER_DAY + 2, 10)
    for (const item of items) expect((await ask('many@example.com', item.sku)).status).toBe(200)
    for (const item of items) await restock(item.sku)
    const now = Date.now()
    expect((await mailBackInStock(env, now)).mailed).toBe(MAILS_PER_ADDRESS_PER_DAY)
    expect((await mailBackInStock(env, now + 60_000)).mailed).toBe(0)
    expect(await mailsTo('many@example.com')).toHaveLength(MAILS_PER_ADDRESS_PER_DAY)
    expect((await mailBackInStock(env, now + 25 * 3600_000)).mailed).toBe(2)
    expect(await mailsTo('many@example.com')).toHaveLength(MAILS_PER_ADDRESS_PER_DAY + 2)
  })

  it('bounds the alerts an address may have waiting, and lets a mailed alert be asked for again', async () => {
    const items = await soldOut(21, 30)
    // Twenty alerts made over earlier days (one address may ask 20 times a day).
    const earlier = Date.now() - 3 * 24 * 3600_000
    for (const item of items.slice(0, 20))
      await env.DB.prepare('INSERT INTO stock_alerts (email, sku, created_at) VALUES (?, ?, ?)')
        .bind('bomb@example.com', item.sku, earlier)
        .run()
    const refused = await ask('bomb@example.com', (items[20] as Sku).sku)
    expect(refused.status).toBe(409)
    expect(String(refused.body.result)).toMatch(/already waits for 20 products/)
    const rows = await env.DB.prepare(
      "SELECT count(*) AS n FROM stock_alerts WHERE email = 'bomb@example.com'",
    ).first('n')
    expect(rows).toBe(20)
    // Asking again for one already waiting is the same answer as the first time.
    expect((await ask('bomb@example.com', (items[0] as Sku).sku)).status).toBe(200)

    // Mailed, then sold out again: asking again arms the alert for one more mail.
    const first = items[0] as Sku
    await restock(first.sku)
    expect((await mailBackInStock(env, Date.now())).mailed).toBe(1)
    await env.DB.prepare('UPDATE inventory SET qty = 0 WHERE sku = ?').bind(first.sku).run()
    expect((await ask('bomb@example.com', first.sku)).status).toBe(200)
    await restock(first.sku)
    expect((await mailBackInStock(env, Date.now() + 25 * 3600_000)).mailed).toBe(1)
    expect(
      (await mailsTo('bomb@example.com')).filter((m) => m.body.includes(`/${first.url_path}`)),
    ).toHaveLength(2)
  })

  it('lets alerts lapse, drops those of a product that is gone, and skips a disabled product', async () => {
    const [old, gone, off] = (await soldOut(3, 60)) as [Sku, Sku, Sku]
    for (const item of [old, gone, off]) expect((await ask('lapse@example.com', item.sku)).status).toBe(200)
    const now = Date.now()
    await env.DB.prepare('UPDATE stock_alerts SET created_at = ? WHERE sku = ?')
      .bind(now - (ALERT_TTL_DAYS + 1) * 24 * 3600_000, old.sku)
      .run()
    await env.DB.prepare('DELETE FROM products WHERE sku = ?').bind(gone.product_sku).run()
    await env.DB.prepare("UPDATE products SET status = 2, doc = json_set(doc, '$.status', 2) WHERE sku = ?")
      .bind(off.product_sku)
      .run()
    for (const item of [old, gone, off]) await restock(item.sku)
    const run = await mailBackInStock(env, now)
    expect(run).toMatchObject({ lapsed: 1, mailed: 0 })
    const left = await env.DB.prepare("SELECT sku FROM stock_alerts WHERE email = 'lapse@example.com'").all<{
      sku: string
    }>()
    expect(left.results.map((r) => r.sku)).toEqual([off.sku])
  })

  it('runs on the Cron Trigger before the drain, so the mail reaches the provider on the same run', async () => {
    const [item] = (await soldOut(1, 70)) as [Sku]
    expect((await ask('cron@example.com', item.sku)).status).toBe(200)
    await restock(item.sku)
    const standIn = mailApiStandIn('stock-key')
    const real = globalThis.fetch
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const req = new Request(input, init)
      return req.url === MAIL_API_URL ? standIn.fetch(req) : real(input, init)
    })
    vi.spyOn(console, 'log').mockImplementation(() => {})
    await runCron(Date.now(), {
      ...env,
      MAIL_PROVIDER_URL: MAIL_API_URL,
      MAIL_PROVIDER_KEY: 'stock-key',
    } as Env)
    // (Confirmation mails still queued go out on the same drain; only the back-in-stock one counts here.)
    const sent = standIn.accepted.filter((m) => m.subject.endsWith(' is back in stock'))
    expect(sent.map((m) => m.to)).toEqual(['cron@example.com'])
    expect(sent[0]?.text).toContain(`/${item.url_path}`)
    expect((await mailsTo('cron@example.com'))[0]?.status).toBe('sent')
    // The mail names its unsubscribe link in the headers a mail client's one-click button uses.
    const { headers } = sent[0] as unknown as { headers: Record<string, string> }
    const link = /^<(.+)>$/.exec(headers['List-Unsubscribe'] ?? '')?.[1] ?? ''
    expect(link.startsWith(`${readConfig(env).PUBLIC_ORIGIN}/api/stock-alerts/unsubscribe?key=`)).toBe(true)
    expect(sent[0]?.text).toContain(link)
    expect(headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click')
  })

  it('mails the waiting shoppers at once when an operator puts the stock back', async () => {
    const [item] = (await soldOut(1, 80)) as [Sku]
    expect((await ask('restock@example.com', item.sku)).status).toBe(200)
    const staff = await operator('staff')
    const res = await admin(staff, `/api/stock/${encodeURIComponent(item.sku)}`, {
      body: { qty: 3, is_in_stock: true },
    })
    expect(res.status, res.text).toBe(200)
    // The mail is queued right after the answer, not on the next scheduled run.
    await expect.poll(() => mailsTo('restock@example.com'), { timeout: 3000, interval: 100 }).toHaveLength(1)
    expect((await mailsTo('restock@example.com'))[0]?.body).toContain(`/${item.url_path}`)
  })

  it('mails the waiting shoppers at once when an operator cancels an order and its stock comes back', async () => {
    await seedCartFixtures()
    await env.DB.prepare(
      "UPDATE inventory SET qty = 2, is_in_stock = 1, backorders = 0 WHERE sku = 'FX-SCARF'",
    ).run()
    const { number } = await placeScarves({ qty: 2, email: 'buyer@example.com' })
    expect(await stockOf('FX-SCARF')).toBe(0)
    expect((await ask('scarf@example.com', 'FX-SCARF')).status).toBe(200)
    const staff = await operator('staff')
    const res = await admin(staff, `/api/orders/${number}/transition`, {
      body: { to: 'canceled', reason: 'customer asked' },
    })
    expect(res.status, res.text).toBe(200)
    expect(await stockOf('FX-SCARF')).toBe(2)
    // Queued right after the answer, not on the next scheduled run.
    await expect.poll(() => mailsTo('scarf@example.com'), { timeout: 3000, interval: 100 }).toHaveLength(1)
    expect((await mailsTo('scarf@example.com'))[0]?.subject).toBe('Silk Scarf is back in stock')
  })
})

const ORIGIN = readConfig(env).PUBLIC_ORIGIN

/** The waiting alerts of an address, by sku. */
async function alertsOf(email: string) {
  const { results } = await env.DB.prepare('SELECT sku FROM stock_alerts WHERE email = ? ORDER BY sku')
    .bind(email)
    .all<{ sku: string }>()
  return results.map((r) => r.sku)
}

/** Three sold-out skus `email` waits for; the first comes back and is mailed. Returns the mail's link. */
async function mailedAlert(email: string, offset: number) {
  const items = await soldOut(3, offset)
  for (const item of items) expect((await ask(email, item.sku)).status).toBe(200)
  await restock((items[0] as Sku).sku)
  expect((await mailBackInStock(env, Date.now(), { skus: [(items[0] as Sku).sku] })).mailed).toBe(1)
  const [mail] = await mailsTo(email)
  const link = mail?.body.match(/https?:\/\/\S+\/api\/stock-alerts\/unsubscribe\?key=\S+/)?.[0] as string
  expect(link, mail?.body).toBeTruthy()
  return {
    link,
    items: items.map((i) => i.sku).sort(),
    name: mail?.subject.replace(/ is back in stock$/, '') ?? '',
  }
}

describe('leaving back-in-stock mail from its link', () => {
  it('each mail links (from the public origin) to a page that removes that alert only when its button is pressed', async () => {
    const { link, items, name: mailedName } = await mailedAlert('leave@example.com', 90)
    const other = await mailedAlert('other@example.com', 90)
    expect(link.startsWith(`${ORIGIN}/api/stock-alerts/unsubscribe?key=`)).toBe(true)
    const opened = await follow(link, 'page')
    expect(opened.status).toBe(200)
    expect(opened.type).toMatch(/text\/html/)
    expect(opened.text).toContain('Stop all back-in-stock mail')
    // It names the product the alert was for.
    expect(opened.text).toContain(`Remove the alert for ${escapeHtml(mailedName)} sent to leave@example.com`)
    // Opening the link (as a mail scanner does) changes nothing.
    expect(await alertsOf('leave@example.com')).toEqual(items)
    const removed = await follow(link, 'form', 'scope=alert')
    expect(removed.status).toBe(200)
    expect(removed.text).toContain('Alert removed')
    const mailedSku = (await soldOutSkuOf(link)) as string
    expect(await alertsOf('leave@example.com')).toEqual(items.filter((s) => s !== mailedSku))
    // Pressing it again says so and changes nothing more; the other shopper keeps every alert.
    const again = await follow(link, 'form', 'scope=alert')
    expect(again.status).toBe(200)
    expect(again.text).toContain('already removed')
    expect(await alertsOf('other@example.com')).toEqual(other.items)
  })

  it("a mail client's one-click unsubscribe removes the alert; 'stop all' removes every alert of that address only", async () => {
    const { link, items } = await mailedAlert('oneclick@example.com', 100)
    const other = await mailedAlert('bystander@example.com', 100)
    // A mail client's one-click request: a multipart form with List-Unsubscribe=One-Click only.
    const body = new FormData()
    body.set('List-Unsubscribe', 'One-Click')
    const oneClick = await SELF.fetch(link.replace(ORIGIN, 'https://shop.test'), { method: 'POST', body })
    expect(oneClick.status, await oneClick.text()).toBe(200)
    expect(await alertsOf('oneclick@example.com')).toHaveLength(items.length - 1)
    const all = await follow(link, 'json', JSON.stringify({ scope: 'all' }))
    expect(all.status).toBe(200)
    expect(JSON.parse(all.text).result).toEqual({ scope: 'all', removed: items.length - 1 })
    expect(await alertsOf('oneclick@example.com')).toEqual([])
    expect(await alertsOf('bystander@example.com')).toEqual(other.items)
    // A new "Notify me" later is a new request and is kept.
    expect((await ask('oneclick@example.com', items[1] as string)).status).toBe(200)
    expect(await alertsOf('oneclick@example.com')).toEqual([items[1]])
  })

  it('refuses a key that was edited, is of another kind, expired, or names another address, and changes nothing', async () => {
    const { link, items } = await mailedAlert('victim@example.com', 110)
    const key = new URL(link).searchParams.get('key') as string
    const claims = JSON.parse(atob((key.split('.')[1] as string).replace(/-/g, '+').replace(/_/g, '/')))
    const secret = tokenSecret(env, readConfig(env))
    const url = (k: string) => `${ORIGIN}/api/stock-alerts/unsubscribe?key=${k}`
    const [h, p, s] = key.split('.') as [string, string, string]
    const forgedPayload = btoa(JSON.stringify({ ...claims, email: 'attacker@example.com' }))
      .replace(/=+$/, '')
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
    const now = Math.floor(Date.now() / 1000)
    const bad = [
      url(`${h}.${forgedPayload}.${s}`),
      url(`${h}.${p}.${s.slice(0, -2)}${s.endsWith('AA') ? 'BB' : 'AA'}`),
      url(await signJws(secret, { ...claims, typ: 'newsletter-unsubscribe' })),
      url(await signJws(secret, { ...claims, iat: now - 100 * 86400, exp: now - 86400 })),
      url(await signJws(secret, { ...claims, exp: undefined })),
      url(await signJws('another-secret-of-at-least-32-chars!!', claims)),
      // Signed for another address but naming the victim's alert: the alert is not that address's.
      url(await signJws(secret, { ...claims, email: 'attacker@example.com' })),
      url('not-a-token'),
    ]
    for (const target of bad) {
      for (const how of ['form', 'json'] as const) {
        const res = await follow(target, how, how === 'form' ? 'scope=all' : '{"scope":"all"}')
        expect(res.status, target).toBe(400)
        if (how === 'form') expect(res.text).toContain(MSG_BAD_ALERT_LINK)
        else expect(JSON.parse(res.text).result).toBe(MSG_BAD_ALERT_LINK)
      }
    }
    const attackerAll = await follow(
      url(await signJws(secret, { ...claims, email: 'attacker@example.com' })),
      'form',
      'scope=alert',
    )
    expect(attackerAll.status).toBe(400)
    expect(await alertsOf('victim@example.com')).toEqual(items)
  })

  it('answers a bad scope or an oversized body with a 4xx naming it', async () => {
    const { link, items } = await mailedAlert('scope@example.com', 120)
    const scope = await follow(link, 'json', JSON.stringify({ scope: 'everyone' }))
    expect(scope.status).toBe(400)
    expect(JSON.parse(scope.text).result).toMatch(/scope must be alert or all/)
    const big = await follow(link, 'form', `scope=all&pad=${'x'.repeat(5000)}`)
    expect(big.status).toBe(400)
    expect(JSON.parse(big.text).result).toMatch(/Request body is too large \(at most 1024 bytes\)/)
    const malformed = await follow(link, 'json', '{scope:')
    expect(malformed.status).toBe(400)
    expect(await alertsOf('scope@example.com')).toEqual(items)
  })
})

const escapeHtml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')

/** The sku a link's key names. */
function soldOutSkuOf(link: string): string | undefined {
  const key = new URL(link).searchParams.get('key') as string
  return JSON.parse(atob((key.split('.')[1] as string).replace(/-/g, '+').replace(/_/g, '/'))).sku
}
