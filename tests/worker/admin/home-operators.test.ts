// The home page's sections and the operators, from the back office: every reference checked
// before anything is written, edits that raced refused instead of lost, the shop's home showing a
// saved section at once; owners manage operators but never remove the last active owner or
// change themselves, and a disabled operator's session stops working.
import { env, SELF } from 'cloudflare:test'
import { beforeEach, describe, expect, it } from 'vitest'
import { SCARF, seedCartFixtures } from '../../helpers/cart-fixtures'
import { countRows } from '../../helpers/d1-rows'
import { admin, operator, PASSWORD } from './operator'

beforeEach(seedCartFixtures)

const homeDoc = async () =>
  JSON.parse(
    (
      await env.DB.prepare("SELECT doc FROM content_docs WHERE kind = 'home' AND store_id = 0").first<{
        doc: string
      }>()
    )?.doc ?? '{}',
  ) as { sections?: { id: number; type: string; title: string; skus?: string[] }[] }

const auditCount = (action: string) =>
  countRows('SELECT COUNT(*) AS n FROM admin_audit WHERE action = ?', action)

describe('home sections', () => {
  it('adds a hand-picked section that the shop’s home page shows, edits and removes it', async () => {
    const staff = await operator('staff')
    const title = `Picked ${Date.now()}`
    const listed = await env.DB.prepare(
      "SELECT sku FROM products WHERE type_id = 'configurable' AND status = 1 AND visibility = 4 ORDER BY id LIMIT 1",
    ).first<{ sku: string }>()
    const sku = listed?.sku as string
    const added = await admin(staff, '/api/home/sections', {
      body: { type: 'products', title, position: 0, skus: [sku] },
    })
    expect(added.status, added.text).toBe(200)
    const id = added.json.result.section.id as number
    expect((await homeDoc()).sections?.find((s) => s.id === id)).toMatchObject({ title, skus: [sku] })
    const home = await SELF.fetch('https://shop.test/')
    expect(await home.text()).toContain(title)

    const renamed = await admin(staff, `/api/home/sections/${id}`, {
      body: { type: 'products', title: `${title} again`, skus: sku },
    })
    expect(renamed.status, renamed.text).toBe(200)
    expect((await homeDoc()).sections?.find((s) => s.id === id)?.title).toBe(`${title} again`)

    expect((await admin(staff, `/api/home/sections/${id}/delete`, { body: {} })).status).toBe(200)
    expect((await homeDoc()).sections?.some((s) => s.id === id)).toBe(false)
    expect((await admin(staff, `/api/home/sections/${id}/delete`, { body: {} })).status).toBe(404)
  })

  it('refuses unknown references and bad fields with a 400 naming them, writing nothing', async () => {
    const staff = await operator('staff')
    const before = JSON.stringify(await homeDoc())
    const saved = await auditCount('home.section.save')
    const cases: [unknown, RegExp][] = [
      [
        { type: 'products', title: 'X', skus: ['NO-SUCH-SKU', SCARF.sku] },
        /no product has the SKU NO-SUCH-SKU/,
      ],
      [{ type: 'products', title: 'X', skus: [SCARF.sku, SCARF.sku] }, /listed twice/],
      [{ type: 'products', title: 'X', skus: Array.from({ length: 25 }, (_, i) => `S${i}`) }, /at most 24/],
      [
        { type: 'category_products', title: 'X', category_id: 987654321 },
        /category 987654321 does not exist/,
      ],
      [{ type: 'cms_block', title: 'X', block_identifier: 'no-such-block' }, /CMS block no-such-block/],
      [{ type: 'cms_block', title: 'X', block_identifier: '../x' }, /block_identifier/],
      [{ type: 'carousel', title: 'X' }, /type must be one of/],
      [{ type: 'banner', title: '' }, /title is required/],
      [{ type: 'banner', title: 'X', position: '1e3' }, /position/],
    ]
    for (const [body, message] of cases) {
      const res = await admin(staff, '/api/home/sections', { body })
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.json.result, JSON.stringify(body)).toMatch(message)
    }
    expect(
      (await admin(staff, '/api/home/sections/999999', { body: { type: 'banner', title: 'X' } })).status,
    ).toBe(404)
    expect(JSON.stringify(await homeDoc())).toBe(before)
    expect(await auditCount('home.section.save')).toBe(saved)
  })

  it('never loses one of two edits made at the same instant: one saves, the other is told to reload', async () => {
    const staff = await operator('staff')
    const answers = await Promise.all(
      ['First', 'Second', 'Third'].map((title) =>
        admin(staff, '/api/home/sections', { body: { type: 'banner', title: `${title} ${Date.now()}` } }),
      ),
    )
    const saved = answers.filter((a) => a.status === 200)
    expect(saved.length).toBeGreaterThanOrEqual(1)
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect(a.status).toBe(409)
      expect(a.json.result).toMatch(/reload/)
    }
    // Every answer that said "saved" is in the document.
    const ids = (await homeDoc()).sections?.map((s) => s.id) ?? []
    for (const a of saved) expect(ids).toContain(a.json.result.section.id)
  })

  it('is not a viewer’s to change', async () => {
    const viewer = await operator('viewer')
    const res = await admin(viewer, '/api/home/sections', { body: { type: 'banner', title: 'X' } })
    expect(res.status).toBe(403)
  })
})

