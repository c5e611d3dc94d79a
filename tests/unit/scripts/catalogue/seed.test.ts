import { describe, expect, it } from 'vitest'
import { generateCatalogue } from '../../../../scripts/catalogue/seed/generate'
import { seedSqlChunks } from '../../../../scripts/catalogue/seed/node-entry'
import { sqlLiteral } from '../../../../scripts/catalogue/seed/sql-recorder'
import { WINDOWS } from '../../../../scripts/catalogue/seed/types'
import {
  AttributeSchema,
  CategorySchema,
  CmsBlockSchema,
  CmsPageSchema,
  ProductSchema,
  ReviewSchema,
  StoreLocationSchema,
  TaxRuleSchema,
} from '../../../../shared/schemas/catalog'
import { NAMED_CMS_PAGES } from '../../../../worker/pages/content/paths'

const cat = generateCatalogue()

describe('demo catalogue generator', () => {
  it('is deterministic: the same seed gives the same catalogue, another seed a different one', () => {
    expect(JSON.stringify(generateCatalogue())).toBe(JSON.stringify(cat))
    expect(JSON.stringify(generateCatalogue({ seed: 7 }).products)).not.toBe(JSON.stringify(cat.products))
  })

  it('produces schema-valid products, categories and content', () => {
    for (const p of cat.products) {
      const parsed = ProductSchema.safeParse(p)
      expect(parsed.success, `${p.sku}: ${parsed.error?.message}`).toBe(true)
    }
    for (const c of cat.categories) expect(CategorySchema.safeParse(c).success, c.slug).toBe(true)
    for (const a of cat.attributes) expect(AttributeSchema.safeParse(a).success, a.attribute_code).toBe(true)
    for (const t of cat.taxRules) expect(TaxRuleSchema.safeParse(t).success).toBe(true)
    for (const p of cat.cmsPages) expect(CmsPageSchema.safeParse(p).success, p.identifier).toBe(true)
    for (const b of cat.cmsBlocks) expect(CmsBlockSchema.safeParse(b).success, b.identifier).toBe(true)
    for (const s of cat.stores) expect(StoreLocationSchema.safeParse(s).success, s.code).toBe(true)
    for (const r of cat.reviews) expect(ReviewSchema.safeParse(r).success).toBe(true)
  })

  it('has at least 300 products, mostly configurable, and every other product type', () => {
    expect(cat.products.length).toBeGreaterThanOrEqual(300)
    const byType = (t: string) => cat.products.filter((p) => p.type_id === t)
    expect(byType('configurable').length).toBeGreaterThan(cat.products.length * 0.8)
    for (const t of ['simple', 'virtual', 'downloadable', 'bundle', 'grouped'])
      expect(byType(t).length).toBeGreaterThan(0)
    expect(byType('bundle').every((p) => p.bundle_options.length > 0)).toBe(true)
    const grouped = byType('grouped')
    expect(
      grouped.every((p) => p.product_links.every((l) => l.link_type === 'associated' && l.product?.name)),
    ).toBe(true)
    expect(cat.products.some((p) => p.custom_options.length > 0)).toBe(true)
  })

  it('has unique ids, skus and url paths, and unique child skus', () => {
    const unique = (xs: unknown[]) => new Set(xs).size === xs.length
    expect(unique(cat.products.map((p) => p.id))).toBe(true)
    expect(unique(cat.products.map((p) => p.sku))).toBe(true)
    expect(unique(cat.products.map((p) => p.url_path))).toBe(true)
    const childSkus = cat.products.flatMap((p) => p.configurable_children.map((c) => c.sku))
    expect(unique([...childSkus, ...cat.products.map((p) => p.sku)])).toBe(true)
    expect(unique(cat.inventory.map((r) => r.sku))).toBe(true)
  })

  it('covers the edge cases: special windows, stock, status and visibility', () => {
    const windows = new Set(cat.products.map((p) => p.special_from_date ?? 'none'))
    for (const w of [WINDOWS.past.from, WINDOWS.present.from, WINDOWS.future.from, 'none'])
      expect(windows).toContain(w)
    expect(cat.products.some((p) => p.special_price && !p.special_from_date)).toBe(true)
    expect(cat.products.some((p) => p.special_price && p.special_price >= p.price)).toBe(true)
    expect(cat.products.some((p) => p.sale === '1')).toBe(true)
    expect(cat.products.some((p) => p.new === '1')).toBe(true)
    expect(cat.products.some((p) => p.international_flag === '1')).toBe(true)
    expect(cat.products.some((p) => p.rts_qty && p.rts_delivery_time)).toBe(true)
    expect(cat.products.some((p) => p.type_id === 'configurable' && !p.stock.is_in_stock)).toBe(true)
    expect(cat.products.some((p) => p.configurable_children.some((c) => c.stock.qty === 0))).toBe(true)
    expect(cat.products.some((p) => p.configurable_children.some((c) => c.status === 2))).toBe(true)
    expect(cat.products.filter((p) => p.status === 2).length).toBeGreaterThan(0)
    expect(cat.products.filter((p) => p.visibility === 1).length).toBeGreaterThan(0)
    // A configurable's price is its cheapest child's.
    for (const p of cat.products.filter((x) => x.type_id === 'configurable')) {
      expect(p.price).toBe(Math.min(...p.configurable_children.map((c) => c.price)))
      expect(p.color_options?.length).toBe(p.configurable_options[0]?.values.length)
    }
  })

  it('builds the category tree under root 2 including 189 and 190 with products', () => {
    const root = cat.categories.find((c) => c.id === 2)
    expect(root?.name).toBe('Default Category')
    for (const [id, name] of [
      [189, 'Performance Fabrics'],
      [190, 'Tees'],
    ] as const) {
      const c = cat.categories.find((x) => x.id === id)
      expect(c?.name).toBe(name)
      expect(c?.product_count).toBeGreaterThan(0)
    }
    expect(cat.categories.some((c) => !c.include_in_menu)).toBe(true)
    expect(cat.categories.some((c) => c.mp_new_attribute === null && c.id !== 2)).toBe(true)
  })

  it('has CMS pages for every content route, home popups of each type, stores and reviews', () => {
    const ids = cat.cmsPages.map((p) => p.identifier)
    for (const id of [...NAMED_CMS_PAGES, 'about-us', 'contact']) expect(ids).toContain(id)
    expect(ids.filter((i) => i.startsWith('ode-to-')).length).toBeGreaterThanOrEqual(2)
    const home = cat.content.home as { popups: Array<{ type: string }>; banners: Record<string, unknown[]> }
    expect(home.popups.map((p) => p.type).sort()).toEqual(['exit_popup', 'generic_popup', 'strip'])
    expect(Object.keys(home.banners).sort()).toEqual(['main', 'product', 'small'])
    expect(cat.stores.length).toBeGreaterThan(3)
    expect(new Set(cat.reviews.map((r) => r.review_status))).toContain(1)
    expect(new Set(cat.reviews.map((r) => r.review_status))).toContain(2)
    expect(JSON.stringify(cat)).not.toMatch(/https?:\/\/(?!(instagram|facebook)\.com)/)
  })

  it('scales to a large catalogue (products and variants)', () => {
    const big = generateCatalogue({ scale: 2000 })
    expect(big.products.length).toBeGreaterThan(2000)
    const variants = big.products.reduce((n, p) => n + p.configurable_children.length, 0)
    expect(variants).toBeGreaterThan(2000 * 9)
  })

  it('renders seed SQL with escaped literals and KV entries', () => {
    expect(sqlLiteral("O'Brien")).toBe("'O''Brien'")
    expect(sqlLiteral(null)).toBe('NULL')
    const chunks = [...seedSqlChunks()]
    const sql = chunks.map((c) => c.sql).join('\n')
    expect(sql).toContain('INSERT OR REPLACE INTO products')
    expect(sql).not.toMatch(/\?\d/)
    expect(chunks.flatMap((c) => c.kv).length).toBe(cat.urlMappings.length)
  })
})
