// The back office as its operators and attackers see it: who gets in, what each role may change,
// the audit row of every change, orders moved only along their lifecycle (stock back once, never
// more refunded than paid), store credit never below zero, reviews approved onto the product page.
import { env, SELF } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { isCacheablePath } from '../../../worker/platform/cache/key'
import { paidScarves, placeScarves, seedCartFixtures, stockOf } from '../../helpers/cart-fixtures'
import { countRows } from '../../helpers/d1-rows'
import { freshEmail } from '../../helpers/orders'
import { api, registerAndLogin } from '../../helpers/user'
import { admin, operator, PASSWORD } from './operator'

beforeEach(seedCartFixtures)

/** A guest's order of two scarves from Bengaluru (the phone the search below looks for). */
const place = (payment: string, email = freshEmail('asha.admin')) =>
  placeScarves({ qty: 2, payment, email, telephone: '9876500001' })

/** The same order by card, its payment arrived. */
const placePaid = () => paidScarves({ qty: 2, email: freshEmail('asha.admin'), telephone: '9876500001' })

const orderRow = (orderId: string) =>
  env.DB.prepare(
    'SELECT status, payment_state, paid_minor, refunded_minor, stock_released_at FROM orders WHERE client_order_id = ?',
  )
    .bind(orderId)
    .first<{
      status: string
      payment_state: string
      paid_minor: number
      refunded_minor: number
      stock_released_at: string | null
    }>()

const auditOf = async (target: string) =>
  (
    await env.DB.prepare('SELECT actor, action, before, after FROM admin_audit WHERE target = ? ORDER BY id')
      .bind(target)
      .all<{
        actor: string
        action: string
        before: string | null
        after: string | null
      }>()
  ).results

describe('getting in', () => {
  it('sends a visitor without a session to the sign-in form and refuses the API', async () => {
    const page = await SELF.fetch('https://shop.test/admin/orders', { redirect: 'manual' })
    expect(page.status).toBe(303)
    expect(page.headers.get('location')).toBe('/admin/login')
    expect((await admin(null, '/api/orders')).status).toBe(401)
  })

  it('never accepts a shopper token, and a shopper cannot sign in as an operator', async () => {
    const shopper = await registerAndLogin('adm-shopper', 'Secret123')
    const res = await admin(null, '/api/orders', { headers: { authorization: `Bearer ${shopper.token}` } })
    expect(res.status).toBe(401)
    const login = await admin(null, '/login', { body: { email: shopper.email, password: 'Secret123' } })
    expect(login.status).toBe(401)
  })

  it('signs in with an HttpOnly, SameSite=Strict cookie scoped to /admin, refuses a wrong password', async () => {
    const who = await operator('viewer')
    const bad = await admin(null, '/login', { body: { email: who.email, password: 'wrong password!!' } })
    expect(bad.status).toBe(401)
    const res = await SELF.fetch('https://shop.test/admin/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': '203.0.113.77' },
      body: JSON.stringify({ email: who.email, password: PASSWORD }),
    })
    const cookie = res.headers.get('set-cookie') ?? ''
    expect(cookie).toMatch(/HttpOnly/i)
    expect(cookie).toMatch(/SameSite=Strict/i)
    expect(cookie).toMatch(/Path=\/admin/)
    expect(cookie).toMatch(/Secure/)
  })

  it('answers privately: no-store, noindex, its own CSP without script', async () => {
    const who = await operator('viewer')
    for (const path of ['', '/orders', '/api/orders']) {
      const res = await admin(who, path)
      expect(res.status, path).toBe(200)
      expect(res.headers.get('cache-control')).toBe('no-store')
      expect(res.headers.get('x-robots-tag')).toMatch(/noindex/)
      expect(res.headers.get('content-security-policy') ?? '').toMatch(/script-src 'none'/)
    }
    expect((await admin(who, '/orders')).text).toMatch(/<meta name="robots" content="noindex,nofollow"\/?>/)
  })

  it('keeps every back-office path out of the output cache', () => {
    for (const path of ['/admin', '/admin/', '/admin/orders', '/admin/api/orders.csv'])
      expect(isCacheablePath(path), path).toBe(false)
    expect(isCacheablePath('/administrators-guide')).toBe(true)
  })

  it('refuses a change without the CSRF token, with another session’s token, or from another site', async () => {
    const staff = await operator('staff')
    const other = await operator('staff')
    const o = await place('cashondelivery')
    const path = `/api/orders/${o.number}/note`
    expect((await admin(staff, path, { body: { text: 'x' }, csrf: null })).status).toBe(403)
    expect((await admin(staff, path, { body: { text: 'x' }, csrf: other.csrf })).status).toBe(403)
    const cross = await admin(staff, path, { body: { text: 'x' }, headers: { origin: 'https://evil.test' } })
    expect(cross.status).toBe(403)
    expect(await auditOf(`order:${o.number}`)).toEqual([])
    expect((await admin(staff, path, { body: { text: 'x' } })).status).toBe(200)
  })
})

