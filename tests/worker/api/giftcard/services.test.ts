// Store credit, reviews, newsletter, mail service and wishlist.
import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { grantStoreCredit } from '../../../../worker/api/giftcard/routes'
import { api, freshIp, registerAndLogin } from '../../../helpers/user'

const PRODUCT_ID = 990_001
const OTHER_PRODUCT_ID = 990_002

beforeAll(async () => {
  for (const [id, sku] of [
    [PRODUCT_ID, 'FIXTURE-SAREE'],
    [OTHER_PRODUCT_ID, 'FIXTURE-KURTA'],
  ] as const) {
    await env.DB.prepare(
      `INSERT OR IGNORE INTO products (id, sku, type_id, name, price, created_at, updated_at, url_path, slug, doc)
       VALUES (?, ?, 'simple', ?, 1000, '2026-01-01 00:00:00', '2026-01-01 00:00:00', ?, ?, ?)`,
    )
      .bind(
        id,
        sku,
        sku,
        sku.toLowerCase(),
        sku.toLowerCase(),
        JSON.stringify({ id, sku, name: sku, type_id: 'simple' }),
      )
      .run()
  }
})

describe('store credit', () => {
  it('lists the ledger and the balance; other users see only their own', async () => {
    const a = await registerAndLogin('credit-a')
    const b = await registerAndLogin('credit-b')
    await grantStoreCredit(env.DB, a.id, 1500, 'Welcome credit', Date.now())
    const mine = await api(`/giftcard/store-credit-transaction?token=${a.token}`)
    expect(mine.status).toBe(200)
    expect(mine.headers.get('cache-control')).toBe('no-store')
    expect(mine.json.result.total_balance).toBe(1500)
    expect(mine.json.result.items[0]).toMatchObject({
      amount: 1500,
      balance: 1500,
      comment: 'Welcome credit',
    })
    const theirs = await api(`/giftcard/store-credit-transaction?token=${b.token}`)
    expect(theirs.json.result).toEqual({ items: [], total_balance: 0 })
    expect((await api('/giftcard/store-credit-transaction')).status).toBe(401)
    expect((await api('/giftcard/store-credit-spending', { body: { amount: 1 } })).status).toBe(401)
  })

  it('never goes below zero under concurrent spends', async () => {
    const user = await registerAndLogin('credit-race')
    await grantStoreCredit(env.DB, user.id, 1000, 'Refund', Date.now())
    const spends = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        api(`/giftcard/store-credit-spending?token=${user.token}`, {
          body: { amount: 300, order_id: `race-${i}` },
        }),
      ),
    )
    const succeeded = spends.filter((s) => s.status === 200)
    expect(succeeded).toHaveLength(3)
    for (const s of spends.filter((x) => x.status !== 200)) {
      expect(s.status).toBe(400)
      expect(s.json.result).toBe('Insufficient store credit balance.')
    }
    const row = await env.DB.prepare('SELECT balance_minor FROM store_credit WHERE customer_id = ?')
      .bind(user.id)
      .first<{ balance_minor: number }>()
    expect(row?.balance_minor).toBe(10_000)
    const ledger = await api(`/giftcard/store-credit-transaction?token=${user.token}`)
    expect(ledger.json.result.total_balance).toBe(100)
    expect(ledger.json.result.items).toHaveLength(4)
  })

  it('refuses spending without any credit, and invalid amounts', async () => {
    const user = await registerAndLogin('credit-none')
    const none = await api(`/giftcard/store-credit-spending?token=${user.token}`, { body: { amount: 1 } })
    expect(none.status).toBe(400)
    const negative = await api(`/giftcard/store-credit-spending?token=${user.token}`, {
      body: { amount: -5 },
    })
    expect(negative.status).toBe(400)
    expect(negative.json.result).toContain('amount')
  })
})

describe('reviews', () => {
  it('stores a review as pending (status 2) with the customer from the token', async () => {
    const user = await registerAndLogin('review')
    const res = await api(`/review/create?token=${user.token}`, {
      body: {
        review: {
          product_id: PRODUCT_ID,
          title: 'Lovely',
          detail: 'Soft silk',
          nickname: 'Asha',
          review_entity: 'product',
        },
      },
      ip: freshIp(),
    })
    expect(res.status).toBe(200)
    const row = await env.DB.prepare('SELECT review_status, doc FROM reviews WHERE id = ?')
      .bind(res.json.result.id)
      .first<{ review_status: number; doc: string }>()
    expect(row?.review_status).toBe(2)
    expect(JSON.parse(row?.doc ?? '{}')).toMatchObject({
      customer_id: user.id,
      title: 'Lovely',
      id: res.json.result.id,
    })
  })

  it("refuses someone else's customer_id, unknown products and incomplete reviews", async () => {
    const user = await registerAndLogin('review-bad')
    const review = {
      product_id: PRODUCT_ID,
      title: 'T',
      detail: 'D',
      nickname: 'N',
      review_entity: 'product',
    }
    expect(
      (await api('/review/create', { body: { review: { ...review, customer_id: user.id } }, ip: freshIp() }))
        .status,
    ).toBe(403)
    expect(
      (await api('/review/create', { body: { review: { ...review, product_id: 123456789 } }, ip: freshIp() }))
        .status,
    ).toBe(404)
    const missing = await api('/review/create', {
      body: { review: { product_id: PRODUCT_ID } },
      ip: freshIp(),
    })
    expect(missing.status).toBe(400)
    expect(missing.json.result).toContain('title')
  })
})

