// vue-storefront-api's older product format (Magento 2 indexed in 2017: variants with
// custom_attributes and no id, options without attribute_code or value labels, a simple product
// carrying variants, multiselect strings where one option is kept) imports with a warning per
// product naming what was converted; what cannot be converted is refused in words.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { prepareImport, warningLines } from '../../../../scripts/catalogue/import/node-entry'
import { parseImportFile } from '../../../../scripts/catalogue/import/transform'
import type { Product } from '../../../../shared/schemas/catalog'

const file = path.join(import.meta.dirname, '../../../fixtures/import/older-format.json')
const text = readFileSync(file, 'utf8')

const products = () => {
  const parsed = parseImportFile(text, file, {})
  expect(parsed.errors).toEqual([])
  const bySku = new Map<string, Product>()
  for (const r of parsed.records) if (r.entry.type === 'product') bySku.set(r.entry.doc.sku, r.entry.doc)
  return { parsed, bySku }
}

describe('the older vue-storefront-api product format', () => {
  it('imports what the shop reads: name, sku, price, categories, stock, images', () => {
    const { parsed, bySku } = products()
    expect(parsed.counts).toEqual({ product: 2 })
    const stole = bySku.get('OLD-STOLE-01') as Product
    expect(stole).toMatchObject({
      id: 7101,
      name: 'Block-printed Mulmul Stole',
      type_id: 'simple',
      price: 1450,
      category_ids: [41, 43],
      image: '/o/s/old-stole-01.jpg',
      url_path: 'block-printed-mulmul-stole',
      stock: { qty: 25, is_in_stock: true, manage_stock: true, backorders: 0 },
      // A simple product sells its own SKU: the variants it carried are not its own.
      configurable_children: [],
      configurable_options: [],
      // Several genders where the catalogue keeps one option: the first.
      gender: 91,
      created_at: '2017-11-02 09:15:00',
    })
    expect(stole.category.map((c) => c.name)).toEqual(['Default Category', 'Stoles', 'Block Prints'])

    const kurta = bySku.get('OLD-KURTA') as Product
    expect(kurta).toMatchObject({ type_id: 'configurable', price: 2900, category_ids: [42] })
    // Variants: their custom_attributes read as fields, ids derived from their SKUs.
    const children = kurta.configurable_children
    expect(children.map((c) => [c.sku, c.price, c.size, c.color, c.image])).toEqual([
      ['OLD-KURTA-S-RED', 2900, 191, 61, '/o/k/old-kurta-red.jpg'],
      ['OLD-KURTA-M-RED', 2900, 192, 61, '/o/k/old-kurta-red.jpg'],
      ['OLD-KURTA-S-GREEN', 3100, 191, 63, '/o/k/old-kurta-green.jpg'],
    ])
    const ids = children.map((c) => c.id)
    expect(new Set(ids).size).toBe(3)
    for (const id of ids) expect(Number.isSafeInteger(id) && id > 0).toBe(true)
    // The same SKU gives the same id in every run.
    expect(
      products()
        .bySku.get('OLD-KURTA')
        ?.configurable_children.map((c) => c.id),
    ).toEqual(ids)
    expect(children.every((c) => !('custom_attributes' in c))).toBe(true)
    // Options named from their labels; values without labels shown by their option ids.
    expect(kurta.configurable_options.map((o) => [o.attribute_code, o.values.map((v) => v.label)])).toEqual([
      ['color', ['61', '63']],
      ['size', ['191', '192']],
    ])
  })

  it('writes stock rows the cart sells from', () => {
    const out = prepareImport(text, file, {})
    if (!out.ok) throw new Error(out.errors.map((e) => e.reason).join('\n'))
    expect(out.sql).toContain("('OLD-STOLE-01', 7101, NULL, 25, 1, 1, 0)")
    // Kurta variants had no stock of their own: each takes the parent's (as every import does).
    expect(out.sql).toMatch(/\('OLD-KURTA-S-GREEN', \d+, 'OLD-KURTA', 9, 1, 1, 0\)/)
    // The variants the simple product carried are not sold.
    expect(out.sql).not.toContain('OTHER-KURTA-S-RED')
  })

  it('warns per product, naming what was converted', () => {
    const out = prepareImport(text, file, {})
    if (!out.ok) throw new Error('expected ok')
    const of = (sku: string) => out.warnings.filter((w) => w.product === sku).map((w) => w.message)
    expect(of('OLD-STOLE-01')).toEqual([
      'configurable_children, configurable_options: a simple product has no variants; 1 variant(s) and 1 option(s) dropped',
      'gender: several values → the first',
    ])
    expect(of('OLD-KURTA')).toEqual([
      'configurable_children: 3 variant(s) had custom_attributes, read as fields',
      'configurable_children: 3 variant(s) without an id given a stable id from their sku',
      'configurable_options: 2 option(s) without attribute_code named from their label',
      'configurable_options: 4 value(s) without a label shown by their option id until the product is exported again with labels',
    ])
    const lines = warningLines(out.warnings)
    expect(lines).toContain(`${file}:2: product 'OLD-STOLE-01': gender: several values → the first`)
    expect(warningLines(out.warnings, 2)).toEqual([
      ...lines.slice(0, 2),
      '… and 4 more conversion warning(s)',
    ])
  })

  it('refuses what cannot be converted, naming the product and the field in words', () => {
    const hits = JSON.parse(text) as Array<{ _source: Record<string, unknown> }>
    const kurta = (hits[1] as (typeof hits)[number])._source as {
      configurable_children: [Record<string, unknown>, Record<string, unknown>, Record<string, unknown>]
      configurable_options: [Record<string, unknown>]
    }
    delete kurta.configurable_children[1].sku
    kurta.configurable_options[0].label = ''
    kurta.configurable_children[2].custom_attributes = [{ value: '191' }]
    const parsed = parseImportFile(JSON.stringify(hits), 'broken.json', {})
    expect(parsed.records).toEqual([])
    expect(parsed.errors.map((e) => e.reason)).toEqual([
      "invalid product 'OLD-KURTA': configurable_children[1] has neither an id nor a sku, so it cannot be told apart",
      "invalid product 'OLD-KURTA': configurable_children[2].custom_attributes is not a list of {attribute_code, value} entries",
      "invalid product 'OLD-KURTA': configurable_options[0].attribute_code is missing and the option has no label to derive it from",
    ])
    // A value no conversion reads is refused in words too, naming the product and the field.
    const stole = (hits[0] as (typeof hits)[number])._source
    stole.price = 'on request'
    delete stole.name
    const schema = parseImportFile(JSON.stringify([hits[0]]), 'broken.json', {})
    expect(schema.errors.map((e) => e.reason)).toEqual([
      "invalid product 'OLD-STOLE-01': name: missing (expected text)",
      "invalid product 'OLD-STOLE-01': price: expected a number, found text",
    ])
    // Grouped by kind with array positions folded, like every other issue.
    expect(parsed.errors.map((e) => e.kind)).toContain(
      'invalid product: configurable_children[] has neither an id nor a sku, so it cannot be told apart',
    )
  })
})
