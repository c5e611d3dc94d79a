// CMS content from the back office: the preview is what the shop will show (sanitised), publishing
// reaches the live page at once (cached copy purged), and only staff and owners publish.
import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { admin, operator, post } from './operator'

describe('CMS content', () => {
  it('previews through the sanitiser and publishes to the live page, purging its cached copy', async () => {
    const staff = await operator('staff')
    const viewer = await operator('viewer')
    const page = await env.DB.prepare(
      "SELECT id, identifier FROM cms_pages WHERE identifier = 'about-us'",
    ).first<{ id: number; identifier: string }>()
    expect(page).not.toBeNull()
    const hostile = '<p>Our atelier</p><script>alert(1)</script><img src=x onerror=alert(2)>'
    const preview = await admin(staff, '/api/content/preview', { body: { content: hostile } })
    expect(preview.json.result.html).toContain('<p>Our atelier</p>')
    expect(preview.json.result.html).not.toMatch(/<script|onerror/)

    const url = `https://shop.test/i/${page?.identifier}`
    await SELF.fetch(url).then((r) => r.text())
    const cached = await SELF.fetch(url)
    await cached.text()

    const marker = `Hand-woven since ${Date.now()}`
    const body = { title: 'About us', content: `<p>${marker}</p><script>alert(1)</script>`, is_active: true }
    expect((await admin(viewer, `/api/content/page/${page?.id}`, { body })).status).toBe(403)
    const res = await admin(staff, `/api/content/page/${page?.id}`, { body })
    expect(res.status, res.text).toBe(200)
    const live = await SELF.fetch(url).then((r) => r.text())
    expect(live).toContain(marker)
    expect(live).not.toContain('<script>alert(1)</script>')
    const audit = await env.DB.prepare(
      "SELECT actor, action FROM admin_audit WHERE target = 'cms-page:about-us'",
    ).all()
    expect(audit.results).toEqual([{ actor: staff.email, action: 'cms.page.publish' }])
  })

  it('refuses unknown kinds, ids and oversized content', async () => {
    const staff = await operator('staff')
    expect((await admin(staff, '/api/content/widget/1', { body: { title: 't', content: '' } })).status).toBe(
      400,
    )
    expect(
      (await admin(staff, '/api/content/page/99999999', { body: { title: 't', content: '' } })).status,
    ).toBe(404)
    const big = await admin(staff, '/api/content/preview', { body: { content: 'x'.repeat(200_001) } })
    expect(big.status).toBe(400)
    expect(big.json.result).toMatch(/too long/)
  })
})

describe('CMS pages created and deleted', () => {
  it('a page created from the form is on the shop at its address; deleted, the address is gone', async () => {
    const staff = await operator('staff')
    const identifier = `lookbook-${Date.now()}`
    const made = await post(staff, '/api/content/page', '/admin/content', [
      ['identifier', identifier],
      ['title', 'Lookbook'],
      ['content', '<h2>Winter edit</h2><script>alert(1)</script>'],
      ['is_active', 'false'],
      ['is_active', 'true'],
    ])
    expect(made.status, made.text.slice(0, 300)).toBe(303)
    const row = await env.DB.prepare('SELECT id FROM cms_pages WHERE identifier = ?')
      .bind(identifier)
      .first<{ id: number }>()
    expect(made.location).toBe(`/admin/content/page/${row?.id}`)
    const live = await SELF.fetch(`https://shop.test/${identifier}`)
    expect(live.status).toBe(200)
    const html = await live.text()
    expect(html).toContain('Winter edit')
    expect(html).not.toContain('<script>alert(1)</script>')

    const again = await post(staff, '/api/content/page', '/admin/content', [
      ['identifier', identifier],
      ['title', 'Second'],
      ['content', 'x'],
    ])
    expect(again.status).toBe(400)
    expect(again.text).toMatch(/aria-invalid="true" name="identifier"/)
    expect(again.text).toContain(`a page named ${identifier} already exists`)

    const gone = await post(
      staff,
      `/api/content/page/${row?.id}/delete`,
      `/admin/content/page/${row?.id}`,
      [],
    )
    expect(gone.status).toBe(303)
    expect(gone.location).toBe('/admin/content')
    expect(await env.URL_MAPPINGS.get(identifier)).toBeNull()
    expect((await SELF.fetch(`https://shop.test/${identifier}`)).status).toBe(404)
  })

  it("the shop's own pages cannot be deleted, and a viewer deletes nothing", async () => {
    const staff = await operator('staff')
    const viewer = await operator('viewer')
    const home = await env.DB.prepare("SELECT id FROM cms_pages WHERE identifier = 'home'").first<{
      id: number
    }>()
    const refused = await admin(staff, `/api/content/page/${home?.id}/delete`, { body: {} })
    expect(refused.status).toBe(400)
    expect(refused.json.result).toContain('the home page is part of the shop and cannot be deleted')
    const about = await env.DB.prepare("SELECT id FROM cms_pages WHERE identifier = 'about-us'").first<{
      id: number
    }>()
    expect((await admin(viewer, `/api/content/page/${about?.id}/delete`, { body: {} })).status).toBe(403)
    expect(
      await env.DB.prepare('SELECT COUNT(*) AS n FROM cms_pages WHERE id IN (?, ?)')
        .bind(home?.id, about?.id)
        .first(),
    ).toEqual({ n: 2 })
  })
})
