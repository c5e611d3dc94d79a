// Back-office forms as an operator uses them in a browser: amounts typed in rupees the way people
// write them, a refused post answered with its own page (the values typed, the reason beside the
// field, never a JSON page), and one refund mail per refund whoever asks for it.
import { createExecutionContext, env } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import app from '../../../worker/app'
import { paidScarves, seedCartFixtures } from '../../helpers/cart-fixtures'
import { countRows } from '../../helpers/d1-rows'
import { freshEmail, testAddress } from '../../helpers/orders'
import { api, registerAndLogin } from '../../helpers/user'
import { admin, operator, post, type Session } from './operator'

beforeEach(seedCartFixtures)

/** A card order for two scarves (₹2,000), paid; the phone is the one the customer search looks for. */
const paidOrder = () => paidScarves({ qty: 2, email: freshEmail('forms'), telephone: '9876500002' })

const refundedOf = (orderId: string) =>
  env.DB.prepare('SELECT refunded_minor FROM orders WHERE client_order_id = ?')
    .bind(orderId)
    .first<number>('refunded_minor')

describe('amounts typed in rupees', () => {
  it('refunds ₹50 for "50" and ₹1,000 for "1,000"; never the paise the operator did not mean', async () => {
    const staff = await operator('staff')
    const o = await paidOrder()
    const back = `/admin/orders/${o.number}`
    expect(o.total).toBeGreaterThan(105_001)
    // Each typed amount, and the order's refunded total after it (paise).
    for (const [amount, reason, refunded] of [
      ['50', 'a', 5_000],
      ['1,000', 'b', 105_000],
    ] as const) {
      const res = await post(staff, `/api/orders/${o.number}/refund`, back, [
        ['amount', amount],
        ['reason', reason],
      ])
      expect(res.status, amount).toBe(303)
      expect(await refundedOf(o.orderId)).toBe(refunded)
    }
    // The JSON API keeps its minor units.
    const api = await admin(staff, `/api/orders/${o.number}/refund`, {
      body: { amount_minor: 1, reason: 'c' },
    })
    expect(api.status).toBe(200)
    expect(await refundedOf(o.orderId)).toBe(105_001)
  })

  it('grants and revokes store credit typed in rupees', async () => {
    const owner = await operator('owner')
    const shopper = await registerAndLogin('forms-credit', 'Secret123')
    const id = (
      await env.DB.prepare('SELECT id FROM customers WHERE email = ?')
        .bind(shopper.email)
        .first<{ id: number }>()
    )?.id
    const back = `/admin/customers?email=${encodeURIComponent(shopper.email)}`
    const grant = await post(owner, `/api/customers/${id}/credit`, back, [
      ['amount', '₹2,500.50'],
      ['comment', 'sorry'],
    ])
    expect(grant.status).toBe(303)
    const take = await post(owner, `/api/customers/${id}/credit`, back, [
      ['amount', '-500'],
      ['comment', 'fix'],
    ])
    expect(take.status).toBe(303)
    const row = await env.DB.prepare('SELECT balance_minor FROM store_credit WHERE customer_id = ?')
      .bind(id)
      .first<{ balance_minor: number }>()
    expect(row?.balance_minor).toBe(200_050)
  })
})

