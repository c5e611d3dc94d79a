// Product authoring as an operator does it from the back office's forms: a configurable kurta in
// three colours × five sizes created as a draft (not on the shop), published (on the shop at the
// next request: its page, the search, an order of one size), one price the variants follow unless
// a variant's own price is typed, refusals beside their field with what was typed, and two edits
// of one product from the same page: the second is refused whole instead of undoing the first.
import { env, SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { matrixOptions } from '../../../worker/admin/authoring'
import { SAMPLE_JPEG } from '../../helpers/images'
import { deliverTo, freshEmail, testAddress } from '../../helpers/orders'
import { api } from '../../helpers/user'
import { usedUploadAllowance } from './media-helpers'
import {
  admin,
  kurtasCategory,
  operator,
  post,
  productBySku,
  type Session,
  simpleProductForm,
} from './operator'

let owner: Session
let category: { id: number; url_path: string }
let colours: { id: number; label: string }[]
let sizes: { id: number; label: string }[]
let n = 0

beforeAll(async () => {
  owner = await operator('staff')
  category = await kurtasCategory()
  const options = await matrixOptions(env.DB)
  colours = options.colours.slice(0, 3)
  sizes = options.sizes.slice(0, 5)
})

/** The fields of the authoring form for a kurta in the three colours × five sizes. */
function kurtaForm(sku: string, extra: [string, string][] = []): [string, string][] {
  return [
    ['type_id', 'configurable'],
    ['sku', sku],
    ['name', `Chanderi Kurta ${sku}`],
    ['designer_name', 'Meera Rao'],
    [
      'description',
      '<p>Hand-woven <b>chanderi</b>.</p><script>alert(1)</script><img src=x onerror=alert(1)>',
    ],
    ['fabric', 'Chanderi silk-cotton'],
    ['care', 'Dry clean'],
    ['hsn_code', '6204'],
    ['category_id', String(category.id)],
    ['price', '2,400'],
    ['qty', '4'],
    ['delivery_days', '21'],
    ['meta_title', 'Chanderi kurta'],
    ...colours.map((c) => [`colour_${c.id}`, 'on'] as [string, string]),
    ...sizes.map((s) => [`size_${s.id}`, 'on'] as [string, string]),
    ...extra,
  ]
}

async function createKurta(extra: [string, string][] = []) {
  const sku = `KRT${Date.now() % 100000}${++n}`
  const res = await post(
    owner,
    '/api/products/authoring',
    '/admin/products/new?type=configurable',
    kurtaForm(sku, extra),
  )
  expect(res.status, res.text.slice(0, 400)).toBe(303)
  const row = await productBySku(sku)
  expect(res.location).toBe(`/admin/products/${row?.id}/edit`)
  return { sku, row: row as NonNullable<typeof row> }
}

/** Publishes a kurta from its edit page opened at `revision`. */
const publishKurta = (sku: string, id: number, revision: number) =>
  post(
    owner,
    `/api/products/${id}/authoring`,
    `/admin/products/${id}/edit`,
    kurtaForm(sku, [
      ['status', 'published'],
      ['revision', String(revision)],
    ]),
  )

describe('a configurable product authored in the back office', () => {
  it('is created as a draft: 15 variants, one price, not on the shop until published', async () => {
    const { sku, row } = await createKurta()
    const doc = JSON.parse(row.doc)
    expect(row.status).toBe(2)
    expect(doc.configurable_children).toHaveLength(15)
    expect(new Set(doc.configurable_children.map((c: { price: number }) => c.price))).toEqual(new Set([2400]))
    expect(doc.price).toBe(2400)
    expect(doc.hsn_code).toBe('6204')
    expect(doc.delivery_days).toBe(21)
    // A lead time makes it made to order: no ready units, estimated from the lead time.
    expect(doc.rts_delivery_time ?? null).toBeNull()
    expect(doc.configurable_children.every((c: { rts_qty: unknown }) => c.rts_qty == null)).toBe(true)
    // The description keeps the allowed markup only.
    expect(doc.description).toContain('<b>chanderi</b>')
    expect(doc.description).not.toMatch(/script|onerror/)
    const stock = await env.DB.prepare(
      'SELECT COUNT(*) AS n, SUM(qty) AS qty FROM inventory WHERE parent_sku = ?',
    )
      .bind(sku)
      .first<{ n: number; qty: number }>()
    expect(stock).toEqual({ n: 15, qty: 60 })
    expect(await env.URL_MAPPINGS.get(row.url_path)).toBeNull()
    expect((await SELF.fetch(`https://shop.test/${row.url_path}`)).status).toBe(404)
  })

  it('once published is on the shop at the next request: its page, the search, an order of one size', async () => {
    const { sku, row } = await createKurta()
    const name = `Chanderi Kurta ${sku}`
    // Seen once while a draft, so a cached page would show the stale answer.
    expect((await SELF.fetch(`https://shop.test/${row.url_path}`)).status).toBe(404)
    const publish = await publishKurta(sku, row.id, row.revision)
    expect(publish.status, publish.text.slice(0, 400)).toBe(303)
    const page = await SELF.fetch(`https://shop.test/${row.url_path}`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain(name)
    const search = await SELF.fetch(`https://shop.test/search?q=${encodeURIComponent(sku.toLowerCase())}`)
    expect(await search.text()).toContain(name)
    const size = `${sku}-${colours[1]?.label.toUpperCase().replace(/[^A-Z0-9]/g, '')}-${sizes[2]?.label.toUpperCase().replace(/[^A-Z0-9]/g, '')}`
    const order = await api('/order', {
      body: {
        order_id: `authoring-${sku}`,
        user_id: '',
        cart_id: '',
        products: [{ sku: size, qty: 1, price: 2400, parentSku: sku }],
        addressInformation: deliverTo(testAddress(freshEmail('authoring'))),
      },
    })
    expect(order.status, JSON.stringify(order.json)).toBe(200)
    const left = await env.DB.prepare('SELECT qty FROM inventory WHERE sku = ?')
      .bind(size)
      .first<{ qty: number }>()
    expect(left?.qty).toBe(3)
  })

  it("a variant's own price overrides the product's; below it is refused beside the field, values kept", async () => {
    const { sku, row } = await createKurta()
    const [c, s] = [colours[0]?.id, sizes[4]?.id]
    const back = `/admin/products/${row.id}/edit`
    const low = await post(owner, `/api/products/${row.id}/authoring`, back, [
      ...kurtaForm(sku, [['revision', String(row.revision)]]),
      [`v_${c}_${s}_price`, '2,000'],
    ])
    expect(low.status).toBe(400)
    expect(low.type).toContain('text/html')
    expect(low.text).toMatch(/<input[^>]*aria-invalid="true"[^>]*name="v_\d+_\d+_price" value="2,000"/)
    expect(low.text).toContain('must not be below the product&#x27;s price')
    const high = await post(owner, `/api/products/${row.id}/authoring`, back, [
      ...kurtaForm(sku, [['revision', String(row.revision)]]),
      [`v_${c}_${s}_price`, '2,640'],
    ])
    expect(high.status, high.text.slice(0, 300)).toBe(303)
    const doc = JSON.parse((await productBySku(sku))?.doc as string)
    const prices = doc.configurable_children.map((ch: { color: number; size: number; price: number }) =>
      ch.color === c && ch.size === s ? ['own', ch.price] : ['follows', ch.price],
    )
    expect(prices.filter((p: unknown[]) => p[0] === 'own')).toEqual([['own', 2640]])
    expect(new Set(prices.filter((p: unknown[]) => p[0] === 'follows').map((p: unknown[]) => p[1]))).toEqual(
      new Set([2400]),
    )
  })

  it('refuses a SKU another product has, beside the SKU field, writing nothing', async () => {
    const taken = await env.DB.prepare("SELECT sku FROM products WHERE type_id = 'simple' LIMIT 1").first<{
      sku: string
    }>()
    const before = await env.DB.prepare('SELECT COUNT(*) AS n FROM products').first<{ n: number }>()
    const res = await post(
      owner,
      '/api/products/authoring',
      '/admin/products/new?type=configurable',
      kurtaForm(taken?.sku as string),
    )
    expect(res.status).toBe(400)
    expect(res.text).toMatch(/<input[^>]*aria-invalid="true" name="sku" value="[^"]+"/)
    expect(res.text).toContain(`SKU ${taken?.sku} is already another product&#x27;s`)
    expect(await env.DB.prepare('SELECT COUNT(*) AS n FROM products').first<{ n: number }>()).toEqual(before)
  })

  it('a role without the catalogue permission is refused and shown no form', async () => {
    const viewer = await operator('viewer')
    const res = await admin(viewer, '/api/products/authoring', { body: { type_id: 'simple' } })
    expect(res.status).toBe(403)
    const page = await admin(viewer, '/products/new?type=configurable')
    expect(page.status).toBe(200)
    expect(page.text).not.toContain('action="/admin/api/products/authoring"')
  })
})

describe('a simple product authored in the back office', () => {
  it('is published with its own stock and found on the shop; its stock stays counted', async () => {
    const sku = `STL${Date.now() % 100000}${++n}`
    const stole = { sku, name: `Mulmul Stole ${sku}`, category: category.id, price: '₹ 1,250.50', qty: '2' }
    const res = await post(
      owner,
      '/api/products/authoring',
      '/admin/products/new?type=simple',
      simpleProductForm(stole, [['status', 'published']]),
    )
    expect(res.status, res.text.slice(0, 300)).toBe(303)
    const row = await productBySku(sku)
    expect(JSON.parse(row?.doc as string)).toMatchObject({
      type_id: 'simple',
      price: 1250.5,
      configurable_children: [],
    })
    expect(
      await env.DB.prepare('SELECT qty, manage_stock FROM inventory WHERE sku = ?').bind(sku).first(),
    ).toEqual({
      qty: 2,
      manage_stock: 1,
    })
    const page = await SELF.fetch(`https://shop.test/${row?.url_path}`)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(html).toContain(`Mulmul Stole ${sku}`)
    // Without a made-to-order lead time it ships from its stock: the page gives the ready-to-ship
    // delivery estimate, as the shop's stocked pieces do.
    expect(deliveryLine(html)).toBe('Estimated delivery: 2-3 business days')
  })
})

/** The text of the product page's delivery line ('' when the page has none). */
function deliveryLine(html: string): string {
  const p = /<p[^>]*data-testid="estimated-delivery"[^>]*>([\s\S]*?)<\/p>/.exec(html)?.[1] ?? ''
  return p.replace(/<!--[\s\S]*?-->|<[^>]+>/g, '').trim()
}

describe('concurrent edits of one product', () => {
  it('the second save from the same page is refused whole (409), the first one stays', async () => {
    const { sku, row } = await createKurta()
    const back = `/admin/products/${row.id}/edit`
    const edit = (name: string, price: string) =>
      post(owner, `/api/products/${row.id}/authoring`, back, [
        ...kurtaForm(sku, [['revision', String(row.revision)]]).filter(
          ([k]) => k !== 'name' && k !== 'price',
        ),
        ['name', name],
        ['price', price],
      ])
    const first = await edit('Kurta as Asha saved it', '2,500')
    expect(first.status).toBe(303)
    const second = await edit('Kurta as Ravi saved it', '2,200')
    expect(second.status).toBe(409)
    expect(second.text).toContain('saved by someone else after you opened it')
    const doc = JSON.parse((await productBySku(sku))?.doc as string)
    expect([doc.name, doc.price]).toEqual(['Kurta as Asha saved it', 2500])
  })

  it('of two saves racing from the same revision exactly one is stored', async () => {
    const { sku, row } = await createKurta()
    const back = `/admin/products/${row.id}/edit`
    const results = await Promise.all(
      ['A', 'B', 'C'].map((who) =>
        post(owner, `/api/products/${row.id}/authoring`, back, [
          ...kurtaForm(sku, [['revision', String(row.revision)]]).filter(([k]) => k !== 'name'),
          ['name', `Kurta by ${who}`],
        ]),
      ),
    )
    expect(results.map((r) => r.status).sort()).toEqual([303, 409, 409])
    const after = await productBySku(sku)
    expect(after?.revision).toBe(row.revision + 1)
    const winner = ['A', 'B', 'C'][results.findIndex((r) => r.status === 303)]
    expect(JSON.parse(after?.doc as string).name).toBe(`Kurta by ${winner}`)
  })

  it('a price set on the catalogue screen moves the revision: a form opened before it is refused', async () => {
    const { sku, row } = await createKurta()
    const price = await admin(owner, `/api/products/${row.id}`, { body: { price: 2600 } })
    expect(price.status).toBe(200)
    const stale = await post(
      owner,
      `/api/products/${row.id}/authoring`,
      `/admin/products/${row.id}/edit`,
      kurtaForm(sku, [['revision', String(row.revision)]]),
    )
    expect(stale.status).toBe(409)
    expect(JSON.parse((await productBySku(sku))?.doc as string).price).toBe(2600)
  })
})

/** A photograph posted from the product's page as a browser sends the form (multipart, with its length). */
async function upload(
  id: number,
  fields: { revision: number; alt?: string; file?: Uint8Array; name?: string },
  who = owner,
) {
  const form = new FormData()
  form.set('_csrf', who.csrf)
  form.set('return_to', `/admin/products/${id}/edit`)
  form.set('revision', String(fields.revision))
  if (fields.alt !== undefined) form.set('alt', fields.alt)
  if (fields.file)
    form.set(
      'image',
      new File([fields.file as Uint8Array<ArrayBuffer>], fields.name ?? 'photo.jpg', { type: 'image/jpeg' }),
    )
  const framed = new Response(form)
  const res = await SELF.fetch(`https://shop.test/admin/api/products/${id}/images`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: who.cookie, 'content-type': framed.headers.get('content-type') as string },
    body: await framed.arrayBuffer(),
  })
  return { status: res.status, text: await res.text() }
}

