// The public review search: approved reviews only, and nothing that identifies the author's
// account (customer id, e-mail), neither in the answer nor as something a query can test.
import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { reviewStatement } from '../../../scripts/catalogue/seed/write'
import type { Review } from '../../../shared/schemas/catalog'
import { searchGet, searchPost } from '../../helpers/search-fixtures'
import { api, freshIp, registerAndLogin } from '../../helpers/user'

let productId: number
let customerId: number
let pendingId: number
const APPROVED_ID = 900_001
const REJECTED_ID = 900_002

beforeAll(async () => {
  const p = await env.DB.prepare('SELECT id FROM products WHERE status = 1 ORDER BY id LIMIT 1').first<{
    id: number
  }>()
  productId = p?.id as number
  const user = await registerAndLogin('reviewer')
  customerId = user.id
  // A signed-in customer's review: stored pending, with the customer id from the token.
  const created = await api('/review/create', {
    bearer: user.token,
    ip: freshIp(),
    body: {
      review: { product_id: productId, title: 'Pending', detail: 'Not yet moderated', nickname: 'Asha' },
    },
  })
  expect(created.status).toBe(200)
  pendingId = created.json.result.id
  // An approved and a rejected review carrying author fields (as an import or moderation leaves them).
  const base = {
    product_id: productId,
    detail: 'Lovely fabric',
    nickname: 'Asha',
    review_entity: 'product',
    created_at: '2026-11-01 10:00:00',
    customer_id: customerId,
    customer_email: user.email,
    author: { customer_id: customerId, email: user.email, city: 'Pune' },
  }
  await env.DB.batch([
    reviewStatement(env.DB, { ...base, id: APPROVED_ID, title: 'Approved', review_status: 1 } as Review),
    reviewStatement(env.DB, { ...base, id: REJECTED_ID, title: 'Rejected', review_status: 3 } as Review),
  ])
})

// biome-ignore lint/suspicious/noExplicitAny: hits are read field by field
const sources = (json: any): Record<string, unknown>[] => json.hits.hits.map((h: any) => h._source)

describe('public review search', () => {
  it('returns approved reviews only, however the query is written', async () => {
    const queries: unknown[] = [
      {},
      { query: { terms: { product_id: [productId] } } },
      { query: { bool: { filter: { bool: { must: [{ terms: { product_id: [productId] } }] } } } } },
      { query: { terms: { review_status: [2, 3] } } },
      { query: { bool: { must_not: [{ terms: { review_status: [1] } }] } } },
      { query: { match: { title: 'pending' } } },
    ]
    for (const q of queries) {
      const { status, json } = await searchGet('review', { size: 500, ...(q as object) })
      expect(status, JSON.stringify(q)).toBe(200)
      for (const s of sources(json)) expect(s.review_status, JSON.stringify(q)).toBe(1)
      const ids = sources(json).map((s) => s.id)
      expect(ids).not.toContain(pendingId)
      expect(ids).not.toContain(REJECTED_ID)
    }
    const mine = await searchGet('review', { query: { terms: { product_id: [productId] } }, size: 500 })
    expect(sources(mine.json).map((s) => s.id)).toContain(APPROVED_ID)
    const statuses = await searchPost('review', {
      size: 0,
      aggs: { s: { terms: { field: 'review_status' } } },
    })
    expect(statuses.json.aggregations.s.buckets.map((b: { key: number }) => b.key)).toEqual([1])
  })

  it('never returns the author’s customer id or e-mail, even when asked for them', async () => {
    const asked = await searchGet(
      'review',
      { query: { terms: { product_id: [productId] } }, size: 500 },
      { _source_include: 'id,title,customer_id,customer_email,author,*email*' },
    )
    const approved = sources(asked.json).find((s) => s.id === APPROVED_ID)
    expect(approved).toEqual({ id: APPROVED_ID, title: 'Approved', author: { city: 'Pune' } })
    const all = await searchGet('review', { size: 500 })
    expect(JSON.stringify(all.json)).not.toMatch(/customer_id|customer_email|"email"/)
    expect(JSON.stringify(all.json)).not.toContain('@example.com')
  })

  it('cannot be used to probe a customer’s reviews by id or e-mail', async () => {
    const probes: unknown[] = [
      { terms: { customer_id: [customerId] } },
      { exists: { field: 'customer_id' } },
      { exists: { field: 'author.email' } },
      { range: { customer_id: { gte: 0 } } },
      { terms: { 'author.customer_id': [customerId] } },
    ]
    for (const query of probes) {
      const { status, json } = await searchGet('review', { query })
      expect(status).toBe(200)
      expect(json.hits.total, JSON.stringify(query)).toBe(0)
    }
  })
})
