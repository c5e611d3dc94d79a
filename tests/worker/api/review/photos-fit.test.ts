// Reviews with photographs, a fit answer and a verified-buyer mark: photographs are bounded before
// their body is read and stay unseen until an operator approves the review; approval publishes
// them, shows them on the product page with the fit summary beside the size picker, and the
// verified mark comes from a delivered order only, never from the request.
import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { PHOTOS_PER_ADDRESS } from '../../../../worker/api/review/photos'
import { seedCartFixtures } from '../../../helpers/cart-fixtures'
import { SAMPLE_JPEG } from '../../../helpers/images'
import { api, type Json, registerAndLogin } from '../../../helpers/user'
import { admin, operator } from '../../admin/operator'

let ipN = 0
const nextIp = () => `203.0.113.${++ipN}`

async function upload(body: BodyInit, ip: string, headers: Record<string, string> = {}) {
  const res = await SELF.fetch('https://shop.test/api/review/photo', {
    method: 'POST',
    headers: { 'cf-connecting-ip': ip, ...headers },
    body,
  })
  return { status: res.status, json: (await res.json()) as Json }
}

/** A different picture each call (a JPEG whose trailing comment differs), so each has its own name. */
let variant = 0
function jpeg(): Uint8Array<ArrayBuffer> {
  const tail = new TextEncoder().encode(`variant ${++variant} ${Math.random()}`)
  const out = new Uint8Array(new ArrayBuffer(SAMPLE_JPEG.length + tail.length))
  out.set(SAMPLE_JPEG)
  out.set(tail, SAMPLE_JPEG.length)
  return out
}

interface Product {
  id: number
  sku: string
  url_path: string
}

/** A listed configurable product with a size option that nobody has reviewed. */
async function unreviewedSized(skip = 0): Promise<Product> {
  const row = await env.DB.prepare(
    `SELECT id, sku, url_path FROM products p
     WHERE type_id = 'configurable' AND status = 1 AND visibility = 4
       AND EXISTS (SELECT 1 FROM json_each(p.doc, '$.configurable_options') o
                   WHERE json_extract(o.value, '$.attribute_code') = 'size')
       AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.product_id = p.id)
     ORDER BY id LIMIT 1 OFFSET ?`,
  )
    .bind(skip)
    .first<Product>()
  if (!row) throw new Error('no unreviewed sized product in the demo catalogue')
  return row
}

async function create(review: Record<string, unknown>, opts: { bearer?: string; ip?: string } = {}) {
  return api('/review/create', {
    body: { review: { title: 'Lovely drape', detail: 'Wore it to a wedding', nickname: 'Meera', ...review } },
    ip: opts.ip ?? nextIp(),
    bearer: opts.bearer,
  })
}

const reviewDoc = async (id: number) =>
  JSON.parse(
    (await env.DB.prepare('SELECT doc FROM reviews WHERE id = ?').bind(id).first<{ doc: string }>())?.doc ??
      'null',
  )

