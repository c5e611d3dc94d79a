// Amounts in the back office's forms are rupees as people write and read them: every field shows a
// stored amount as ₹87,199.00 (Indian grouping), takes it back as shown or as typed ("87,199",
// "87199", "87,199.50", "₹ 87,199"), refuses nonsense in words beside the field with what was typed
// kept, and stores the amount to the paisa. One reader (readAmount) serves every form.
import { env, SELF } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { matrixOptions } from '../../../worker/admin/authoring'
import { operator, post, type Session } from './operator'

let owner: Session
let category: number
let n = 0

beforeAll(async () => {
  owner = await operator('owner')
  category = Number(
    (
      await env.DB.prepare(
        "SELECT id FROM categories WHERE url_path LIKE '%/kurtas' ORDER BY level DESC LIMIT 1",
      ).first<{ id: number }>()
    )?.id,
  )
})

const page = async (path: string) =>
  (await SELF.fetch(`https://shop.test/admin${path}`, { headers: { cookie: owner.cookie } })).text()

const docOf = async (sku: string) =>
  JSON.parse(
    (await env.DB.prepare('SELECT doc FROM products WHERE sku = ?').bind(sku).first<{ doc: string }>())
      ?.doc as string,
  )

/** A simple product authored at `price` (as typed); its id and SKU. */
async function authored(price: string, extra: [string, string][] = []) {
  const sku = `AMT${Date.now() % 100000}${++n}`
  const res = await post(owner, '/api/products/authoring', '/admin/products/new?type=simple', [
    ['type_id', 'simple'],
    ['sku', sku],
    ['name', `Banarasi Dupatta ${sku}`],
    ['category_id', String(category)],
    ['price', price],
    ['qty', '1'],
    ...extra,
  ])
  return { res, sku, id: Number(/\/admin\/products\/(\d+)\/edit/.exec(res.location ?? '')?.[1]) }
}

const NONSENSE = ['8,71,99,9x', '-500', '87,199.505', 'Rs', '₹']

describe('the product form', () => {
  it('shows the price as ₹87,199.00 and saves it back unchanged', async () => {
    const { res, sku, id } = await authored('₹ 87,199')
    expect(res.status, res.text.slice(0, 300)).toBe(303)
    expect((await docOf(sku)).price).toBe(87199)
    const form = await page(`/products/${id}/edit`)
    expect(form).toMatch(/name="price" value="₹87,199.00"/)
  })

  it('reads 87,199 / 87199 / 87,199.50 as people write them', async () => {
    for (const [typed, rupees] of [
      ['87,199', 87199],
      ['87199', 87199],
      ['87,199.50', 87199.5],
      ['1,00,000.05', 100000.05],
    ] as const) {
      const { res, sku } = await authored(typed)
      expect(res.status, typed).toBe(303)
      expect((await docOf(sku)).price, typed).toBe(rupees)
    }
  })

  it('refuses nonsense in words beside the field, with the form as typed', async () => {
    for (const typed of NONSENSE) {
      const { res } = await authored(typed, [['designer_name', 'Kavya Rao']])
      expect(res.status, typed).toBe(400)
      expect(res.text).toMatch(
        /aria-invalid="true" name="price" value="[^"]*"\/><strong role="alert">price must be an amount in rupees, like 5000 or 5,000.50</,
      )
      expect(res.text).toMatch(/name="designer_name" value="Kavya Rao"/)
    }
  })

  it("shows a variant's own price in rupees and keeps the others following the product", async () => {
    const { colours, sizes } = await matrixOptions(env.DB)
    const [colour, size, size2] = [colours[0], sizes[0], sizes[1]] as { id: number }[]
    const sku = `AMV${Date.now() % 100000}${++n}`
    const res = await post(owner, '/api/products/authoring', '/admin/products/new?type=configurable', [
      ['type_id', 'configurable'],
      ['sku', sku],
      ['name', `Angrakha ${sku}`],
      ['category_id', String(category)],
      ['price', '12,500'],
      [`colour_${colour?.id}`, 'on'],
      [`size_${size?.id}`, 'on'],
      [`size_${size2?.id}`, 'on'],
      [`v_${colour?.id}_${size2?.id}_price`, '₹13,250.50'],
    ])
    expect(res.status, res.text.slice(0, 300)).toBe(303)
    const children = (await docOf(sku)).configurable_children as { price: number }[]
    expect(children.map((c) => c.price)).toEqual([12500, 13250.5])
    const id = /\/admin\/products\/(\d+)\/edit/.exec(res.location ?? '')?.[1]
    const form = await page(`/products/${id}/edit`)
    expect(form).toMatch(/name="price" value="₹12,500.00"/)
    expect(form).toMatch(new RegExp(`name="v_${colour?.id}_${size2?.id}_price" value="₹13,250.50"`))
    // A variant following the product's price shows an empty field (blank: the product's).
    expect(form).toMatch(new RegExp(`name="v_${colour?.id}_${size?.id}_price"/>`))
  })
})

