// Ratings stay true under moderation: approving, rejecting or deleting a review changes the
// product's average and count on its listing tile, its page's JSON-LD and the search API at once
// (the change's own batch, the catalogue version and the cached pages), and nothing else.
import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { countRows } from '../../helpers/d1-rows'
import { api } from '../../helpers/user'
import { admin, operator } from './operator'

interface Product {
  id: number
  sku: string
  name: string
  url_path: string
}

/** An enabled, listed simple product nobody has reviewed (so its average is ours alone). */
async function unreviewedProduct(): Promise<Product> {
  const row = await env.DB.prepare(
    `SELECT id, sku, name, url_path FROM products p
     WHERE type_id = 'simple' AND status = 1 AND visibility = 4
       AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.product_id = p.id)
     ORDER BY id LIMIT 1`,
  ).first<Product>()
  if (!row) throw new Error('no unreviewed product in the demo catalogue')
  return row
}

let ip = 10
async function review(product: Product, rating: number | undefined): Promise<number> {
  const res = await api('/review/create', {
    body: {
      review: {
        product_id: product.id,
        title: `Stars ${rating}`,
        detail: 'Worn twice',
        nickname: 'Isha',
        rating,
      },
    },
    ip: `192.0.2.${++ip}`,
  })
  expect(res.status, JSON.stringify(res.json)).toBe(200)
  return res.json.result.id
}

/** The average the product's tile shows on the search listing of its name (null: no stars shown). */
async function tileAverage(product: Product): Promise<string | null> {
  const html = await SELF.fetch(`https://shop.test/search?q=${encodeURIComponent(product.name)}`).then((r) =>
    r.text(),
  )
  const start = html.indexOf(`data-sku="${product.sku}"`)
  expect(start, 'the product is listed').toBeGreaterThan(-1)
  const own = html.indexOf('data-testid="product-tile"', start)
  const next = html.indexOf('data-testid="product-tile"', own + 1)
  const tile = html.slice(start, next === -1 ? undefined : next)
  return /data-testid="rating" data-average="([\d.]+)"/.exec(tile)?.[1] ?? null
}

/** The aggregateRating the product page gives search engines, or null. */
async function pageRating(product: Product): Promise<{ ratingValue: unknown; reviewCount: unknown } | null> {
  const html = await SELF.fetch(`https://shop.test/${product.url_path}`).then((r) => r.text())
  const m = /"aggregateRating":(\{[^}]*\})/.exec(html)
  return m ? JSON.parse(m[1] as string) : null
}

async function storedRating(product: Product) {
  return env.DB.prepare(
    `SELECT json_extract(doc, '$.rating_summary') AS average, json_extract(doc, '$.review_count') AS count
     FROM products WHERE id = ?`,
  )
    .bind(product.id)
    .first<{ average: number | null; count: number | null }>()
}