describe('roles', () => {
  it('lets a viewer read but not change anything', async () => {
    const viewer = await operator('viewer')
    const o = await place('cashondelivery')
    expect((await admin(viewer, `/api/orders/${o.number}`)).status).toBe(200)
    const res = await admin(viewer, `/api/orders/${o.number}/transition`, { body: { to: 'processing' } })
    expect(res.status).toBe(403)
    expect(res.json.result).toMatch(/viewer/)
    expect((await orderRow(o.orderId))?.status).toBe('pending')
    expect((await admin(viewer, `/api/orders/${o.number}/note`, { body: { text: 'hi' } })).status).toBe(403)
  })

  it('lets staff run orders but not grant store credit or create operators', async () => {
    const staff = await operator('staff')
    const shopper = await registerAndLogin('adm-credit')
    const grant = await admin(staff, `/api/customers/${shopper.id}/credit`, {
      body: { amount_minor: 5000, comment: 'goodwill' },
    })
    expect(grant.status).toBe(403)
    const op = await admin(staff, '/api/operators', {
      body: { email: 'new@ops.test', role: 'owner', password: 'long enough password' },
    })
    expect(op.status).toBe(403)
    expect(await env.DB.prepare("SELECT 1 FROM operators WHERE email = 'new@ops.test'").first()).toBeNull()
  })
})

