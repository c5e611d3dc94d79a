// Back in stock on WhatsApp: a shopper who asked "Notify me" with their account's address and
// opted a number in gets the back_in_stock template once per alert, beside the mail (which always
// goes); nobody else gets a message, and a number that said STOP gets none.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { mailBackInStock } from '../../../worker/api/stock-alerts/notify'
import { whatsappNumber } from '../../../worker/messages/phone'
import { registerAndLogin } from '../../helpers/user'
import { freshPhone, msgEnv, shopCall, wa, withMessageStandIns } from './harness'

withMessageStandIns()
beforeEach(async () => {
  await env.DB.prepare('DELETE FROM stock_alerts').run()
  await env.DB.prepare("UPDATE inventory SET qty = 0, is_in_stock = 0 WHERE sku = 'FX-SCARF'").run()
})

/** A shopper with an account, an alert for the scarf (address confirmed) and, if asked, a number opted in. */
async function waiting(optIn: boolean) {
  const me = await registerAndLogin('bis')
  const phone = freshPhone()
  if (optIn) {
    const res = await shopCall('/api/messages/consent', { body: { phone, optIn: true }, bearer: me.token })
    expect(res.status).toBe(200)
  }
  await env.DB.batch([
    env.DB.prepare('INSERT OR IGNORE INTO stock_alert_addresses (email, confirmed_at) VALUES (?, ?)').bind(
      me.email,
      Date.now(),
    ),
    env.DB.prepare("INSERT INTO stock_alerts (email, sku, created_at) VALUES (?, 'FX-SCARF', ?)").bind(
      me.email,
      Date.now(),
    ),
  ])
  return { me, phone: whatsappNumber(phone) as string }
}

const restock = () =>
  env.DB.prepare("UPDATE inventory SET qty = 5, is_in_stock = 1 WHERE sku = 'FX-SCARF'").run()
const mails = (email: string) =>
  env.DB.prepare("SELECT COUNT(*) AS n FROM mail_outbox WHERE kind = 'back-in-stock' AND target_address = ?")
    .bind(email)
    .first<{ n: number }>()

describe('back in stock on WhatsApp', () => {
  it('messages an opted-in shopper once per alert, beside the mail; not one who did not opt in', async () => {
    const asha = await waiting(true)
    const ravi = await waiting(false)
    await restock()
    const now = Date.now()
    const runs = await Promise.all([mailBackInStock(msgEnv, now), mailBackInStock(msgEnv, now)])
    expect(runs.map((r) => r.mailed).sort()).toEqual([0, 2])
    expect((await mailBackInStock(msgEnv, now + 60_000)).mailed).toBe(0)
    const inbox = wa.inbox(asha.phone)
    expect(inbox.map((m) => m.template)).toEqual(['back_in_stock'])
    expect(inbox[0]?.text).toMatch(/^Silk Scarf is back in stock: https?:\/\/\S+/)
    expect(wa.inbox(ravi.phone)).toEqual([])
    // The mail goes to both: it is the fallback and carries the unsubscribe link.
    expect((await mails(asha.me.email))?.n).toBe(1)
    expect((await mails(ravi.me.email))?.n).toBe(1)
  })

  it('sends nothing on WhatsApp to a number that said STOP; the mail still goes', async () => {
    const asha = await waiting(true)
    await env.DB.prepare('UPDATE message_consent SET opted_in = 0 WHERE phone = ?').bind(asha.phone).run()
    await restock()
    expect((await mailBackInStock(msgEnv, Date.now())).mailed).toBe(1)
    expect(wa.inbox(asha.phone)).toEqual([])
    expect((await mails(asha.me.email))?.n).toBe(1)
  })
})