describe('moderation keeps ratings true', () => {
  it('moves the tile, the page and the stored summary on approval, rejection and deletion', async () => {
    const staff = await operator('staff')
    const product = await unreviewedProduct()
    // Seen (and cached) before any review, so a stale page or memoised read would show up below.
    expect(await tileAverage(product)).toBeNull()
    expect(await pageRating(product)).toBeNull()

    const four = await review(product, 4)
    const two = await review(product, 2)
    const unrated = await review(product, undefined)
    // Pending reviews count for nothing.
    expect(await tileAverage(product)).toBeNull()

    expect((await admin(staff, `/api/reviews/${four}/approve`, { body: {} })).status).toBe(200)
    expect(await tileAverage(product)).toBe('4')
    expect(await pageRating(product)).toMatchObject({ ratingValue: 4, reviewCount: 1 })

    expect((await admin(staff, `/api/reviews/${two}/approve`, { body: {} })).status).toBe(200)
    expect(await tileAverage(product)).toBe('3')
    expect(await storedRating(product)).toEqual({ average: 3, count: 2 })

    // An approved review without stars does not pull the average; a rejected one changes nothing.
    expect((await admin(staff, `/api/reviews/${unrated}/approve`, { body: {} })).status).toBe(200)
    expect(await storedRating(product)).toEqual({ average: 3, count: 2 })
    const five = await review(product, 5)
    expect((await admin(staff, `/api/reviews/${five}/reject`, { body: {} })).status).toBe(200)
    expect(await storedRating(product)).toEqual({ average: 3, count: 2 })

    // Deleting an approved review takes it out of the average at once; a second delete is a 404.
    expect((await admin(staff, `/api/reviews/${two}/delete`, { body: {} })).status).toBe(200)
    expect(await tileAverage(product)).toBe('4')
    expect(await pageRating(product)).toMatchObject({ ratingValue: 4, reviewCount: 1 })
    expect((await admin(staff, `/api/reviews/${two}/delete`, { body: {} })).status).toBe(404)
    expect((await admin(staff, `/api/reviews/${four}/delete`, { body: {} })).status).toBe(200)
    expect(await tileAverage(product)).toBeNull()
    expect(await storedRating(product)).toEqual({ average: null, count: 0 })
  })

  it('lets only review moderators delete, and refuses a rating that is not 1–5 whole stars', async () => {
    const product = await unreviewedProduct()
    const id = await review(product, 5)
    const viewer = await operator('viewer')
    expect((await admin(viewer, `/api/reviews/${id}/delete`, { body: {} })).status).toBe(403)
    expect((await admin(null, `/api/reviews/${id}/delete`, { body: {} })).status).not.toBe(200)
    for (const rating of [0, 6, 4.5, '5', -1]) {
      const res = await api('/review/create', {
        body: { review: { product_id: product.id, title: 't', detail: 'd', nickname: 'n', rating } },
        ip: `192.0.2.${++ip}`,
      })
      expect(res.status, String(rating)).toBe(400)
      expect(res.json.result).toMatch(/rating/)
    }
    expect(await countRows('SELECT count(*) AS n FROM reviews WHERE id = ?', id)).toBe(1)
  })

  it('deletes a published review from the reviews page in two steps, recomputing the rating; never without the CSRF token or the role', async () => {
    const staff = await operator('staff')
    const viewer = await operator('viewer')
    const product = await unreviewedProduct()
    const three = await review(product, 3)
    const five = await review(product, 5)
    for (const id of [three, five])
      expect((await admin(staff, `/api/reviews/${id}/approve`, { body: {} })).status).toBe(200)
    expect(await storedRating(product)).toEqual({ average: 4, count: 2 })

    const page = await admin(staff, '/reviews')
    expect(page.status).toBe(200)
    const action = `/admin/api/reviews/${five}/delete`
    // The delete form sits behind a "Delete…" disclosure (the confirmation step) and carries the
    // fields a browser sends with it.
    const form = new RegExp(
      `<details><summary[^>]*>Delete…</summary>(?:(?!</details>).)*<form[^>]*action="${action}"[^>]*>(.*?)</form>`,
      's',
    ).exec(page.text)
    expect(form, 'a delete form behind a disclosure').toBeTruthy()
    const fields = [
      ...(form?.[1] ?? '').matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g),
    ].map((m) => [m[1], m[2]?.replace(/&amp;/g, '&')] as [string, string])
    expect(Object.fromEntries(fields)).toEqual({ _csrf: staff.csrf, return_to: '/admin/reviews' })
    const submit = (who: typeof staff, body: [string, string][]) =>
      SELF.fetch(`https://shop.test${action}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: who.cookie },
        body: new URLSearchParams(body),
      })

    // Without the token, or as a viewer (with the viewer's own token), nothing is deleted.
    expect(
      (
        await submit(
          staff,
          fields.filter(([k]) => k !== '_csrf'),
        )
      ).status,
    ).toBe(403)
    expect(
      (
        await submit(viewer, [
          ['_csrf', viewer.csrf],
          ['return_to', '/admin/reviews'],
        ])
      ).status,
    ).toBe(403)
    expect(await storedRating(product)).toEqual({ average: 4, count: 2 })

    const done = await submit(staff, fields)
    expect(done.status).toBe(303)
    expect(done.headers.get('location')).toBe('/admin/reviews')
    expect(await storedRating(product)).toEqual({ average: 3, count: 1 })
    expect(await tileAverage(product)).toBe('3')
    const after = await admin(staff, '/reviews')
    expect(after.text).not.toContain(action)
    expect(after.text).toContain(`/admin/api/reviews/${three}/delete`)
  })
})
