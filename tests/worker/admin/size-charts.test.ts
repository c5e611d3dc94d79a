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

  it("a product shows its own chart, else its designer's, else its category's", async () => {
    // Two sized products sharing their own chart's code and their first category, by two designers.
    const pair = await env.DB.prepare(
      `WITH sized AS (
         SELECT sku, slug, json_extract(doc, '$.size_guide') AS own, json_extract(doc, '$.category[0].slug') AS cat,
           json_extract(doc, '$.designer_name') AS designer
         FROM products WHERE type_id = 'configurable' AND status = 1 AND visibility = 4
           AND doc LIKE '%"attribute_code":"size"%' AND json_extract(doc, '$.size_guide') IS NOT NULL)
       SELECT a.sku, a.slug, a.own, a.cat, a.designer, b.sku AS other_sku, b.slug AS other_slug
       FROM sized a JOIN sized b ON b.own = a.own AND b.cat = a.cat AND b.designer <> a.designer LIMIT 1`,
    ).first<{
      sku: string
      slug: string
      own: string
      cat: string
      designer: string
      other_sku: string
      other_slug: string
    }>()
    if (!pair) throw new Error('no two sized products of one category by two designers')
    const save = async (fields: [string, string][]) => {
      const res = await post(staff, '/api/size-charts', '/admin/size-charts', [
        ...fields,
        ['rows', 'Size, Bust (in)\nS, 34'],
      ])
      expect(res.status, res.text.slice(0, 300)).toBe(303)
    }
    const shown = async (p: { sku: string; slug: string }) =>
      /(Own|Designer|Category) fit 2028/.exec(await productPage(p))?.[0] ?? 'none'
    const other = { sku: pair.other_sku, slug: pair.other_slug }
    await save([
      ['code', pair.cat],
      ['title', 'Category fit 2028'],
    ])
    await save([
      ['designer', pair.designer],
      ['title', 'Designer fit 2028'],
    ])
    await save([
      ['code', pair.own],
      ['title', 'Own fit 2028'],
    ])
    expect(await shown(pair)).toBe('Own fit 2028')
    // Without its own chart, the designer's applies over the category's; another designer's
    // product in the same category shows the category's.
    await env.DB.prepare('DELETE FROM size_guides WHERE code = ?').bind(pair.own).run()
    await save([
      ['designer', pair.designer],
      ['title', 'Designer fit 2028'],
    ])
    expect(await shown(pair)).toBe('Designer fit 2028')
    expect(await shown(other)).toBe('Category fit 2028')
    // The back office says what each chart applies to, and which wins.
    const page = decodeEntities((await admin(staff, '/size-charts')).text)
    expect(page).toContain(`every product by ${pair.designer} without a chart of its own`)
    expect(page).toContain("the chart chosen on its own form, else its designer's chart, else its category's")
  })

  it('refuses a designer the catalogue does not have', async () => {
    const res = await admin(staff, '/api/size-charts', {
      body: { designer: 'Nobody Atall', title: 'X', rows: 'Size, Bust\nS, 30' },
    })
    expect(res.status).toBe(400)
    expect(
      await env.DB.prepare("SELECT 1 FROM size_guides WHERE code = 'designer-nobody-atall'").first(),
    ).toBeNull()
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