describe("the catalogue's price form", () => {
  it('shows the price and special price in rupees, reads them as typed and refuses nonsense', async () => {
    const { sku, id } = await authored('4,999')
    const back = `/admin/products?q=${sku}`
    const quick = (fields: [string, string][]) => post(owner, `/api/products/${id}/form`, back, fields)
    expect((await quick([['special_price', '₹ 3,999.50']])).status).toBe(303)
    expect(await docOf(sku)).toMatchObject({ price: 4999, special_price: 3999.5 })
    const shown = await page(`/products?q=${sku}`)
    expect(shown).toMatch(/name="price" value="₹4,999.00"/)
    expect(shown).toMatch(/name="special_price" value="₹3,999.50"/)
    // The form posted back as shown changes nothing.
    expect(
      (
        await quick([
          ['price', '₹4,999.00'],
          ['special_price', '₹3,999.50'],
        ])
      ).status,
    ).toBe(303)
    expect(await docOf(sku)).toMatchObject({ price: 4999, special_price: 3999.5 })
    for (const typed of NONSENSE) {
      const refused = await quick([['price', typed]])
      expect(refused.status, typed).toBe(400)
      expect(refused.text).toContain('price must be an amount in rupees, like 5000 or 5,000.50')
    }
    expect((await docOf(sku)).price).toBe(4999)
  })
})

describe('the coupon forms', () => {
  /** A coupon code no other test uses, beginning with `prefix`. */
  const freshCode = (prefix: string) => `${prefix}${++n}${Date.now() % 10000}`
  /** Sends the new-coupon form: `code` of `kind` taking `amount` off, then the `more` fields. */
  const addCoupon = (code: string, kind: string, amount: string, more: [string, string][]) =>
    post(owner, '/api/coupons', '/admin/coupons', [
      ['code', code],
      ['kind', kind],
      ['amount', amount],
      ...more,
    ])
  /** The amount and minimum subtotal a coupon is stored with. */
  const storedAmounts = (code: string) =>
    env.DB.prepare('SELECT amount, min_subtotal FROM coupons WHERE code = ?').bind(code).first()

  it('read a fixed amount and a minimum in rupees, show them back as ₹, a percent as a percent', async () => {
    const code = freshCode('RUPEE')
    const made = await addCoupon(code, 'fixed', '₹ 1,500', [
      ['min_subtotal', '12,000.50'],
      ['label', 'Festive'],
    ])
    expect(made.status, made.text.slice(0, 300)).toBe(303)
    expect(await storedAmounts(code)).toEqual({ amount: 1500, min_subtotal: 12000.5 })
    const pct = freshCode('PCT')
    const percent = await addCoupon(pct, 'percent', '15%', [['label', 'Fifteen']])
    expect(percent.status).toBe(303)
    const list = await page('/coupons')
    const row = (c: string) => list.slice(list.indexOf(`action="/admin/api/coupons/${c}"`))
    expect(row(code)).toMatch(/name="amount" value="₹1,500.00"/)
    expect(row(code)).toMatch(/name="min_subtotal" value="₹12,000.50"/)
    expect(row(pct)).toMatch(/name="amount" value="15"/)
    expect(row(pct)).toMatch(/name="min_subtotal" value="₹0.00"/)
    // Saved back as shown: nothing moves.
    const again = await post(owner, `/api/coupons/${code}`, '/admin/coupons', [
      ['_form', 'edit'],
      ['amount', '₹1,500.00'],
      ['min_subtotal', '₹12,000.50'],
    ])
    expect(again.status).toBe(303)
    expect(await storedAmounts(code)).toEqual({ amount: 1500, min_subtotal: 12000.5 })
  })

  it('refuse nonsense in words beside the field, keeping what was typed', async () => {
    for (const typed of ['8,71,99,9x', '-500', '1,500.505']) {
      const code = freshCode('BAD')
      const res = await addCoupon(code, 'fixed', typed, [['label', 'Nope']])
      expect(res.status, typed).toBe(400)
      expect(res.text).toMatch(
        /aria-invalid="true" name="amount" value="[^"]*"\/><strong role="alert">amount must be an amount in rupees/,
      )
      expect(res.text).toMatch(new RegExp(`name="code"[^>]*value="${code}"`))
      expect(await env.DB.prepare('SELECT 1 FROM coupons WHERE code = ?').bind(code).first()).toBeNull()
    }
  })
})

describe("the prepaid discount's rupees", () => {
  it('read like every amount (₹1,500.00 as a grouped field shows it), whole rupees only', async () => {
    const save = (fields: [string, string][]) =>
      post(owner, '/api/rules/prepaid-discount', '/admin/rules', fields)
    expect(
      (
        await save([
          ['kind', 'percent'],
          ['percent', '5'],
          ['cap', '₹1,500.00'],
        ])
      ).status,
    ).toBe(303)
    expect(await env.DB.prepare('SELECT cap_minor FROM prepaid_discount WHERE id = 1').first()).toEqual({
      cap_minor: 150_000,
    })
    expect(
      (
        await save([
          ['kind', 'fixed'],
          ['fixed', 'Rs 1,00,000'],
        ])
      ).status,
    ).toBe(303)
    expect(await env.DB.prepare('SELECT fixed_minor FROM prepaid_discount WHERE id = 1').first()).toEqual({
      fixed_minor: 10_000_000,
    })
    for (const typed of ['1,500.50', '1,5x0', '-100', '1,00,001'])
      expect(
        (
          await save([
            ['kind', 'fixed'],
            ['fixed', typed],
          ])
        ).status,
        typed,
      ).toBe(400)
    expect((await save([['kind', 'off']])).status).toBe(303)
  })
})