describe('review photographs', () => {
  it('stores a JPEG unseen until approval, refuses what is not a picture or too large, and bounds an address', async () => {
    const ip = nextIp()
    const ok = await upload(jpeg(), ip)
    expect(ok.status, JSON.stringify(ok.json)).toBe(200)
    const path: string = ok.json.result.photo
    expect(path).toMatch(/^\/r\/[0-9a-f]{24}\.jpg$/)
    // Waiting for moderation: stored, but neither its public key nor any image URL serves it.
    const name = path.slice(3, -4)
    expect(await env.CATALOGUE_IMAGES.head(`review-pending/${name}`)).not.toBeNull()
    expect(await env.CATALOGUE_IMAGES.head(path.slice(1))).toBeNull()
    expect((await SELF.fetch(`https://shop.test/img/150/150${path}`)).status).toBe(404)
    expect((await SELF.fetch(`https://shop.test/img/150/150/review-pending/${name}`)).status).toBe(404)

    const html = await upload('<svg onload="alert(1)"/>', ip, { 'content-type': 'image/jpeg' })
    expect(html.status).toBe(415)
    expect(html.json.result).toMatch(/not a photograph we can show/)
    const big = await upload(new Uint8Array(1_000_001), ip)
    expect(big.status).toBe(413)
    expect(big.json.result).toMatch(/too large/)
  })

  it('refuses the photograph after the limit from one address before reading it (1,000 uploads store at most the limit)', async () => {
    const ip = nextIp()
    // Junk bodies still count: the limit is reserved before the body is read.
    for (let i = 0; i < PHOTOS_PER_ADDRESS; i++) expect((await upload('x', ip)).status).toBe(415)
    const picture = jpeg()
    const refused = await upload(picture, ip)
    expect(refused.status).toBe(429)
    expect(refused.json.result).toMatch(/Too many photographs/)
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', picture))
    const name = [...digest.slice(0, 12)].map((b) => b.toString(16).padStart(2, '0')).join('')
    expect(await env.CATALOGUE_IMAGES.head(`review-pending/${name}`)).toBeNull()
    // Another address is not held back by this one.
    expect((await upload(jpeg(), nextIp())).status).toBe(200)
  })

  it('refuses photographs that were never uploaded, more than three, and a fit that is not an answer, in words', async () => {
    const product = await unreviewedSized()
    const never = await create({ product_id: product.id, photos: [`/r/${'a'.repeat(24)}.jpg`] })
    expect(never.status).toBe(400)
    expect(never.json.result).toMatch(/was not received/)
    const paths: string[] = []
    for (let i = 0; i < 4; i++) paths.push((await upload(jpeg(), nextIp())).json.result.photo)
    const four = await create({ product_id: product.id, photos: paths })
    expect(four.status).toBe(400)
    expect(four.json.result).toMatch(/at most 3 photographs/)
    const foreign = await create({ product_id: product.id, photos: ['https://evil.test/x.jpg'] })
    expect(foreign.status).toBe(400)
    const fit = await create({ product_id: product.id, fit: 'tight' })
    expect(fit.status).toBe(400)
    expect(fit.json.result).toMatch(/how the piece fits/)
    const row = await env.DB.prepare('SELECT count(*) AS n FROM reviews WHERE product_id = ?')
      .bind(product.id)
      .first<{ n: number }>()
    expect(row?.n).toBe(0)
  })
})

describe('a review with a photograph and a fit, moderated', () => {
  it('shows the photograph to the moderator, publishes it on approval with the fit summary beside the size picker', async () => {
    const staff = await operator('staff')
    const product = await unreviewedSized(1)
    const photo: string = (await upload(jpeg(), nextIp())).json.result.photo
    const small = await create({ product_id: product.id, fit: 'small', photos: [photo], rating: 4 })
    expect(small.status, JSON.stringify(small.json)).toBe(200)
    const trueFit = await create({ product_id: product.id, fit: 'true_to_size', rating: 5 })
    const secondSmall = await create({ product_id: product.id, fit: 'small', rating: 3 })

    // The moderator sees the photograph and the fit; nobody else can fetch the waiting picture.
    const screen = await admin(staff, '/reviews')
    expect(screen.text).toContain('Fit: Runs small')
    const adminPhoto = `/admin/reviews/photo/${photo.slice(3)}`
    expect(screen.text).toContain(`src="${adminPhoto}"`)
    const seen = await admin(staff, adminPhoto.replace('/admin', ''))
    expect(seen.status).toBe(200)
    expect(seen.headers.get('content-type')).toBe('image/jpeg')
    expect((await SELF.fetch(`https://shop.test${adminPhoto}`, { redirect: 'manual' })).status).not.toBe(200)

    // Pending: the product page shows neither the photograph nor a fit summary.
    const before = await SELF.fetch(`https://shop.test/${product.url_path}`).then((r) => r.text())
    expect(before).not.toContain('data-testid="fit-summary"')

    for (const id of [small.json.result.id, trueFit.json.result.id, secondSmall.json.result.id])
      expect((await admin(staff, `/api/reviews/${id}/approve`, { body: {} })).status).toBe(200)
    expect(await env.CATALOGUE_IMAGES.head(photo.slice(1))).not.toBeNull()
    expect((await SELF.fetch(`https://shop.test/img/150/150${photo}`)).status).toBe(200)

    const page = await SELF.fetch(`https://shop.test/${product.url_path}`).then((r) => r.text())
    const fit =
      /<p class="fit-note" data-testid="fit-summary" data-fit="(\w+)"><a href="#reviews-title">([^<]+)<\/a>/.exec(
        page,
      )
    expect(fit?.slice(1)).toEqual(['small', 'Most reviewers say: runs small (2 of 3)'])
    // Beside the size picker: before the product form, after the name.
    expect(page.indexOf('data-testid="fit-summary"')).toBeLessThan(page.indexOf('data-island="product-form"'))
    expect(page).toContain(`src="/img/150/150${photo}"`)
    expect(page).toContain('Fit: <!-- -->Runs small')
    const stored = await env.DB.prepare(
      `SELECT json_extract(doc, '$.fit_summary') AS f FROM products WHERE id = ?`,
    )
      .bind(product.id)
      .first<{ f: string }>()
    expect(JSON.parse(stored?.f ?? '{}')).toEqual({ small: 2, true_to_size: 1, large: 0 })

    // Deleting a review takes its answer out of the summary.
    await admin(staff, `/api/reviews/${secondSmall.json.result.id}/delete`, { body: {} })
    const after = await SELF.fetch(`https://shop.test/${product.url_path}`).then((r) => r.text())
    expect(after).toContain('data-fit="true_to_size"')
  })
})

