// The catalogue's select attributes picked on the product form: the form offers each one the shop
// shows (with its label and options, not those the product's other fields decide), a value is
// checked against the attribute's options, and the picked value is shown on the product page by
// its label and filters and counts the category's listing.
import { env, SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { searchGet } from '../../helpers/search-fixtures'
import { admin, operator, post, type Session, simpleProductForm } from './operator'

interface Attr {
  code: string
  label: string
  options: { value: string; label: string }[]
}
let staff: Session
let category: { id: number; slug: string }
let gender: Attr
let type: Attr
let n = 0

const attribute = async (code: string) => {
  const doc = JSON.parse(
    (await env.DB.prepare('SELECT doc FROM attributes WHERE attribute_code = ?')
      .bind(code)
      .first('doc')) as string,
  )
  return { code, label: doc.frontend_label, options: doc.options } as Attr
}

beforeAll(async () => {
  staff = await operator('staff')
  category = (await env.DB.prepare(
    "SELECT id, slug FROM categories WHERE level >= 2 AND is_active = 1 AND slug <> '' ORDER BY id LIMIT 1",
  ).first()) as { id: number; slug: string }
  gender = await attribute('gender')
  type = await attribute('category_product')
  expect(gender.options.length).toBeGreaterThan(1)
})

const shop = async (path: string) => {
  const res = await SELF.fetch(`https://shop.test${path}`)
  expect(res.status, path).toBe(200)
  return res.text()
}

function fields(sku: string, extra: [string, string][]): [string, string][] {
  const stole = { sku, name: `Bandhani Stole ${sku}`, category: category.id, price: '2,150', qty: '2' }
  return simpleProductForm(stole, [['status', 'published'], ...extra])
}

describe("a product's attributes, picked on the product form", () => {
  it('offers each attribute the shop shows, with its label and options, not the derived ones', async () => {
    const page = await admin(staff, '/products/new')
    expect(page.status).toBe(200)
    expect(page.text).toContain('name="attr_gender"')
    expect(page.text).toContain('name="attr_category_product"')
    expect(page.text).toContain(`>${gender.options[1]?.label}</option>`)
    for (const derived of ['color', 'size', 'rts', 'discount'])
      expect(page.text).not.toContain(`name="attr_${derived}"`)
  })

  it('are shown on the product page by label and filter and count the listing', async () => {
    const sku = `STL${Date.now() % 100000}${++n}`
    const picked = gender.options[gender.options.length - 1] as Attr['options'][0]
    const other = gender.options[0] as Attr['options'][0]
    const kind = type.options[0] as Attr['options'][0]
    // The filtered listing read before: the save must purge it.
    await shop(`/c/${category.slug}?gender=${picked.value}`)
    const res = await post(
      staff,
      '/api/products/authoring',
      '/admin/products/new',
      fields(sku, [
        ['attr_gender', picked.value],
        ['attr_category_product', kind.value],
      ]),
    )
    expect(res.status, res.text.slice(0, 300)).toBe(303)
    const row = (await env.DB.prepare('SELECT url_path, doc FROM products WHERE sku = ?')
      .bind(sku)
      .first()) as {
      url_path: string
      doc: string
    }
    const doc = JSON.parse(row.doc)
    expect([doc.gender, doc.category_product]).toEqual([Number(picked.value), Number(kind.value)])
    const page = await shop(`/${row.url_path}`)
    expect(page).toContain(`data-attribute="gender"><dt>${gender.label}</dt><dd>${picked.label}</dd>`)
    expect(page).toContain(`data-attribute="category_product"><dt>${type.label}</dt><dd>${kind.label}</dd>`)
    expect(await shop(`/c/${category.slug}?gender=${picked.value}`)).toContain(`data-sku="${sku}"`)
    expect(await shop(`/c/${category.slug}?gender=${other.value}`)).not.toContain(`data-sku="${sku}"`)
    const { json } = await searchGet('product', {
      query: { bool: { filter: { bool: { must: [{ term: { sku } }] } } } },
      aggs: { agg_terms_gender: { terms: { field: 'gender', size: 10 } } },
    })
    expect(json.aggregations.agg_terms_gender.buckets).toEqual([{ key: Number(picked.value), doc_count: 1 }])
  })

  it('refuses a value that is not one of the options, in words beside the field, and writes nothing', async () => {
    const sku = `STL${Date.now() % 100000}${++n}`
    const res = await admin(staff, '/api/products/authoring', {
      body: Object.fromEntries(fields(sku, [['attr_gender', '999999']])),
    })
    expect(res.status).toBe(400)
    expect(res.text).toContain(`${gender.label}: choose one of its values`)
    const form = await post(
      staff,
      '/api/products/authoring',
      '/admin/products/new',
      fields(sku, [['attr_gender', 'x']]),
    )
    expect(form.status).toBe(400)
    expect(form.text).toContain(`<strong role="alert">${gender.label}: choose one of its values</strong>`)
    // What was typed stays: the name is kept in its field.
    expect(form.text).toContain(`value="Bandhani Stole ${sku}"`)
    expect(await env.DB.prepare('SELECT 1 FROM products WHERE sku = ?').bind(sku).first()).toBeNull()
  })
})
