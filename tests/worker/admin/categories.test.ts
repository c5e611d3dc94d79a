// Categories from the back office: created under a parent, renamed, moved (the old address
// redirects) and ordered among their siblings, each on the shop's menu and category pages at the
// next request; a move under the category's own subcategory is refused in words, writing nothing.
import { env, SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { admin, operator, post, type Session } from './operator'

let staff: Session
let owner: Session
const WOMEN = 3
const MEN = 4

beforeAll(async () => {
  staff = await operator('staff')
  owner = await operator('owner')
})

const row = (id: number) =>
  env.DB.prepare('SELECT id, parent_id, name, url_path, level, position, doc FROM categories WHERE id = ?')
    .bind(id)
    .first<{
      id: number
      parent_id: number
      name: string
      url_path: string
      level: number
      position: number
      doc: string
    }>()
const home = async () => {
  const res = await SELF.fetch('https://shop.test/')
  expect(res.status).toBe(200)
  return res.text()
}
const save = (path: string, fields: [string, string][]) => post(staff, path, '/admin/categories', fields)

/** Puts one listed product into the category (a bulk action), so the menu shows it. */
async function stock(categoryId: number) {
  const p = await env.DB.prepare(
    "SELECT id FROM products WHERE type_id = 'simple' AND status = 1 LIMIT 1",
  ).first<{
    id: number
  }>()
  const body = { ids: [p?.id], action: 'category', category_id: categoryId }
  const dry = await admin(owner, '/api/products/bulk/action', { body })
  const done = await admin(owner, '/api/products/bulk/action', {
    body: { ...body, apply: '1', fingerprint: dry.json.result.fingerprint },
  })
  expect(done.status, done.text).toBe(200)
}

describe('categories from the back office', () => {
  it('are created, renamed and moved, and the menu and category pages follow at the next request', async () => {
    expect(await home()).not.toContain('"name":"Festive Edit"')
    const made = await save('/api/categories', [
      ['name', 'Festive Edit'],
      ['parent_id', String(WOMEN)],
      ['include_in_menu', 'on'],
    ])
    expect(made.status, made.text.slice(0, 300)).toBe(303)
    const created = await env.DB.prepare("SELECT id FROM categories WHERE slug = 'festive-edit'").first<{
      id: number
    }>()
    const id = created?.id as number
    expect(await row(id)).toMatchObject({ parent_id: WOMEN, url_path: 'women/festive-edit', level: 3 })
    await stock(id)
    // The menu (the header island's data) lists it under Women with its address.
    expect(await home()).toContain('"name":"Festive Edit","url":"/women/festive-edit"')
    const page = await SELF.fetch('https://shop.test/women/festive-edit')
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('Festive Edit')

    const renamed = await save(`/api/categories/${id}`, [
      ['name', 'Wedding Edit'],
      ['parent_id', String(WOMEN)],
      ['include_in_menu', 'on'],
    ])
    expect(renamed.status).toBe(303)
    const after = await home()
    expect(after).toContain('"name":"Wedding Edit","url":"/women/festive-edit"')
    expect(after).not.toContain('"name":"Festive Edit"')

    const moved = await save(`/api/categories/${id}`, [
      ['name', 'Wedding Edit'],
      ['parent_id', String(MEN)],
    ])
    expect(moved.status).toBe(303)
    expect(await row(id)).toMatchObject({ parent_id: MEN, url_path: 'men/festive-edit', level: 3 })
    expect((await SELF.fetch('https://shop.test/men/festive-edit')).status).toBe(200)
    expect(await home()).toContain('"name":"Wedding Edit","url":"/men/festive-edit"')
    const old = await SELF.fetch('https://shop.test/women/festive-edit', { redirect: 'manual' })
    expect(old.status).toBe(301)
    expect(old.headers.get('location')).toMatch(/\/men\/festive-edit$/)
  })

  it('refuses moving a category under its own subcategory, in words beside the field, writing nothing', async () => {
    const child = await env.DB.prepare('SELECT id, name FROM categories WHERE parent_id = ? LIMIT 1')
      .bind(WOMEN)
      .first<{ id: number; name: string }>()
    const before = await row(WOMEN)
    const res = await save(`/api/categories/${WOMEN}`, [
      ['name', 'Women'],
      ['parent_id', String(child?.id)],
    ])
    expect(res.status).toBe(400)
    expect(res.text).toContain(`Women cannot be moved under ${child?.name}, one of its own subcategories`)
    expect(res.text).toMatch(/<strong role="alert">Women cannot be moved under/)
    const self = await save(`/api/categories/${WOMEN}`, [
      ['name', 'Women'],
      ['parent_id', String(WOMEN)],
    ])
    expect(self.status).toBe(400)
    expect(self.text).toContain('Women cannot be moved under itself')
    expect(await row(WOMEN)).toEqual(before)
  })

  it('orders siblings: Men moved up comes before Women in the menu', async () => {
    const menuOrder = (html: string) => [html.indexOf('>Men<'), html.indexOf('>Women<')]
    const [men, women] = menuOrder(await home())
    expect(women).toBeGreaterThan(-1)
    expect(men).toBeGreaterThan(women as number)
    const up = await save(`/api/categories/${MEN}/order`, [['direction', 'up']])
    expect(up.status).toBe(303)
    const [men2, women2] = menuOrder(await home())
    expect(men2).toBeLessThan(women2 as number)
    expect(men2).toBeGreaterThan(-1)
  })

  it('is refused to a viewer, who sees no form', async () => {
    const viewer = await operator('viewer')
    const res = await admin(viewer, '/api/categories', { body: { name: 'X', parent_id: WOMEN } })
    expect(res.status).toBe(403)
    const page = await admin(viewer, '/categories')
    expect(page.status).toBe(200)
    expect(page.text).not.toContain('action="/admin/api/categories')
  })
})
