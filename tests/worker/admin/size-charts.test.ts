// Size charts from the back office: a chart saved under a category's code is on the product page
// of that category's sized products at the next request; rows that do not line up are refused
// beside the field with what was typed, and a viewer cannot save one.
import { env, SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { decodeEntities } from '../../helpers/html'
import { admin, operator, post, type Session } from './operator'

let staff: Session
beforeAll(async () => {
  staff = await operator('staff')
})

/** A configurable product sold in sizes, and the code of its chart (its own, else its first category's slug). */
async function sizedProduct() {
  const row = await env.DB.prepare(
    `SELECT sku, slug, COALESCE(json_extract(doc, '$.size_guide'), json_extract(doc, '$.category[0].slug')) AS code
     FROM products WHERE type_id = 'configurable' AND status = 1 AND visibility = 4
       AND doc LIKE '%"attribute_code":"size"%'
     LIMIT 1`,
  ).first<{ sku: string; slug: string; code: string }>()
  if (!row) throw new Error('no sized product')
  return row
}
const productPage = async (p: { sku: string; slug: string }) => {
  const res = await SELF.fetch(`https://shop.test/p/${encodeURIComponent(p.sku)}/${p.slug}`)
  expect(res.status).toBe(200)
  return decodeEntities(await res.text())
}

describe('size charts', () => {
  it("saved under a product's chart code, is on its page at the next request", async () => {
    const p = await sizedProduct()
    expect(await productPage(p)).not.toContain('Atelier fit 2027')
    const res = await post(staff, '/api/size-charts', '/admin/size-charts', [
      ['code', p.code],
      ['title', 'Atelier fit 2027'],
      ['rows', 'Size, Bust (in), Waist (in)\nXS, 31.5, 25\nS, 33.5, 27'],
      ['note', 'Measured flat, doubled.'],
    ])
    expect(res.status, res.text.slice(0, 200)).toBe(303)
    const html = await productPage(p)
    expect(html).toContain('Atelier fit 2027')
    expect(html).toContain('31.5')
  })

  it('refuses rows that do not line up, beside the field, keeping what was typed', async () => {
    const res = await post(staff, '/api/size-charts', '/admin/size-charts', [
      ['code', 'lehenga-fit'],
      ['title', 'Lehenga fit'],
      ['rows', 'Size, Waist\nS, 26, 40'],
      ['_form', 'new'],
    ])
    expect(res.status).toBe(400)
    expect(res.text).toContain('<strong role="alert">line 2 has 3 cells; the header has 2</strong>')
    expect(res.text).toContain('S, 26, 40')
    expect(await env.DB.prepare("SELECT 1 FROM size_guides WHERE code = 'lehenga-fit'").first()).toBeNull()
  })

  it('is refused to a viewer', async () => {
    const viewer = await operator('viewer')
    const res = await admin(viewer, '/api/size-charts', { body: { code: 'x', title: 'X', rows: 'a\nb' } })
    expect(res.status).toBe(403)
  })
})
