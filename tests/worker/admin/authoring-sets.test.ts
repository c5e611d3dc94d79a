// Grouped, bundle and virtual products authored from the back office's form: each is created,
// published and shown by the shop (its page, its stock), and each refusal is shown beside its
// field with nothing written: a member that does not exist or is itself a set, an empty set, a
// member listed twice, a SKU another product has, a virtual product with a weight; a form opened
// before another save is refused whole.
import { env, SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { countRows } from '../../helpers/d1-rows'
import { decodeEntities } from '../../helpers/html'
import { admin, firstSubcategory, operator, post, productBySku, type Session } from './operator'

let owner: Session
let category: number
/** Simple products of the demo catalogue in stock, with their names and prices. */
let parts: { sku: string; name: string; price: number }[]
let n = 0

beforeAll(async () => {
  owner = await operator('staff')
  category = (await firstSubcategory()).id
  const { results } = await env.DB.prepare(
    `SELECT p.sku, p.name, p.price FROM products p JOIN inventory i ON i.sku = p.sku
     WHERE p.type_id = 'simple' AND p.status = 1 AND i.qty > 5 ORDER BY p.id LIMIT 4`,
  ).all<{ sku: string; name: string; price: number }>()
  parts = results
})

const count = () => countRows('SELECT COUNT(*) AS n FROM products')

const base = (type: string, sku: string): [string, string][] => [
  ['type_id', type],
  ['sku', sku],
  ['name', `Set ${sku}`],
  ['category_id', String(category)],
  ['status', 'published'],
]

const create = (type: string, fields: [string, string][]) =>
  post(owner, '/api/products/authoring', `/admin/products/new?type=${type}`, fields)

const p = (k: number) => parts[k] as { sku: string; name: string; price: number }

/**
 * A refused post: 400, the reason beside `field` (its input marked; a group's reason, or one
 * about a field the type's form does not show, above the button), nothing written.
 */
async function refused(type: string, fields: [string, string][], field: string, reason: string) {
  const before = await count()
  const res = await create(type, fields)
  expect(res.status, res.text.slice(0, 300)).toBe(400)
  expect(res.type).toContain('text/html')
  const html = decodeEntities(res.text)
  expect(html).toContain(reason)
  if (!['members', 'options', 'weight', 'size_guide'].includes(field))
    expect(res.text).toMatch(new RegExp(`<input[^>]*aria-invalid="true"[^>]*name="${field}"`))
  expect(await count()).toBe(before)
}

describe('a grouped product authored in the back office', () => {
  it('lists its members in order with their quantities; published, the shop shows them', async () => {
    const sku = `GRPA${Date.now() % 100000}${++n}`
    const res = await create('grouped', [
      ...base('grouped', sku),
      ['member_1_sku', p(1).sku],
      ['member_1_qty', '2'],
      ['member_2_sku', p(0).sku.toLowerCase()],
    ])
    expect(res.status, res.text.slice(0, 300)).toBe(303)
    const row = await productBySku(sku)
    const doc = JSON.parse(row?.doc as string)
    expect(doc.type_id).toBe('grouped')
    expect(
      doc.product_links.map((l: Record<string, unknown>) => [l.linked_product_sku, l.qty, l.position]),
    ).toEqual([
      [p(1).sku, 2, 0],
      [p(0).sku, 1, 1],
    ])
    expect(doc.product_links[0].product).toMatchObject({ name: p(1).name, price: p(1).price, sku: p(1).sku })
    expect(doc.price).toBe(Math.round((p(0).price + p(1).price) * 100) / 100)
    // A set sells its members' stock rows, never one of its own.
    expect(await env.DB.prepare('SELECT 1 FROM inventory WHERE sku = ?').bind(sku).first()).toBeNull()
    const page = await SELF.fetch(`https://shop.test/${row?.url_path}`)
    expect(page.status).toBe(200)
    const html = decodeEntities(await page.text())
    const pieces = [...html.matchAll(/data-testid="grouped-piece" data-sku="([^"]+)"/g)].map((m) => m[1])
    expect(pieces).toEqual([p(1).sku, p(0).sku])
    const quantity = (name: string) =>
      html.match(
        new RegExp(
          `aria-label="Quantity of ${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*value="(\\d+)"`,
        ),
      )?.[1]
    // Each piece starts at the quantity its set lists.
    expect([quantity(p(1).name), quantity(p(0).name)]).toEqual(['2', '1'])
  })

  it('refuses a member that does not exist, beside its field', () =>
    refused(
      'grouped',
      [...base('grouped', `GRPX${++n}`), ['member_1_sku', p(0).sku], ['member_2_sku', 'NO-SUCH-SKU-1']],
      'member_2_sku',
      'there is no product NO-SUCH-SKU-1',
    ))

  it('refuses a member that is itself a grouped or bundle product', async () => {
    for (const type of ['grouped', 'bundle']) {
      const set = await env.DB.prepare('SELECT sku FROM products WHERE type_id = ? LIMIT 1')
        .bind(type)
        .first<{ sku: string }>()
      await refused(
        'grouped',
        [...base('grouped', `GRPY${++n}`), ['member_1_sku', set?.sku as string]],
        'member_1_sku',
        `${set?.sku} is a ${type} product; a set lists simple or virtual products only`,
      )
    }
  })

  it('refuses an empty set and a member listed twice', async () => {
    await refused('grouped', base('grouped', `GRPZ${++n}`), 'members', 'list at least one product in the set')
    await refused(
      'grouped',
      [
        ...base('grouped', `GRPW${++n}`),
        ['member_1_sku', p(0).sku],
        ['member_3_sku', p(0).sku.toLowerCase()],
      ],
      'member_3_sku',
      `${p(0).sku.toLowerCase()} is listed twice`,
    )
  })

  it('refuses a SKU another product has', async () =>
    refused(
      'grouped',
      [...base('grouped', p(2).sku), ['member_1_sku', p(0).sku]],
      'sku',
      `SKU ${p(2).sku} is already another product's`,
    ))

  it('an edit from a page opened before another save is refused whole', async () => {
    const sku = `GRPC${Date.now() % 100000}${++n}`
    expect((await create('grouped', [...base('grouped', sku), ['member_1_sku', p(0).sku]])).status).toBe(303)
    const row = (await productBySku(sku)) as NonNullable<Awaited<ReturnType<typeof productBySku>>>
    const edit = (member: string) =>
      post(owner, `/api/products/${row.id}/authoring`, `/admin/products/${row.id}/edit`, [
        ...base('grouped', sku),
        ['revision', String(row.revision)],
        ['member_1_sku', member],
      ])
    expect((await edit(p(1).sku)).status).toBe(303)
    // The edit page shows the stored members to edit, then empty rows.
    const form = decodeEntities((await admin(owner, `/products/${row.id}/edit`)).text)
    expect(form).toMatch(new RegExp(`name="member_1_sku" value="${p(1).sku}"`))
    expect(form).toMatch(/name="member_2_sku"(?! value)/)
    const stale = await edit(p(2).sku)
    expect(stale.status).toBe(409)
    const doc = JSON.parse((await productBySku(sku))?.doc as string)
    expect(doc.product_links.map((l: { linked_product_sku: string }) => l.linked_product_sku)).toEqual([
      p(1).sku,
    ])
  })
})

describe('a bundle authored in the back office', () => {
  it('offers each option with its members and default; published, the shop shows the options', async () => {
    const sku = `BUNA${Date.now() % 100000}${++n}`
    const res = await create('bundle', [
      ...base('bundle', sku),
      ['opt_1_title', 'Earrings'],
      ['opt_1_skus', `${p(0).sku}, ${p(1).sku}`],
      ['opt_1_default', p(1).sku],
      ['opt_1_required', 'on'],
      ['opt_2_title', 'Bag'],
      ['opt_2_skus', p(2).sku],
      ['opt_2_qty', '2'],
    ])
    expect(res.status, res.text.slice(0, 300)).toBe(303)
    const row = await productBySku(sku)
    const doc = JSON.parse(row?.doc as string)
    expect(
      doc.bundle_options.map(
        (o: { title: string; required: boolean; product_links: Record<string, unknown>[] }) => [
          o.title,
          o.required,
          o.product_links.map((l) => [l.sku, l.is_default, l.qty]),
        ],
      ),
    ).toEqual([
      [
        'Earrings',
        true,
        [
          [p(0).sku, false, 1],
          [p(1).sku, true, 1],
        ],
      ],
      ['Bag', false, [[p(2).sku, true, 2]]],
    ])
    // The price: each option's default × its quantity.
    expect(doc.price).toBe(Math.round((p(1).price + 2 * p(2).price) * 100) / 100)
    const html = decodeEntities(await (await SELF.fetch(`https://shop.test/${row?.url_path}`)).text())
    for (const o of doc.bundle_options) expect(html).toContain(`data-testid="bundle-option-${o.option_id}"`)
    for (const k of [0, 1, 2]) expect(html).toContain(p(k).name)
    // Its edit page shows each option as stored.
    const form = decodeEntities((await admin(owner, `/products/${row?.id}/edit`)).text)
    expect(form).toContain(`name="opt_1_skus" value="${p(0).sku}, ${p(1).sku}"`)
    expect(form).toContain(`name="opt_1_default" value="${p(1).sku}"`)
    expect(form).toContain(`name="opt_2_qty" value="2"`)
  })

  it('refuses an empty bundle, an option without products and a default outside its option', async () => {
    await refused(
      'bundle',
      base('bundle', `BUNX${++n}`),
      'options',
      'add at least one option with its products',
    )
    await refused(
      'bundle',
      [...base('bundle', `BUNY${++n}`), ['opt_1_title', 'Earrings']],
      'opt_1_skus',
      'list the products of Earrings',
    )
    await refused(
      'bundle',
      [
        ...base('bundle', `BUNZ${++n}`),
        ['opt_1_title', 'Earrings'],
        ['opt_1_skus', p(0).sku],
        ['opt_1_default', p(1).sku],
      ],
      'opt_1_default',
      'the default must be one of the products of Earrings',
    )
  })

  it('refuses a member that does not exist or is a bundle', async () => {
    const bundle = await env.DB.prepare("SELECT sku FROM products WHERE type_id = 'bundle' LIMIT 1").first<{
      sku: string
    }>()
    await refused(
      'bundle',
      [...base('bundle', `BUNW${++n}`), ['opt_1_title', 'Bag'], ['opt_1_skus', `${p(0).sku}, NO-SUCH-BAG`]],
      'opt_1_skus',
      'there is no product NO-SUCH-BAG',
    )
    await refused(
      'bundle',
      [...base('bundle', `BUNV${++n}`), ['opt_1_title', 'Bag'], ['opt_1_skus', bundle?.sku as string]],
      'opt_1_skus',
      `${bundle?.sku} is a bundle product`,
    )
  })
})

describe('a virtual product authored in the back office', () => {
  it('is sold without shipping; its stock may go uncounted; the shop shows it in stock', async () => {
    const sku = `SVC${Date.now() % 100000}${++n}`
    const res = await create('virtual', [
      ...base('virtual', sku),
      ['name', `Stitching appointment ${sku}`],
      ['price', '1,500'],
      ['stock_unlimited', 'on'],
    ])
    expect(res.status, res.text.slice(0, 300)).toBe(303)
    const row = await productBySku(sku)
    const doc = JSON.parse(row?.doc as string)
    expect([doc.type_id, doc.price, doc.weight, doc.stock.manage_stock]).toEqual([
      'virtual',
      1500,
      null,
      false,
    ])
    expect(
      await env.DB.prepare('SELECT manage_stock, is_in_stock FROM inventory WHERE sku = ?').bind(sku).first(),
    ).toEqual({ manage_stock: 0, is_in_stock: 1 })
    const page = await SELF.fetch(`https://shop.test/${row?.url_path}`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain(`Stitching appointment ${sku}`)
    const stock = await SELF.fetch(`https://shop.test/api/stock/check?sku=${sku}`)
    expect(JSON.stringify(await stock.json())).toMatch(/"is_in_stock":true/)
  })

  it('refuses a weight and a size chart', async () => {
    await refused(
      'virtual',
      [...base('virtual', `SVW${++n}`), ['price', '500'], ['weight', '250']],
      'weight',
      'a virtual product is not shipped: leave its weight empty',
    )
    await refused(
      'virtual',
      [...base('virtual', `SVS${++n}`), ['price', '500'], ['size_guide', 'kurtas']],
      'size_guide',
      'a virtual product has no sizes',
    )
  })
})
