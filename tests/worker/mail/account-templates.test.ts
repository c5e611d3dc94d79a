// The account mails through the back office and their senders: an operator edits a mail's words
// (content permission, audited) and the next password-reset or back-in-stock mail carries them in
// its HTML part, escaped, beside the text part; the link that works (the single-use reset link,
// the unsubscribe link) is the shop's; words naming a secret are refused; each account mail has
// its preview page with sample fillings.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { mailBackInStock } from '../../../worker/api/stock-alerts/notify'
import { ACCOUNT_MAIL_KINDS } from '../../../worker/mail/account-mail'
import { seedCartFixtures } from '../../helpers/cart-fixtures'
import { api, freshIp, registerAndLogin, waitForMail } from '../../helpers/user'
import { admin, operator } from '../admin/operator'

beforeEach(async () => {
  await seedCartFixtures()
  await env.DB.prepare('DELETE FROM mail_templates').run()
})

const WORDS = {
  subject: 'A new password for {name} at {shop}',
  intro: 'Dear {name},\n\n**Choose** a new password below. <a href="https://evil.example">here</a>',
  note: 'With love,\nthe studio',
}

describe('account mails in HTML with the operator’s words', () => {
  it('the password reset carries the edited words, escaped, and the shop’s working reset link', async () => {
    const staff = await operator('staff')
    const refused = await admin(staff, '/api/mail/password_reset', { body: { intro: 'Your code: {code}' } })
    expect(refused.status).toBe(400)
    expect(refused.json.result).toMatch(/^The opening text uses \{code\}, which the shop cannot fill\./)
    const saved = await admin(staff, '/api/mail/password_reset', { body: WORDS })
    expect(saved.status, saved.text).toBe(200)
    const audit = await env.DB.prepare('SELECT actor, action FROM admin_audit WHERE target = ?')
      .bind('mail:password_reset')
      .all<{ actor: string; action: string }>()
    expect(audit.results).toEqual([{ actor: staff.email, action: 'mail-template.save' }])

    const user = await registerAndLogin('htmlreset')
    expect((await api('/user/reset-password', { body: { email: user.email }, ip: freshIp() })).status).toBe(
      200,
    )
    const mail = (await waitForMail('password-reset', user.email)) as unknown as {
      subject: string
      body: string
      html: string | null
    }
    expect(mail.subject).toMatch(/^A new password for \S+ at \S/)
    expect(mail.body).toMatch(/^Dear \S+,\n\nChoose a new password below\./)
    const html = mail.html ?? ''
    expect(html.startsWith('<!doctype html>')).toBe(true)
    expect(html).toContain('<strong>Choose</strong> a new password below.')
    expect(html).toContain('&lt;a href=&quot;https://evil.example&quot;&gt;here&lt;/a&gt;')
    expect(html).not.toContain('href="https://evil.example"')
    expect(html).toContain('With love,<br>the studio')
    // The button's link is the mail's one reset link; it sets a new password once.
    const link = /href="([^"]*resetToken=[^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&') ?? ''
    expect(mail.body).toContain(link)
    const resetToken = new URL(link).searchParams.get('resetToken') as string
    const body = { email: user.email, newPassword: 'Html1234x', resetToken }
    expect((await api('/user/create-password', { body })).status).toBe(200)
    expect((await api('/user/create-password', { body })).status).toBe(400)
  })

  it('the back-in-stock mail carries the edited words and the unsubscribe link in its HTML part', async () => {
    const staff = await operator('staff')
    const words = { subject: '{product} is here again', intro: 'Back: **{product}** <b>now</b>' }
    expect((await admin(staff, '/api/mail/back_in_stock', { body: words })).status).toBe(200)
    const sku = 'FX-SCARF'
    const email = `bis-${crypto.randomUUID()}@example.com`
    const now = Date.now()
    await env.DB.batch([
      env.DB.prepare('INSERT INTO stock_alert_addresses (email, confirmed_at) VALUES (?, ?)').bind(
        email,
        now,
      ),
      env.DB.prepare('INSERT INTO stock_alerts (email, sku, created_at) VALUES (?, ?, ?)').bind(
        email,
        sku,
        now,
      ),
      env.DB.prepare('UPDATE inventory SET qty = 4, is_in_stock = 1 WHERE sku = ?').bind(sku),
    ])
    expect((await mailBackInStock(env, now, { skus: [sku] })).mailed).toBe(1)
    const mail = await env.DB.prepare(
      "SELECT subject, body, html, headers FROM mail_outbox WHERE kind = 'back-in-stock' AND target_address = ?",
    )
      .bind(email)
      .first<{ subject: string; body: string; html: string; headers: string }>()
    expect(mail?.subject).toMatch(/ is here again$/)
    expect(mail?.html).toMatch(/Back: <strong>[^<]+<\/strong> &lt;b&gt;now&lt;\/b&gt;/)
    const unsubscribe = /<(\S+)>/.exec(JSON.parse(mail?.headers ?? '{}')['List-Unsubscribe'])?.[1] ?? ''
    expect(unsubscribe).toMatch(/\/api\/stock-alerts\/unsubscribe\?key=/)
    expect(mail?.html).toContain(`href="${unsubscribe.replace(/&/g, '&amp;')}"`)
    expect(mail?.body).toContain(unsubscribe)
  })

  it('lists the account mails and previews each with sample fillings, styles as classes', async () => {
    const viewer = await operator('viewer')
    const list = await admin(viewer, '/mail')
    for (const kind of ACCOUNT_MAIL_KINDS) {
      expect(list.text).toContain(`href="/admin/mail/${kind}"`)
      const page = await admin(viewer, `/mail/${kind}`)
      expect(page.status).toBe(200)
      expect(page.text).toContain('Preview with sample fillings')
      const preview = page.text.slice(page.text.indexOf('class="mail-preview"'))
      expect(preview).toContain('class="mail-button"')
      expect(preview).not.toContain(' style="')
    }
    expect((await admin(viewer, '/api/mail/gift_card', { body: { subject: 'x' } })).status).toBe(403)
  })
})