describe('a refused post comes back to its form', () => {
  it('keeps what was typed and says why beside the field, with a 400 page, not JSON', async () => {
    const staff = await operator('staff')
    const o = await paidOrder()
    const back = `/admin/orders/${o.number}`
    const res = await post(staff, `/api/orders/${o.number}/refund`, back, [
      ['amount', '5.000,50'],
      ['reason', 'torn <b>hem</b>'],
    ])
    expect(res.status).toBe(400)
    expect(res.type).toMatch(/^text\/html/)
    expect(res.text).toContain(`<h1>Order ${o.number}</h1>`)
    expect(res.text).toMatch(
      /aria-invalid="true" name="amount" value="5.000,50"\/><strong role="alert">amount must be an amount in rupees/,
    )
    expect(res.text).toContain('value="torn &lt;b&gt;hem&lt;/b&gt;"')
    expect(await refundedOf(o.orderId)).toBe(0)
  })

  it('says an over-refund is more than can be refunded, on the order page, in rupees', async () => {
    const staff = await operator('staff')
    const o = await paidOrder()
    const res = await post(staff, `/api/orders/${o.number}/refund`, `/admin/orders/${o.number}`, [
      ['amount', String(o.total)],
      ['reason', 'x'],
    ])
    expect(res.status).toBe(409)
    // The minor total typed as rupees is 100× the order: ₹2,000 of goods and ₹149 of shipping.
    expect(o.total).toBe(214_900)
    expect(res.text).toContain(
      '<p class="refused" role="alert">A refund of ₹2,14,900.00 is more than the ₹2,149.00 still refundable',
    )
    expect(res.text).toContain(`value="${o.total}"`)
  })

  it('tells a viewer on the page that the role may not do it', async () => {
    const viewer = await operator('viewer')
    const o = await paidOrder()
    const res = await post(viewer, `/api/orders/${o.number}/refund`, `/admin/orders/${o.number}`, [
      ['amount', '10'],
      ['reason', 'x'],
    ])
    expect(res.status).toBe(403)
    expect(res.text).toContain('Your role (viewer) may not do this')
  })

  it('never returns to a page outside the back office', async () => {
    const staff = await operator('staff')
    const o = await paidOrder()
    const res = await post(staff, `/api/orders/${o.number}/refund`, 'https://evil.test/admin', [
      ['amount', 'x'],
    ])
    expect(res.status).toBe(400)
    expect(res.text).not.toContain('evil.test')
  })
})

describe('one refund mail', () => {
  it('mails the shopper once for a refund and once for a cancel that refunds', async () => {
    const staff = await operator('staff')
    const count = (o: { orderId: string }) =>
      countRows(
        "SELECT COUNT(*) AS n FROM mail_outbox m JOIN orders o ON m.target_address = o.customer_email WHERE m.kind = 'order-refunded' AND o.client_order_id = ?",
        o.orderId,
      )
    const a = await paidOrder()
    expect(
      (
        await post(staff, `/api/orders/${a.number}/refund`, `/admin/orders/${a.number}`, [
          ['amount', '100'],
          ['reason', 'r'],
        ])
      ).status,
    ).toBe(303)
    expect(await count(a)).toBe(1)
    const b = await paidOrder()
    const cancel = await post(staff, `/api/orders/${b.number}/transition`, `/admin/orders/${b.number}`, [
      ['to', 'canceled'],
      ['reason', 'out of fabric'],
    ])
    expect(cancel.status).toBe(303)
    expect(await count(b)).toBe(1)
  })
})

describe('operations that warn', () => {
  it('shows a red banner on every screen while no mail provider is configured', async () => {
    const viewer = await operator('viewer')
    const page = async (e: Env) =>
      (
        await app.fetch(
          new Request('https://shop.test/admin/orders', { headers: { cookie: viewer.cookie } }),
          e,
          createExecutionContext(),
        )
      ).text()
    expect(await page(env)).toContain(
      '<p class="alarm" role="alert">No mail provider is configured: order, refund and account mails are queued and never sent.',
    )
    const configured = {
      ...env,
      MAIL_PROVIDER_URL: 'https://mail.provider.test/send',
      MAIL_PROVIDER_KEY: 'k',
    }
    expect(await page(configured as Env)).not.toContain('class="alarm"')
  })
})