describe('orders', () => {
  it('lists with filters and search (number, e-mail, phone, SKU), pages, and exports CSV', async () => {
    const viewer = await operator('viewer')
    const email = `find-${Math.random().toString(36).slice(2, 8)}@example.com`
    const o = await place('cashondelivery', email)
    for (const q of [o.number, email, 'FX-SCARF', '9876500001']) {
      const res = await admin(viewer, `/api/orders?q=${encodeURIComponent(q)}`)
      expect(res.status, q).toBe(200)
      expect(
        res.json.result.map((r: { increment_id: string }) => r.increment_id),
        q,
      ).toContain(o.number)
    }
    const byStatus = await admin(viewer, '/api/orders?status=pending&payment=none')
    expect(byStatus.json.result.every((r: { status: string }) => r.status === 'pending')).toBe(true)
    expect((await admin(viewer, '/api/orders?status=bogus')).status).toBe(400)
    expect((await admin(viewer, '/api/orders?from=yesterday')).json.result).toMatch(/from/)
    expect((await admin(viewer, `/api/orders?q=${encodeURIComponent("%' OR 1=1 --")}`)).json.result).toEqual(
      [],
    )
    // LIKE wildcards typed by the operator are literal characters: '%' alone matches nothing.
    expect((await admin(viewer, `/api/orders?q=${encodeURIComponent('%')}`)).json.result).toEqual([])
    const csv = await admin(viewer, `/api/orders.csv?q=${encodeURIComponent(email)}`)
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/)
    expect(csv.text.split('\r\n')[1]).toContain(`"${o.number}"`)
  })

  it('neutralises spreadsheet formulas in the CSV export', async () => {
    const viewer = await operator('viewer')
    const o = await place('cashondelivery', `-cmd${Date.now()}@example.com`)
    const csv = await admin(viewer, `/api/orders.csv?q=${encodeURIComponent(o.number)}`)
    expect(csv.text).toMatch(/"'-cmd[0-9]+@example.com"/)
  })

  it('confirms, packs, ships with carrier and tracking number (the shopper is mailed it), delivers', async () => {
    const staff = await operator('staff')
    const o = await place('cashondelivery')
    const step = (body: unknown) => admin(staff, `/api/orders/${o.number}/transition`, { body })
    expect((await step({ to: 'processing' })).status).toBe(200)
    expect((await step({ to: 'packed' })).status).toBe(200)
    const noTracking = await step({ to: 'shipped', carrier: 'Delhivery' })
    expect(noTracking.status).toBe(400)
    expect(noTracking.json.result).toMatch(/tracking_number/)
    expect(
      (await step({ to: 'shipped', carrier: 'Delhivery', tracking_number: 'DL123456789IN' })).status,
    ).toBe(200)
    const detail = await admin(staff, `/api/orders/${o.number}`)
    const shipped = detail.json.result.events.find((e: { to_status: string }) => e.to_status === 'shipped')
    expect(JSON.parse(shipped.detail)).toEqual({ carrier: 'Delhivery', tracking_number: 'DL123456789IN' })
    expect(shipped.actor).toBe(staff.email)
    await new Promise((r) => setTimeout(r, 400))
    const mail = await env.DB.prepare(
      "SELECT body FROM mail_outbox WHERE kind = 'order-shipped' AND body LIKE ?",
    )
      .bind(`%${o.number}%`)
      .first<{ body: string }>()
    expect(mail?.body).toContain('DL123456789IN')
    expect((await step({ to: 'delivered' })).status).toBe(200)
    const again = await step({ to: 'packed' })
    expect(again.status).toBe(409)
    expect(again.json.result).toMatch(/delivered/)
    expect((await auditOf(`order:${o.number}`)).map((a) => a.action)).toEqual([
      'order.processing',
      'order.packed',
      'order.shipped',
      'order.delivered',
    ])
  })

  it('does not "confirm" an unpaid online order', async () => {
    const staff = await operator('staff')
    const o = await place('card')
    const res = await admin(staff, `/api/orders/${o.number}/transition`, { body: { to: 'processing' } })
    expect(res.status).toBe(409)
    expect((await orderRow(o.orderId))?.status).toBe('pending_payment')
  })

  it('cancels a paid order once under concurrent cancels: stock back once, refunded once, in full', async () => {
    const staff = await operator('staff')
    const before = await stockOf('FX-SCARF')
    const o = await placePaid()
    expect(await stockOf('FX-SCARF')).toBe((before ?? 0) - 2)
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        admin(staff, `/api/orders/${o.number}/transition`, {
          body: { to: 'canceled', reason: 'customer asked' },
        }),
      ),
    )
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1)
    expect(answers.filter((a) => a.status === 409)).toHaveLength(5)
    expect(await stockOf('FX-SCARF')).toBe(before)
    const row = await orderRow(o.orderId)
    expect(row).toMatchObject({
      status: 'canceled',
      payment_state: 'refunded',
      paid_minor: o.total,
      refunded_minor: o.total,
    })
    const refunds = await env.DB.prepare(
      "SELECT actor FROM order_events WHERE client_order_id = ? AND kind = 'refund'",
    )
      .bind(o.orderId)
      .all()
    expect(refunds.results).toEqual([{ actor: staff.email }])
    const audit = await auditOf(`order:${o.number}`)
    expect(audit.filter((a) => a.action === 'order.canceled')).toHaveLength(1)
    const refundAudit = audit.filter((a) => a.action === 'order.refund')
    expect(refundAudit).toHaveLength(1)
    expect(JSON.parse(refundAudit[0]?.after ?? '{}')).toMatchObject({
      refunded_minor: o.total,
      payment_state: 'refunded',
    })
  })

  it('refunds in parts, never above what was paid, also when refunds race', async () => {
    const staff = await operator('staff')
    const o = await placePaid()
    const refund = (amount_minor: unknown) =>
      admin(staff, `/api/orders/${o.number}/refund`, { body: { amount_minor, reason: 'damaged' } })
    expect((await refund(0)).status).toBe(400)
    expect((await refund(-5)).status).toBe(400)
    expect((await refund(1.5)).status).toBe(400)
    expect((await refund(o.total + 1)).status).toBe(409)
    const part = Math.floor(o.total / 3)
    const first = await refund(part)
    expect(first.status).toBe(200)
    expect(first.json.result).toMatchObject({
      ok: true,
      refundedMinor: part,
      paymentState: 'partially_refunded',
    })
    const rest = o.total - part
    const racing = await Promise.all(Array.from({ length: 5 }, () => refund(rest)))
    expect(racing.filter((r) => r.status === 200)).toHaveLength(1)
    const row = await orderRow(o.orderId)
    expect(row).toMatchObject({ refunded_minor: o.total, payment_state: 'refunded' })
    const events = await countRows(
      "SELECT COUNT(*) AS n FROM order_events WHERE client_order_id = ? AND kind = 'refund'",
      o.orderId,
    )
    expect(events).toBe(2)
    expect((await auditOf(`order:${o.number}`)).filter((a) => a.action === 'order.refund')).toHaveLength(2)
  })

  it('keeps internal notes in the order history with their author', async () => {
    const staff = await operator('staff')
    const o = await place('cashondelivery')
    expect(
      (await admin(staff, `/api/orders/${o.number}/note`, { body: { text: 'Call before delivery' } })).status,
    ).toBe(200)
    expect((await admin(staff, `/api/orders/${o.number}/note`, { body: { text: '' } })).status).toBe(400)
    const detail = await admin(staff, `/api/orders/${o.number}`)
    const note = detail.json.result.events.find((e: { kind: string }) => e.kind === 'note')
    expect(note.actor).toBe(staff.email)
    expect(JSON.parse(note.detail)).toEqual({ text: 'Call before delivery' })
    const page = await admin(staff, `/orders/${o.number}`)
    expect(page.text).toContain('Call before delivery')
  })

  it('escapes what shoppers typed on the order page', async () => {
    const staff = await operator('staff')
    const o = await place('cashondelivery')
    await admin(staff, `/api/orders/${o.number}/note`, { body: { text: '<script>alert(1)</script>' } })
    const page = await admin(staff, `/orders/${o.number}`)
    expect(page.text).not.toContain('<script>alert(1)</script>')
    expect(page.text).toContain('&lt;script&gt;')
  })

  it('works from the page forms (no script): a form post with its token redirects back', async () => {
    const staff = await operator('staff')
    const o = await place('cashondelivery')
    const res = await SELF.fetch(`https://shop.test/admin/api/orders/${o.number}/transition`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: staff.cookie },
      body: new URLSearchParams({
        _csrf: staff.csrf,
        to: 'processing',
        return_to: `/admin/orders/${o.number}`,
      }),
    })
    expect(res.status).toBe(303)
    expect(res.headers.get('location')).toBe(`/admin/orders/${o.number}`)
    expect((await orderRow(o.orderId))?.status).toBe('processing')
    const offsite = await SELF.fetch(`https://shop.test/admin/api/orders/${o.number}/note`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: staff.cookie },
      body: new URLSearchParams({ _csrf: staff.csrf, text: 'n', return_to: '//evil.test/x' }),
    })
    expect(offsite.headers.get('location')).toBe(`/admin/orders/${o.number}`)
  })
})

