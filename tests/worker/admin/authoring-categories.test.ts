// A product authored in several categories: it is listed on each category's page and in each one's
// search rows and counts; its address, breadcrumbs and canonical URL follow the primary category
// (the form's first choice); leaving a category takes it off that category's page at the next
// request (the cached page is read first, so a missing purge fails) and out of its count.
import { env, SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { searchGet } from '../../helpers/search-fixtures'
import { admin, operator, post, type Session } from './operator'

interface Cat {
  id: number
  name: string
  slug: string
  url_path: string
}
let staff: Session
let viewer: Session
let a: Cat
let b: Cat
let n = 0

beforeAll(async () => {
  staff = await operator('staff')
  viewer = await operator('viewer')
  const { results } = await env.DB.prepare(
    "SELECT id, name, slug, url_path FROM categories WHERE level >= 2 AND is_active = 1 AND slug <> '' ORDER BY id LIMIT 2",
  ).all<Cat>()
  ;[a, b] = results as [Cat, Cat]
  expect(b).toBeDefined()
})

const shop = async (path: string) => {
  const res = await SELF.fetch(`https://shop.test${path}`)
  expect(res.status, path).toBe(200)
  return res.text()
}
const listedOn = async (cat: Cat, sku: string) => (await shop(`/c/${cat.slug}`)).includes(`data-sku="${sku}"`)
const countOf = async (cat: Cat) =>
  Number(
    await env.DB.prepare("SELECT json_extract(doc, '$.product_count') AS n FROM categories WHERE id = ?")
      .bind(cat.id)
      .first('n'),
  )
/** The search rows' answer for a category listing narrowed to one SKU. */
const searchHits = async (cat: Cat, sku: string) =>
  (
    await searchGet('product', {
      query: {
        bool: { filter: { bool: { must: [{ terms: { category_ids: [cat.id] } }, { term: { sku } }] } } },
      },
    })
  ).json.hits.total as number
const row = (sku: string) =>
  env.DB.prepare(
    'SELECT p.id, p.url_path, p.doc, r.revision FROM products p JOIN product_revisions r ON r.product_id = p.id WHERE p.sku = ?',
  )
    .bind(sku)
    .first<{ id: number; url_path: string; doc: string; revision: number }>()

const form = (sku: string, also: Cat[], extra: [string, string][] = []): [string, string][] => [
  ['type_id', 'simple'],
  ['sku', sku],
  ['name', `Ikat Dupatta ${sku}`],
  ['category_id', String(a.id)],
  ...also.map((k) => [`also_category_${k.id}`, 'on'] as [string, string]),
  ['price', '1,850'],
  ['qty', '3'],
  ['status', 'published'],
  ...extra,
]

async function create(also: Cat[]) {
  const sku = `DUP${Date.now() % 100000}${++n}`
  const res = await post(staff, '/api/products/authoring', '/admin/products/new', form(sku, also))
  expect(res.status, res.text.slice(0, 300)).toBe(303)
  return { sku, saved: (await row(sku)) as NonNullable<Awaited<ReturnType<typeof row>>> }
}

describe('a product in several categories', () => {
  it('is listed, searched and counted in each; its address and breadcrumbs follow the primary one', async () => {
    const countB = await countOf(b)
    // Both pages read (and cached) before the product exists: the save must purge both.
    await shop(`/c/${a.slug}`)
    await shop(`/c/${b.slug}`)
    const { sku, saved } = await create([b])
    const doc = JSON.parse(saved.doc)
    expect(doc.category_ids).toEqual([a.id, b.id])
    expect(doc.category.map((k: { category_id: number }) => k.category_id)).toEqual([a.id, b.id])
    expect(saved.url_path).toBe(`${a.url_path}/${doc.url_key}`)
    expect(await listedOn(a, sku)).toBe(true)
    expect(await listedOn(b, sku)).toBe(true)
    expect(await searchHits(a, sku)).toBe(1)
    expect(await searchHits(b, sku)).toBe(1)
    expect(await countOf(b)).toBe(countB + 1)
    const page = await shop(`/${saved.url_path}`)
    const at = page.indexOf('aria-label="Breadcrumb"')
    const crumbs = page.slice(at, page.indexOf('</nav>', at))
    expect(crumbs).toContain(`>${a.name}</a>`)
    expect(crumbs).not.toContain(`>${b.name}</a>`)
  })

  it('leaving a category takes it off that page at the next request, out of its search rows and count', async () => {
    const { sku, saved } = await create([b])
    const countB = await countOf(b)
    expect(await listedOn(b, sku)).toBe(true) // now cached
    const edit = await post(
      staff,
      `/api/products/${saved.id}/authoring`,
      `/admin/products/${saved.id}/edit`,
      form(sku, [], [['revision', String(saved.revision)]]),
    )
    expect(edit.status, edit.text.slice(0, 300)).toBe(303)
    expect(JSON.parse((await row(sku))?.doc as string).category_ids).toEqual([a.id])
    expect(await listedOn(b, sku)).toBe(false)
    expect(await listedOn(a, sku)).toBe(true)
    expect(await searchHits(b, sku)).toBe(0)
    expect(await countOf(b)).toBe(countB - 1)
  })

  it('refuses an unknown category in words and writes nothing; a viewer may not author', async () => {
    const sku = `DUP${Date.now() % 100000}${++n}`
    const body = {
      type_id: 'simple',
      sku,
      name: `Ikat Dupatta ${sku}`,
      category_id: a.id,
      category_ids: [b.id, 999_999_999],
      price: '1850',
    }
    const refused = await admin(staff, '/api/products/authoring', { body })
    expect(refused.status).toBe(400)
    expect(refused.text).toContain('there is no category 999999999')
    expect(await row(sku)).toBeNull()
    const tooMany = await admin(staff, '/api/products/authoring', {
      body: { ...body, category_ids: Array.from({ length: 11 }, (_, i) => i + 1) },
    })
    expect(tooMany.status).toBe(400)
    expect(tooMany.text).toContain('at most 10')
    const asViewer = await admin(viewer, '/api/products/authoring', {
      body: { ...body, category_ids: [b.id] },
    })
    expect(asViewer.status).toBe(403)
    expect(await row(sku)).toBeNull()
  })
})
