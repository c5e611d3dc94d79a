// The order mails' words in the back office: an operator with the content permission edits a
// mail's subject, opening text and closing note; the next mail of that event uses them, escaped;
// words the shop cannot fill are refused beside their field; a reset brings the defaults back;
// every change is audited; the preview renders the mail with a real order or a sample one.
import { env } from 'cloudflare:test'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { notifyOrder } from '../../../worker/api/mail/notify'
import { readConfig } from '../../../worker/platform/env'
import { placeScarves, seedCartFixtures } from '../../helpers/cart-fixtures'
import { admin, operator, post } from '../admin/operator'
import { MAIL_API_URL, mailApiStandIn } from '../api/mail/mail-provider-stand-in'

beforeEach(async () => {
  await seedCartFixtures()
  await env.DB.prepare('DELETE FROM mail_templates').run()
})

const audits = (event: string) =>
  env.DB.prepare('SELECT actor, action, before, after FROM admin_audit WHERE target = ? ORDER BY id')
    .bind(`mail:${event}`)
    .all<{ actor: string; action: string; before: string | null; after: string | null }>()

describe('editing an order mail', () => {
  it('changes the next mail of that event, escaped, and is audited; a reset brings the defaults back', async () => {
    const staff = await operator('staff')
    const saved = await admin(staff, '/api/mail/shipped', {
      body: {
        subject: 'On its way: {order} from {shop}',
        intro: 'Good news! **Order {order}** is with the courier.\n\n<script>alert(1)</script>',
        note: 'With love,\nthe studio',
      },
    })
    expect(saved.status, saved.text).toBe(200)
    const standIn = mailApiStandIn('k')
    const real = globalThis.fetch
    vi.spyOn(globalThis, 'fetch').mockImplementation((input, init) =>
      (input instanceof Request ? input.url : String(input)) === MAIL_API_URL
        ? standIn.fetch(input, init)
        : real(input, init),
    )
    const mailEnv = { ...env, MAIL_PROVIDER_URL: MAIL_API_URL, MAIL_PROVIDER_KEY: 'k' } as Env
    const config = readConfig(mailEnv)
    const { orderId, email, number } = await placeScarves()
    await notifyOrder(mailEnv, config, 'shipped', orderId, Date.now())
    const mail = standIn.accepted.find((m) => m.to === email)
    expect(mail?.subject).toBe(`On its way: ${number} from ${config.STORE_NAME}`)
    expect(mail?.text).toMatch(
      new RegExp(`^Good news! Order ${number} is with the courier\\.\\n\\n<script>alert\\(1\\)</script>\\n`),
    )
    expect(mail?.html).toContain(`Good news! <strong>Order ${number}</strong> is with the courier.`)
    expect(mail?.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(mail?.html).not.toContain('<script>')
    expect(mail?.html).toContain('With love,<br>the studio')
    const [first] = (await audits('shipped')).results
    expect(first).toMatchObject({ actor: staff.email, action: 'mail-template.save', before: null })
    expect(JSON.parse(first?.after ?? '{}')).toMatchObject({ subject: 'On its way: {order} from {shop}' })

    expect((await admin(staff, '/api/mail/shipped/reset', { body: {} })).status).toBe(200)
    await notifyOrder(mailEnv, config, 'shipped', orderId, Date.now())
    expect(standIn.accepted.filter((m) => m.to === email).at(-1)?.subject).toBe(
      `Your order ${number} is on its way`,
    )
    expect((await audits('shipped')).results.map((r) => r.action)).toEqual([
      'mail-template.save',
      'mail-template.reset',
    ])
    vi.restoreAllMocks()
  })

  it('refuses words the shop cannot fill, beside their field, and a viewer, writing nothing', async () => {
    const owner = await operator('owner')
    const refused = await admin(owner, '/api/mail/placed', { body: { intro: 'Dear {name}, thank you' } })
    expect(refused.status).toBe(400)
    expect(refused.json.result).toMatch(/^The opening text uses \{name\}, which the shop cannot fill\./)
    const page = await post(owner, '/api/mail/placed', '/admin/mail/placed', [
      ['subject', 'Two\nlines'],
      ['intro', 'Kept as typed'],
    ])
    expect(page.status).toBe(400)
    expect(page.type).toContain('text/html')
    expect(page.text).toContain('The subject must be one line.')
    expect(page.text).toContain('Kept as typed')
    const viewer = await operator('viewer')
    expect((await admin(viewer, '/api/mail/placed', { body: { subject: 'Hi {order}' } })).status).toBe(403)
    expect((await admin(owner, '/api/mail/no-such-event', { body: { subject: 'x' } })).status).toBe(404)
    const rows = await env.DB.prepare('SELECT COUNT(*) AS n FROM mail_templates').first<{ n: number }>()
    expect(rows?.n).toBe(0)
  })
})

describe('the preview', () => {
  it('renders the mail with a real order, its total, in the page’s own styles; a sample without one', async () => {
    const viewer = await operator('viewer')
    const { number, total } = await placeScarves()
    const page = await admin(viewer, `/mail/placed?order=${number}`)
    expect(page.status).toBe(200)
    expect(page.text).toContain(`Preview with order ${number}`)
    const preview = page.text.slice(page.text.indexOf('class="mail-preview"'))
    expect(preview).toContain(`Order ${number}`)
    expect(preview).toContain(`>₹${(total / 100).toLocaleString('en-IN')}</td>`)
    // Styles are classes here: the back office's policy allows no style attribute.
    expect(preview).not.toContain(' style="')
    expect(preview).toContain('class="mail-total"')
    expect(page.headers.get('content-security-policy')).toMatch(/style-src 'nonce-/)
    const sample = await admin(viewer, '/mail/placed?order=999999999')
    expect(sample.text).toContain('There is no order 999999999; the sample order is shown.')
    expect(sample.text).toContain('Chanderi Kurta')
    const list = await admin(viewer, '/mail')
    expect(list.text).toContain('href="/admin/mail/refunded"')
    expect((await admin(viewer, '/mail/nope')).status).toBe(404)
  })
})