const uploaded = async (id: number) =>
  (await env.CATALOGUE_IMAGES.list({ prefix: `u/${id}/` })).objects.length

describe("a product's photographs", () => {
  it('are stored in the bucket with their alt text, in order, and shown on the published page', async () => {
    const { sku, row } = await createKurta()
    const first = await upload(row.id, {
      revision: row.revision,
      alt: 'Ivory chanderi kurta, front',
      file: SAMPLE_JPEG,
    })
    expect(first.status, first.text.slice(0, 300)).toBe(303)
    const after = await productBySku(sku)
    const doc = JSON.parse(after?.doc as string)
    expect(doc.media_gallery).toEqual([
      expect.objectContaining({
        lab: 'Ivory chanderi kurta, front',
        pos: 1,
        image: expect.stringMatching(/^\/u\/\d+\/[0-9a-f]{24}\.jpg$/),
      }),
    ])
    expect(doc.image).toBe(doc.media_gallery[0].image)
    expect(await env.CATALOGUE_IMAGES.head(doc.image.slice(1))).not.toBeNull()
    // Published afterwards, the product keeps its photograph and the shop shows it with its alt text.
    const publish = await publishKurta(sku, row.id, after?.revision as number)
    expect(publish.status).toBe(303)
    const html = await (await SELF.fetch(`https://shop.test/${row.url_path}`)).text()
    expect(html).toMatch(/<img[^>]+alt="Ivory chanderi kurta, front"/)
    const image = await SELF.fetch(`https://shop.test/img/310/300${doc.image}`, {
      headers: { accept: 'image/webp' },
    })
    expect(image.status).toBe(200)
    expect(image.headers.get('content-type')).toBe('image/webp')
  })

  it('refuses what is not a photograph, a photograph without alt text, one too large, or a stale page', async () => {
    const { row } = await createKurta()
    const text = new TextEncoder().encode('<?php system($_GET["c"]); ?>')
    const notImage = await upload(row.id, { revision: row.revision, alt: 'x', file: text, name: 'shell.jpg' })
    expect(notImage.status).toBe(415)
    expect(notImage.text).toMatch(/aria-invalid="true" name="image"/)
    expect(notImage.text).toContain('the file is not a JPEG, PNG or WebP photograph')
    const noAlt = await upload(row.id, { revision: row.revision, file: SAMPLE_JPEG })
    expect(noAlt.status).toBe(400)
    expect(noAlt.text).toContain('describe the photograph for people who cannot see it')
    const big = new Uint8Array(8 * 1024 * 1024 + 1)
    big.set(SAMPLE_JPEG.subarray(0, 3))
    expect((await upload(row.id, { revision: row.revision, alt: 'big', file: big })).status).toBe(413)
    expect(
      (await upload(row.id, { revision: row.revision + 1, alt: 'stale', file: SAMPLE_JPEG })).status,
    ).toBe(409)
    expect(await uploaded(row.id)).toBe(0)
  })

  it('are limited per operator per hour', async () => {
    const { row } = await createKurta()
    const busy = await operator('staff')
    await usedUploadAllowance(busy.email, () => 'product.image', 'product:x')
    const res = await upload(row.id, { revision: row.revision, alt: 'one more', file: SAMPLE_JPEG }, busy)
    expect(res.status).toBe(429)
    expect(await uploaded(row.id)).toBe(0)
    expect(
      (await upload(row.id, { revision: row.revision, alt: 'another operator', file: SAMPLE_JPEG })).status,
    ).toBe(303)
  })
})