describe('store credit', () => {
  it('grants and revokes through the ledger, never below zero, also under racing revocations', async () => {
    const owner = await operator('owner')
    const shopper = await registerAndLogin('adm-ledger')
    const path = `/api/customers/${shopper.id}/credit`
    expect((await admin(owner, path, { body: { amount_minor: -1, comment: 'x' } })).status).toBe(409)
    expect((await admin(owner, path, { body: { amount_minor: 5000, comment: 'goodwill' } })).status).toBe(200)
    const revokes = await Promise.all(
      Array.from({ length: 4 }, () =>
        admin(owner, path, { body: { amount_minor: -3000, comment: 'mistake' } }),
      ),
    )
    expect(revokes.filter((r) => r.status === 200)).toHaveLength(1)
    const balance = await env.DB.prepare('SELECT balance_minor FROM store_credit WHERE customer_id = ?')
      .bind(shopper.id)
      .first<{ balance_minor: number }>()
    expect(balance?.balance_minor).toBe(2000)
    const ledger = await env.DB.prepare(
      'SELECT amount_minor, balance_after_minor FROM store_credit_ledger WHERE customer_id = ? ORDER BY id',
    )
      .bind(shopper.id)
      .all()
    expect(ledger.results).toEqual([
      { amount_minor: 5000, balance_after_minor: 5000 },
      { amount_minor: -3000, balance_after_minor: 2000 },
    ])
    expect((await auditOf(`customer:${shopper.id}`)).map((a) => a.action)).toEqual([
      'credit.grant',
      'credit.revoke',
    ])
    const found = await admin(owner, `/api/customers?email=${encodeURIComponent(shopper.email)}`)
    expect(found.json.result.customer.credit_minor).toBe(2000)
  })
})