describe('the dashboard', () => {
  it('counts revenue as paid minus refunded (unpaid cash on delivery adds nothing)', async () => {
    const staff = await operator('staff')
    const revenue = async () =>
      (
        (await admin(staff, '/api/dashboard')).json.result.revenueToday as {
          currency: string
          minor: number
        }[]
      ).find((r) => r.currency === 'INR')?.minor ?? 0
    const before = await revenue()
    const o = await paidOrder()
    expect(await revenue()).toBe(before + o.total)
    await admin(staff, `/api/orders/${o.number}/refund`, { body: { amount_minor: 50_000, reason: 'r' } })
    expect(await revenue()).toBe(before + o.total - 50_000)
    // A cash-on-delivery order not yet collected.
    const cod = await api('/order', {
      body: {
        order_id: `${Date.now()}-cod`,
        user_id: '',
        cart_id: '',
        products: [{ sku: 'FX-SCARF', qty: 1, price: 1 }],
        addressInformation: {
          shippingAddress: { ...testAddress('cod@example.com'), email: 'cod@example.com' },
          billingAddress: { ...testAddress('cod@example.com'), email: 'cod@example.com' },
          shipping_method_code: 'flatrate',
          shipping_carrier_code: 'flatrate',
          payment_method_code: 'cashondelivery',
        },
      },
    })
    expect(cod.status, JSON.stringify(cod.json)).toBe(200)
    expect(await revenue()).toBe(before + o.total - 50_000)
  })

  it('names low stock by its product, linked, and leaves out stock that cannot run out', async () => {
    const viewer = await operator('viewer')
    // Nothing else is low, so the list (lowest first, at most 50) holds the scarf.
    await env.DB.prepare('UPDATE inventory SET qty = 100').run()
    await env.DB.prepare(
      "UPDATE inventory SET qty = 2, manage_stock = 1, backorders = 0 WHERE sku = 'FX-SCARF'",
    ).run()
    const name = (
      await env.DB.prepare("SELECT name FROM products WHERE sku = 'FX-SCARF'").first<{ name: string }>()
    )?.name as string
    const page = await admin(viewer, '')
    expect(page.text).toContain(`<a href="/admin/products?q=FX-SCARF">${name}</a>`)
    await env.DB.prepare("UPDATE inventory SET manage_stock = 0 WHERE sku = 'FX-SCARF'").run()
    expect((await admin(viewer, '')).text).not.toContain('/admin/products?q=FX-SCARF"')
  })
})

describe('coupons', () => {
  it('says an expired coupon has expired, and edits a coupon from its form', async () => {
    const owner = await operator('owner')
    const code = `OLD${Date.now() % 100000}`
    const made = await admin(owner, '/api/coupons', {
      body: { code, kind: 'percent', amount: 10, label: '10% off', expires_at: '2025-01-31' },
    })
    expect(made.status, made.text).toBe(200)
    const page = await admin(owner, '/coupons')
    expect(page.text).toMatch(/<td>Expired \(ended 2025-01-31 23:59\)<\/td>/)
    expect(page.text).not.toMatch(/Active yes/)
    const edit = await post(owner, `/api/coupons/${code}`, '/admin/coupons', [
      ['_form', 'edit'],
      ['amount', '15'],
      ['label', 'Fifteen off'],
      ['expires_at', '2099-12-31'],
    ])
    expect(edit.status, edit.text).toBe(303)
    const row = await env.DB.prepare('SELECT amount, label, expires_at FROM coupons WHERE code = ?')
      .bind(code)
      .first<{ amount: number; label: string; expires_at: string }>()
    expect(row).toMatchObject({ amount: 15, label: 'Fifteen off' })
    expect(row?.expires_at.startsWith('2099-12-31')).toBe(true)
    expect((await admin(owner, '/coupons')).text).toContain(`<td>${code}</td>`)
    const refused = await post(owner, `/api/coupons/${code}`, '/admin/coupons', [
      ['_form', 'edit'],
      ['amount', '150'],
    ])
    expect(refused.status).toBe(400)
    expect(refused.text).toMatch(/<details open="">/)
  })
})