describe('newsletter (D1 list)', () => {
  it('a sign-up waits for confirmation; a stranger neither reads nor removes it', async () => {
    const email = 'reader@example.com'
    expect((await api(`/ext/mailchimp-subscribe/subscribe?email=${email}`)).json.result).toBe('unsubscribed')
    expect((await api('/ext/mailchimp-subscribe/subscribe', { body: { email } })).json.result).toBe('pending')
    const del = await api('/ext/mailchimp-subscribe/subscribe', { method: 'DELETE', body: { email } })
    expect(del.status).toBe(403)
    expect((await api('/ext/mailchimp-subscribe/subscribe', { body: { email: 'nope' } })).status).toBe(400)
  })
})

describe('mail service', () => {
  const mail = (token: string, targetAddress = 'care@ode-atelier.example') => ({
    sourceAddress: 'shopper@example.com',
    targetAddress,
    subject: 'Question about my order',
    emailText: 'Hello!',
    token,
  })

  it('needs a token, uses it once, and queues the mail in the outbox', async () => {
    const ip = freshIp()
    expect((await api('/ext/mail-service/send-email', { body: mail('made-up'), ip })).status).toBe(401)
    const token = (await api('/ext/mail-service/get-token', { ip })).json.result as string
    const sent = await api('/ext/mail-service/send-email', { body: mail(token), ip })
    expect(sent.status).toBe(200)
    expect(sent.json.result).toBe('queued')
    const again = await api('/ext/mail-service/send-email', { body: mail(token), ip })
    expect(again.status).toBe(401)
    const row = await env.DB.prepare("SELECT * FROM mail_outbox WHERE kind = 'contact' AND subject = ?")
      .bind('Question about my order')
      .first<{ target_address: string; source_address: string; status: string }>()
    expect(row).toMatchObject({
      target_address: 'care@ode-atelier.example',
      source_address: 'shopper@example.com',
      status: 'queued',
    })
  })

  it('refuses recipients outside the whitelist; a customer may mail only their own address', async () => {
    const ip = freshIp()
    const user = await registerAndLogin('mailer')
    const token1 = (await api('/ext/mail-service/get-token', { ip })).json.result as string
    expect(
      (await api('/ext/mail-service/send-email', { body: mail(token1, 'victim@example.com'), ip })).status,
    ).toBe(403)
    expect((await api('/ext/mail-service/send-email', { body: mail(token1, user.email), ip })).status).toBe(
      403,
    )
    const own = await api(`/ext/mail-service/send-email?token=${user.token}`, {
      body: mail(token1, user.email),
      ip,
    })
    expect(own.status).toBe(200)
  })
})

describe('wishlist', () => {
  it('adds, lists and removes products for the token owner only', async () => {
    const a = await registerAndLogin('wish-a')
    const b = await registerAndLogin('wish-b')
    const added = await api(`/wishlist/add-wishlist?token=${a.token}`, {
      body: { user_id: a.id, item_id: PRODUCT_ID },
    })
    expect(added.status).toBe(200)
    expect(added.json.result).toEqual([
      expect.objectContaining({ id: PRODUCT_ID, sku: 'FIXTURE-SAREE', qty: 1 }),
    ])
    await api(`/wishlist/add-wishlist?token=${a.token}`, {
      body: { user_id: a.id, item_id: OTHER_PRODUCT_ID },
    })
    const history = await api(`/wishlist/show-wishlist-history?token=${a.token}`, { body: { user_id: a.id } })
    expect(history.json.result.map((p: { id: number }) => p.id).sort()).toEqual([
      PRODUCT_ID,
      OTHER_PRODUCT_ID,
    ])
    // B cannot read or change A's wishlist by naming A's id.
    expect(
      (await api(`/wishlist/show-wishlist-history?token=${b.token}`, { body: { user_id: a.id } })).status,
    ).toBe(403)
    expect(
      (
        await api(`/wishlist/remove-wishlist?token=${b.token}`, {
          body: { user_id: a.id, item_id: PRODUCT_ID },
        })
      ).status,
    ).toBe(403)
    expect((await api('/wishlist/show-wishlist-history', { body: { user_id: a.id } })).status).toBe(401)
    const removed = await api(`/wishlist/remove-wishlist?token=${a.token}`, {
      body: { user_id: a.id, item_id: PRODUCT_ID },
    })
    expect(removed.json.result.map((p: { id: number }) => p.id)).toEqual([OTHER_PRODUCT_ID])
    const bList = await api(`/wishlist/show-wishlist-history?token=${b.token}`, { body: { user_id: b.id } })
    expect(bList.json.result).toEqual([])
  })
})