describe('verified buyer', () => {
  it('marks a reviewer with a delivered order of the product, and never one who says so in the body', async () => {
    await seedCartFixtures()
    const buyer = await registerAndLogin('buyer')
    const scarf = { id: 990101, sku: 'FX-SCARF' }
    const orderId = `verified-${Math.random().toString(36).slice(2, 10)}`
    const placedAt = '2026-01-01 10:00:00'
    await env.DB.batch([
      env.DB.prepare(
        `INSERT INTO orders (client_order_id, increment_id, customer_id, customer_email, access_key_hash, status,
           payment_method, grand_total, doc, result, created_at)
         VALUES (?1, ?2, ?3, ?4, 'x', 'shipped', 'cashondelivery', 1000, '{}', '{}', ?5)`,
      ).bind(orderId, `V${Date.now()}`, buyer.id, buyer.email, placedAt),
      env.DB.prepare(
        `INSERT INTO order_items (client_order_id, sku, product_id, qty, price_incl_tax) VALUES (?, ?, ?, 1, 1000)`,
      ).bind(orderId, scarf.sku, scarf.id),
    ])
    // Shipped is not received yet.
    const early = await create({ product_id: scarf.id, customer_id: buyer.id }, { bearer: buyer.token })
    expect(early.status, JSON.stringify(early.json)).toBe(200)
    expect((await reviewDoc(early.json.result.id)).verified_buyer).toBeUndefined()

    await env.DB.prepare(`UPDATE orders SET status = 'delivered' WHERE client_order_id = ?`)
      .bind(orderId)
      .run()
    const verified = await create({ product_id: scarf.id, customer_id: buyer.id }, { bearer: buyer.token })
    expect((await reviewDoc(verified.json.result.id)).verified_buyer).toBe(true)

    // A guest, or another customer, claiming it in the body is not marked.
    const guest = await create({ product_id: scarf.id, verified_buyer: true })
    expect(guest.status).toBe(200)
    expect((await reviewDoc(guest.json.result.id)).verified_buyer).toBeUndefined()
    const other = await registerAndLogin('other')
    const claim = await create({ product_id: scarf.id, verified_buyer: true }, { bearer: other.token })
    expect((await reviewDoc(claim.json.result.id)).verified_buyer).toBeUndefined()
    // Someone else's customer id in the body is refused outright.
    expect(
      (await create({ product_id: scarf.id, customer_id: buyer.id }, { bearer: other.token })).status,
    ).toBe(403)
  })
})