describe('orders in words', () => {
  it('filters by choices and tells the history in words, without JSON or payment ids', async () => {
    const staff = await operator('staff')
    const o = await paidOrder()
    await post(staff, `/api/orders/${o.number}/refund`, `/admin/orders/${o.number}`, [
      ['amount', '100'],
      ['reason', 'loose thread'],
    ])
    await post(staff, `/api/orders/${o.number}/note`, `/admin/orders/${o.number}`, [['text', 'called her']])
    const list = await admin(staff, '/orders')
    expect(list.text).toMatch(/<select name="status"><option value="" selected="">Any status<\/option>/)
    expect(list.text).toContain('<option value="partially_refunded">paid, partly refunded</option>')
    const page = (await admin(staff, `/orders/${o.number}`)).text
    const history = page.slice(page.indexOf('<h2>History</h2>'))
    expect(history).toContain('Refunded ₹100.00 (reason: loose thread)')
    expect(history).toContain('Note: called her')
    expect(history).toContain('Awaiting payment → Confirmed')
    expect(history).toContain('<td>the shopper</td>')
    expect(history).not.toMatch(/\{|providerRefundId|amountMinor/)
  })
})

describe('purging by tag', () => {
  it("names a product's real tag and refuses a tag no page carries instead of purging nothing", async () => {
    const owner = await operator('owner')
    const page = (await admin(owner, '/operations')).text
    expect(page).toContain('P and a product&#x27;s SKU (PSAR1001)')
    expect(page).not.toContain('P-SKU')
    const wrong = await post(owner, '/api/cache/purge', '/admin/operations', [
      ['tags', 'P-FX-SCARF, C999999, home'],
    ])
    expect(wrong.status).toBe(400)
    expect(wrong.text).toContain('No page carries the tag P-FX-SCARF, C999999:')
    const right = await admin(owner, '/api/cache/purge', { body: { tags: 'PFX-SCARF,home' } })
    expect(right.status).toBe(200)
  })
})

describe('a role sees what it may do', () => {
  it('shows a viewer no change forms, staff no money forms, the owner all', async () => {
    const o = await paidOrder()
    const [viewer, staff, owner] = await Promise.all([
      operator('viewer'),
      operator('staff'),
      operator('owner'),
    ])
    const orderPage = async (who: Session) => (await admin(who, `/orders/${o.number}`)).text
    expect(await orderPage(viewer)).not.toContain(`action="/admin/api/orders/${o.number}/refund"`)
    expect(await orderPage(staff)).toContain(`action="/admin/api/orders/${o.number}/refund"`)
    expect((await admin(staff, '/coupons')).text).not.toContain('action="/admin/api/coupons"')
    expect((await admin(owner, '/coupons')).text).toContain('action="/admin/api/coupons"')
    // Every form a viewer's screens hold is the sign-out.
    for (const path of [
      '',
      '/orders',
      `/orders/${o.number}`,
      '/reviews',
      '/coupons',
      '/content',
      '/home',
      '/operations',
      '/operators',
    ])
      expect(((await admin(viewer, path)).text.match(/<form [^>]*method="post"/g) ?? []).length, path).toBe(1)
  })
})

describe('customers listed and searched', () => {
  it('finds an account by name or e-mail and a guest by e-mail or phone, with their orders', async () => {
    const viewer = await operator('viewer')
    const shopper = await registerAndLogin('forms-find', 'Secret123')
    const byName = await admin(viewer, `/customers?q=${encodeURIComponent('asha rao')}`)
    expect(byName.text).toContain(shopper.email)
    const guest = await paidOrder()
    const guestEmail = (
      await env.DB.prepare('SELECT customer_email FROM orders WHERE client_order_id = ?')
        .bind(guest.orderId)
        .first<{ customer_email: string }>()
    )?.customer_email as string
    const byPhone = await admin(viewer, `/customers?q=${encodeURIComponent('98765 00002')}`)
    expect(byPhone.text).toContain(guestEmail)
    expect(byPhone.text).not.toContain(shopper.email)
    const byEmail = await admin(viewer, `/customers?q=${encodeURIComponent(guestEmail.slice(0, 14))}`)
    expect(byEmail.text).toMatch(/<td>guest<\/td><td>1<\/td>/)
    // A guest's e-mail opens their orders, not a blank page.
    const page = await admin(viewer, `/customers?email=${encodeURIComponent(guestEmail)}`)
    expect(page.text).toContain(`<h2>${guestEmail}<!-- --> — guest (no account)</h2>`)
    expect(page.text).toContain(`href="/admin/orders/${guest.number}"`)
    // The operator's % and _ are letters, not wildcards.
    expect((await admin(viewer, '/customers?q=%25')).text).not.toContain(guestEmail)
  })
})