describe('operators', () => {
  it('an owner adds a staff operator who can sign in; a staff operator cannot add anyone', async () => {
    const owner = await operator('owner')
    const staff = await operator('staff')
    const email = `new-${Date.now()}@ops.test`
    expect(
      (await admin(staff, '/api/operators', { body: { email, role: 'owner', password: PASSWORD } })).status,
    ).toBe(403)
    expect(
      (await admin(owner, '/api/operators', { body: { email, role: 'staff', password: 'short' } })).status,
    ).toBe(400)
    const made = await admin(owner, '/api/operators', { body: { email, role: 'staff', password: PASSWORD } })
    expect(made.status, made.text).toBe(200)
    expect((await admin(owner, '/api/operators', { body: { email, role: 'staff' } })).status).toBe(409)
    const signIn = await SELF.fetch('https://shop.test/admin/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': '198.51.100.251' },
      body: JSON.stringify({ email, password: PASSWORD }),
    })
    expect(await signIn.json()).toMatchObject({ result: { email, role: 'staff' } })
  })

  it('disabling an operator ends their session at once; enabling lets them sign in again', async () => {
    const owner = await operator('owner')
    const staff = await operator('staff')
    const row = await env.DB.prepare('SELECT id FROM operators WHERE email = ?')
      .bind(staff.email)
      .first<{ id: number }>()
    expect((await admin(staff, '/api/me')).status).toBe(200)
    const off = await admin(owner, `/api/operators/${row?.id}`, { body: { disabled: true } })
    expect(off.status, off.text).toBe(200)
    expect((await admin(staff, '/api/me')).status).toBe(401)
    expect((await admin(owner, `/api/operators/${row?.id}`, { body: { disabled: false } })).status).toBe(200)
    expect((await admin(owner, `/api/operators/${row?.id}`, { body: { role: 'wizard' } })).status).toBe(400)
    expect((await admin(owner, `/api/operators/${row?.id}`, { body: {} })).status).toBe(400)
    expect((await admin(owner, '/api/operators/99999999', { body: { role: 'viewer' } })).status).toBe(404)
  })

  it('never leaves the shop without an active owner, even when two owners demote each other at once', async () => {
    // Only these two owners are active.
    await env.DB.prepare(
      "UPDATE operators SET disabled_at = '2026-01-01 00:00:00' WHERE role = 'owner'",
    ).run()
    const a = await operator('owner')
    const b = await operator('owner')
    const id = async (email: string) =>
      (await env.DB.prepare('SELECT id FROM operators WHERE email = ?').bind(email).first<{ id: number }>())
        ?.id
    expect((await admin(a, `/api/operators/${await id(a.email)}`, { body: { role: 'staff' } })).status).toBe(
      409,
    )
    const [ab, ba] = await Promise.all([
      admin(a, `/api/operators/${await id(b.email)}`, { body: { role: 'viewer' } }),
      admin(b, `/api/operators/${await id(a.email)}`, { body: { role: 'viewer' } }),
    ])
    expect([ab.status, ba.status].sort()).toEqual([200, 409].sort())
    const owners = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM operators WHERE role = 'owner' AND disabled_at IS NULL",
    ).first<{ n: number }>()
    expect(owners?.n).toBe(1)
  })
})