describe('reviews', () => {
  it('approves a pending review onto the product page, once, with an audit row', async () => {
    const staff = await operator('staff')
    const product = await env.DB.prepare(
      "SELECT id, sku, url_path FROM products WHERE type_id = 'simple' AND status = 1 AND visibility = 4 LIMIT 1",
    ).first<{ id: number; sku: string; url_path: string }>()
    const title = `Lovely drape ${Math.random().toString(36).slice(2, 8)}`
    const created = await api('/review/create', {
      body: { review: { product_id: product?.id, title, detail: 'Fits well', nickname: 'Meera' } },
      ip: '192.0.2.50',
    })
    expect(created.status).toBe(200)
    const id = created.json.result.id
    const page = () => SELF.fetch(`https://shop.test/${product?.url_path}`).then((r) => r.text())
    expect(await page()).not.toContain(title)
    const queue = await admin(staff, '/api/reviews')
    expect(queue.json.result.map((r: { id: number }) => r.id)).toContain(id)
    const viewer = await operator('viewer')
    expect((await admin(viewer, `/api/reviews/${id}/approve`, { body: {} })).status).toBe(403)
    expect((await admin(staff, `/api/reviews/${id}/approve`, { body: {} })).status).toBe(200)
    expect((await admin(staff, `/api/reviews/${id}/reject`, { body: {} })).status).toBe(409)
    expect(await page()).toContain(title)
    expect(await auditOf(`review:${id}`)).toEqual([
      {
        actor: staff.email,
        action: 'review.approve',
        before: '{"review_status":2}',
        after: '{"review_status":1}',
      },
    ])
    expect((await admin(staff, '/api/reviews/999999/approve', { body: {} })).status).toBe(404)
    expect((await admin(staff, '/api/reviews/abc/approve', { body: {} })).status).toBe(400)
  })
})

describe('customer accounts', () => {
  it('disables an account (its tokens stop working, it cannot sign in) and enables it again, as the owner only', async () => {
    const owner = await operator('owner')
    const staff = await operator('staff')
    const shopper = await registerAndLogin('adm-disable', 'Secret123')
    const path = `/api/customers/${shopper.id}/disabled`
    /** The status of the shopper's own sign-in, sent from `ip`. */
    const signIn = async (ip: string) =>
      (await api('/user/login', { body: { username: shopper.email, password: 'Secret123' }, ip })).status
    expect((await admin(staff, path, { body: { disabled: true } })).status).toBe(403)
    expect((await api('/user/me', { bearer: shopper.token })).status).toBe(200)
    expect((await admin(owner, path, { body: { disabled: true } })).status).toBe(200)
    expect((await api('/user/me', { bearer: shopper.token })).status).toBe(401)
    expect(await signIn('192.0.2.201')).toBe(401)
    expect(
      (await api('/user/refresh', { body: { refreshToken: shopper.refreshToken }, ip: '192.0.2.202' }))
        .status,
    ).not.toBe(200)
    const found = await admin(owner, `/api/customers?email=${encodeURIComponent(shopper.email)}`)
    expect(found.json.result.customer.disabled_at).not.toBeNull()
    expect((await admin(owner, path, { body: { disabled: false } })).status).toBe(200)
    // The refused sign-in above counts as a failure: the next try of this account waits a second.
    await new Promise((r) => setTimeout(r, 1100))
    expect(await signIn('192.0.2.203')).toBe(200)
    expect((await auditOf(`customer:${shopper.id}`)).map((a) => a.action)).toEqual([
      'customer.disable',
      'customer.enable',
    ])
  })
})
