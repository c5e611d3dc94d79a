import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { prepareImport, staleUrlKeys, writeFailure } from '../../../../scripts/catalogue/import/node-entry'
import { parseExport } from '../../../../scripts/catalogue/import/parse'
import { parseImportFile } from '../../../../scripts/catalogue/import/transform'

const fixture = (name: string) => {
  const file = path.join(import.meta.dirname, '../../../fixtures/import', name)
  return { file, text: readFileSync(file, 'utf8') }
}

describe('catalogue import', () => {
  it('reads elasticdump NDJSON of every entity type', () => {
    const { file, text } = fixture('catalog.ndjson')
    const parsed = parseImportFile(text, file, {})
    expect(parsed.errors).toEqual([])
    expect(parsed.counts).toEqual({
      category: 1,
      product: 2,
      cms_page: 1,
      cms_block: 1,
      attribute: 1,
      taxrule: 1,
      review: 1,
    })
    const stole = parsed.records.find((r) => r.entry.type === 'product' && r.entry.doc.sku === 'IMP-STOLE')!
    // id from _id, slug and url_path from url_key; the dates it lacks stay empty.
    expect(stole.entry.doc).toMatchObject({
      id: 9002,
      slug: 'imported-silk-stole',
      url_path: 'imported-silk-stole',
      created_at: null,
      updated_at: null,
    })
    const category = parsed.records.find((r) => r.entry.type === 'category')!
    expect(category.entry.doc).toMatchObject({ id: 500, children_data: [] })
  })

  it("finds the stored url paths the file's mappings no longer use (renamed or unlisted)", () => {
    const { file, text } = fixture('catalog.ndjson')
    const out = prepareImport(text, file, {})
    if (!out.ok) throw new Error('expected ok')
    // Only integer ids of the file's products and categories reach the statement.
    expect(out.previousUrlsSql).toMatch(
      /^SELECT url_path FROM products WHERE id IN \([0-9,]+\) UNION ALL SELECT url_path FROM categories WHERE id IN \(500\);$/,
    )
    expect(out.previousUrlsSql).toContain('9002')
    const stored = [
      { url_path: 'old-name-of-the-stole' },
      { url_path: 'imported-silk-stole' },
      { url_path: '/imported-shawls/' },
      { url_path: null },
    ]
    expect(staleUrlKeys(stored, out.kv)).toEqual(['old-name-of-the-stole'])
  })

  it('renders SQL for products, inventory, search index and KV mappings', () => {
    const { file, text } = fixture('catalog.ndjson')
    const out = prepareImport(text, file, {})
    if (!out.ok) throw new Error('expected ok')
    expect(out.sql).toContain('INSERT OR REPLACE INTO products')
    // sku, id, parent, qty, in-stock switch, stock managed, backorders: a sold-out child keeps its
    // switch on (its quantity says it is sold out), so a restock makes it sellable.
    expect(out.sql).toContain("('IMP-SHAWL-BLACK', 900101, 'IMP-SHAWL', 4, 1, 1, 0)")
    expect(out.sql).toContain("('IMP-SHAWL-RED', 900102, 'IMP-SHAWL', 0, 1, 1, 0)")
    expect(out.sql).toContain('INSERT INTO search_docs')
    expect(out.sql).toContain('INSERT OR REPLACE INTO reviews')
    expect(out.kv.map((e) => e.key).sort()).toEqual([
      'imported-lookbook',
      'imported-shawls',
      'imported-shawls/imported-pashmina-shawl',
      'imported-silk-stole',
    ])
    expect(JSON.parse(out.kv.find((e) => e.key === 'imported-shawls')!.value)).toMatchObject({
      type: 'category',
      id: 500,
    })
  })

  it('reads a JSON array of plain documents with --type and knows each element’s line', () => {
    const { file, text } = fixture('products.json')
    expect(parseExport(text).map((r) => r.line)).toEqual([2, 14])
    const parsed = parseImportFile(text, file, { type: 'product' })
    expect(parsed.errors).toEqual([])
    expect(parsed.records.map((r) => r.entry.type === 'product' && r.entry.doc.sku)).toEqual([
      'ARR-KURTA',
      'ARR-DRESS',
    ])
    const untyped = parseImportFile(text, file, {})
    expect(untyped.errors[0]).toMatchObject({
      file,
      line: 2,
      reason: expect.stringMatching(/neither _type nor _index names the entity; pass --type/),
    })
    expect(parseImportFile(text, file, { type: 'widget' }).errors[0]?.reason).toMatch(
      /unknown --type 'widget'/,
    )
  })

  it('reports every bad record with file, line and reason, and imports nothing from that file', () => {
    const { file, text } = fixture('bad.ndjson')
    const parsed = parseImportFile(text, file, {})
    expect(parsed.errors.map((e) => [e.file, e.line])).toEqual([
      [file, 3],
      [file, 4],
      [file, 5],
    ])
    expect(parsed.errors[0]?.reason).toMatch(/^invalid product 'id \d+': sku: missing \(expected text\)$/)
    expect(parsed.errors[1]?.reason).toMatch(/malformed JSON/)
    expect(parsed.errors[2]?.reason).toMatch(/unsupported entity type 'cms_hierarchy'/)
    expect(parsed.records).toEqual([])
    const out = prepareImport(text, file, {})
    expect(out.ok).toBe(false)
    expect(out).not.toHaveProperty('sql')
  })

  it('rejects duplicates, non-objects and hostile values without crashing', () => {
    const dup = [
      '{"_type":"cms_block","_id":"1","_source":{"id":1,"identifier":"a","title":"A","content":""}}',
      '{"_type":"cms_block","_id":"1","_source":{"id":1,"identifier":"b","title":"B","content":""}}',
      '[1,2]',
      '{"_type":"product","_source":{"id":1,"sku":"X Y","name":"n","type_id":"simple","price":1,"status":1,"visibility":4,"url_key":"x"}}',
      '{"_type":"product","_source":{"id":"1; DROP TABLE products","sku":"Z","name":"n","type_id":"simple","price":1,"status":1,"visibility":4,"url_key":"z"}}',
    ].join('\n')
    const parsed = parseImportFile(dup, 'dup.ndjson', {})
    // A SKU with an inner space is a valid SKU (Magento allows it); the rest are refused.
    expect(parsed.errors.map((e) => e.line)).toEqual([2, 3, 5])
    expect(parsed.errors[0]?.reason).toMatch(/duplicate cms_block id 1 \(first on line 1\)/)
    expect(parsed.errors[2]?.reason).toMatch(/id/)
    expect(parseImportFile('[{"a":', 'broken.json', {}).errors[0]?.reason).toMatch(/malformed JSON/)
  })
})

describe('every issue, grouped', () => {
  it('reports every issue of a record (not five) and groups like issues of many records', async () => {
    const { groupIssues } = await import('../../../../scripts/catalogue/import/node-entry')
    const bad = (id: number) =>
      JSON.stringify({
        _index: 'vue_storefront_catalog_product_1587031505',
        _type: '_doc',
        _id: String(id),
        _source: {
          id,
          sku: `S-${id}`,
          name: 7,
          type_id: 'gadget',
          price: 'cheap',
          status: 'on',
          visibility: 'all',
          url_key: `s-${id}`,
          category_ids: ['x'],
          tax_class_id: 'taxable',
        },
      })
    const text = [1, 2, 3].map(bad).join('\n')
    const parsed = parseImportFile(text, 'many.ndjson', {})
    // type_id, price, status, visibility, category_ids[0], tax_class_id: six per record (a
    // numeric name is read as the string it spells).
    expect(parsed.errors.filter((e) => e.line === 1)).toHaveLength(6)
    const groups = groupIssues(parsed.errors, 2)
    expect(groups).toHaveLength(6)
    for (const g of groups) {
      expect(g.count).toBe(3)
      expect(g.first).toEqual(['many.ndjson:1', 'many.ndjson:2'])
    }
    expect(groups.map((g) => g.kind)).toContain(
      'invalid product: category_ids[]: expected a number, found text',
    )
  })

  it('coerces what Elasticsearch would and leaves the rest for the schema to refuse', () => {
    const line = JSON.stringify({
      _index: 'vue_storefront_catalog_de_product',
      _type: '_doc',
      _id: '5',
      _source: {
        id: '5',
        sku: 12345,
        name: 'Numeric SKU',
        type_id: 'simple',
        price: '19.90',
        status: '1',
        visibility: '4',
        url_key: 'numeric-sku',
        category_ids: '3, 4',
        color_options: 9,
        stock: { is_in_stock: '1', qty: '2.0' },
      },
    })
    const parsed = parseImportFile(line, 'de.ndjson', {})
    expect(parsed.errors).toEqual([])
    const doc = parsed.records[0]?.entry.doc as Record<string, unknown>
    expect(doc).toMatchObject({
      id: 5,
      sku: '12345',
      price: 19.9,
      category_ids: [3, 4],
      color_options: [9],
      stock: { is_in_stock: true, qty: 2, manage_stock: true, backorders: 0 },
    })
    expect(parsed.coercions.get('number → string (sku)')).toBe(1)
    expect(parsed.coercions.get('comma-separated string → array (category_ids)')).toBe(1)
  })
})

describe('hostile values', () => {
  it('converts only what spells a finite number, and leaves the rest for the schema to refuse', () => {
    const product = (over: Record<string, unknown>) =>
      JSON.stringify({
        _index: 'vue_storefront_catalog_product_1',
        _type: '_doc',
        _id: '7',
        _source: {
          id: 7,
          sku: 'H-7',
          name: 'Hostile',
          type_id: 'simple',
          price: 10,
          status: 1,
          visibility: 4,
          url_key: 'hostile',
          ...over,
        },
      })
    const reasons = (over: Record<string, unknown>) =>
      parseImportFile(product(over), 'h.ndjson', {}).errors.map((e) => e.reason)
    expect(reasons({ price: '1e400' })).toEqual([
      "invalid product 'H-7': price: expected a number, found a number too large to hold",
    ])
    expect(reasons({ price: '0x10' })).toEqual([
      expect.stringMatching(/^invalid product 'H-7': price: expected a number, found text$/),
    ])
    expect(reasons({ price: '' })).toEqual([
      expect.stringMatching(/^invalid product 'H-7': price: expected a number, found text$/),
    ])
    expect(reasons({ status: 'enabled' })).toEqual([
      expect.stringMatching(/^invalid product 'H-7': status: expected a number, found text$/),
    ])
    expect(reasons({ status: true })).toEqual([])
    expect(reasons({ category_ids: ',,, 12 ,' })).toEqual([])
    expect(reasons({ category_ids: '12; DROP TABLE products' })).toEqual([
      expect.stringMatching(/^invalid product 'H-7': category_ids\.0: expected a number, found text$/),
    ])
    expect(reasons({ sku: 'A\u0000B' })).toEqual([expect.stringMatching(/control characters/)])
    expect(reasons({ sku: 'x'.repeat(129) })).toEqual([expect.stringMatching(/longer than 128/)])
    // Counted stock never starts below zero unless backorders allow it.
    const neg = parseImportFile(product({ stock: { qty: '-5', is_in_stock: true } }), 'n.ndjson', {})
    expect(neg.errors).toEqual([])
  })
})

describe('one run of many files', () => {
  it('gives each SDK file its own entity, and refuses an id another file already has', async () => {
    const { prepareRun } = await import('../../../../scripts/catalogue/import/node-entry')
    const dir = path.join(import.meta.dirname, '../../../fixtures/vsf-export')
    const read = (name: string) => readFileSync(path.join(dir, name), 'utf8')
    const files = [
      { file: 'sdk-categories.json', text: read('sdk-categories.json'), type: 'category' },
      { file: 'sdk-products.json', text: read('sdk-products.json'), type: 'product' },
    ]
    const run = prepareRun(files, { replace: true })
    if (!run.ok) throw new Error(JSON.stringify(run.errors))
    expect(run.counts).toEqual({ category: 1, product: 1 })
    // --replace empties the catalogue first, in the same SQL, before any write.
    expect(run.sql.indexOf('DELETE FROM products')).toBeLessThan(run.sql.indexOf('INTO products'))
    // The shop's content stays unless the run is told to replace it too.
    expect(run.sql).not.toMatch(/DELETE FROM (cms_pages|cms_blocks|content_docs|size_guides|stores)\b/)
    const withContent = prepareRun(files, { replace: true, replaceContent: true })
    if (!withContent.ok) throw new Error(JSON.stringify(withContent.errors))
    for (const t of ['cms_pages', 'cms_blocks', 'content_docs', 'size_guides', 'stores'])
      expect(withContent.sql).toContain(`DELETE FROM ${t}`)
    const twice = prepareRun([...files, { ...files[1], file: 'again.json' }] as typeof files, {})
    expect(twice.ok).toBe(false)
    if (!twice.ok)
      expect(twice.errors.map((e) => e.reason)).toEqual([
        'duplicate product id 8201 (also in sdk-products.json:2)',
      ])
  })
})

describe('records that attack the reader', () => {
  const product = (over: Record<string, unknown>, id = 7) =>
    JSON.stringify({
      _type: 'product',
      _id: String(id),
      _source: {
        id,
        sku: `A-${id}`,
        name: 'Attack',
        type_id: 'simple',
        price: 10,
        status: 1,
        visibility: 4,
        url_key: `attack-${id}`,
        ...over,
      },
    })
  const good = product({}, 8)

  it('an entity named constructor or __proto__ is an issue of its record; the run goes on', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const text = [`{"_type":"${name}","_id":"1","_source":{"id":1}}`, good].join('\n')
      const parsed = parseImportFile(text, 'proto.ndjson', {})
      expect(
        parsed.errors.map((e) => [e.line, e.reason]),
        name,
      ).toEqual([
        [
          1,
          `unsupported entity type '${name}'; neither _type nor _index names the entity; pass --type product|category|attribute|taxrule|cms_page|cms_block|review`,
        ],
      ])
      const typed = parseImportFile('[{"id":1}]', 'proto.json', { type: name })
      expect(typed.errors[0]?.reason, name).toMatch(/^unknown --type/)
    }
  })

  it('fields named after what every object inherits, at every level, are plain data', () => {
    const names = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype']
    /** The value with a field of each name added to every object in it (as a JSON text would). */
    const everywhere = (v: unknown, val: unknown): unknown => {
      if (Array.isArray(v)) return v.map((x) => everywhere(x, val))
      if (v === null || typeof v !== 'object') return v
      const out: Record<string, unknown> = {}
      for (const [k, x] of Object.entries(v)) out[k] = everywhere(x, val)
      for (const n of names) Object.defineProperty(out, n, { value: val, enumerable: true, writable: true })
      return out
    }
    const { text } = fixture('catalog.ndjson')
    for (const val of [1, 'x', {}, [], null]) {
      const lines = text
        .trim()
        .split('\n')
        .map((l) => JSON.stringify(everywhere(JSON.parse(l), val)))
      expect(() => prepareImport(lines.join('\n'), 'inherited.ndjson', {}), JSON.stringify(val)).not.toThrow()
    }
  })

  it('10,000 levels of nesting are an issue of their record, not a crash', () => {
    const deepArray = `${'['.repeat(10_000)}${']'.repeat(10_000)}`
    const deepObject = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`
    const text = [
      good,
      product({}, 9).replace('"name":"Attack"', `"name":"Attack","extra":${deepArray}`),
      product({}, 10).replace('"name":"Attack"', `"name":"Attack","description":${deepObject}`),
    ].join('\n')
    const out = prepareImport(text, 'deep.ndjson', {})
    expect(out.ok).toBe(false)
    if (!out.ok)
      expect(out.errors.map((e) => [e.line, e.reason])).toEqual([
        [2, 'a record may nest objects and arrays at most 64 levels deep'],
        [3, 'a record may nest objects and arrays at most 64 levels deep'],
      ])
    // A JSON array file is read the same way.
    const array = parseImportFile(
      `[${good.replace('"_type":"product",', '')},{"id":2,"x":${deepArray}}]`,
      'deep.json',
      { type: 'product' },
    )
    expect(array.errors.map((e) => e.reason)).toEqual([
      'a record may nest objects and arrays at most 64 levels deep',
    ])
  })
})

describe('the dry run applies the write’s size limits', () => {
  const product = (description: string) =>
    JSON.stringify({
      _type: 'product',
      _id: '77',
      _source: {
        id: 77,
        sku: 'BIG-77',
        name: 'Big',
        type_id: 'simple',
        price: 10,
        status: 1,
        visibility: 4,
        url_key: 'big-77',
        description,
      },
    })

  it('a 5 MB description is refused by the validation (dry run and write alike), naming the field', () => {
    const out = prepareImport(product('x'.repeat(5 * 1024 * 1024)), 'big.ndjson', {})
    expect(out.ok).toBe(false)
    if (!out.ok) {
      expect(out.errors).toHaveLength(1)
      expect(out.errors[0]?.line).toBe(1)
      expect(out.errors[0]?.reason).toMatch(
        /^invalid product: too large to store: it is written as a statement of [\d,]+ bytes and D1 takes at most 100,000 \(largest field: description, 5,242,882 bytes\)$/,
      )
    }
  })

  it('counts bytes, not characters: 40,000 Devanagari characters (120,000 bytes) are too large', () => {
    const hindi = 'क'.repeat(40_000)
    expect(prepareImport(product(hindi), 'hi.ndjson', {}).ok).toBe(false)
    expect(prepareImport(product('k'.repeat(40_000)), 'en.ndjson', {}).ok).toBe(true)
  })

  it('every statement a valid run writes fits D1, merged rows included (counted in UTF-8 bytes)', () => {
    // 30 products of 20,000 Devanagari characters each: every row fits, merging them must not overflow.
    const lines = Array.from({ length: 30 }, (_, i) =>
      product('ख'.repeat(20_000))
        .replaceAll('"77"', `"${100 + i}"`)
        .replace('"id":77', `"id":${100 + i}`)
        .replace('BIG-77', `BIG-${100 + i}`)
        .replace('big-77', `big-${100 + i}`),
    )
    const out = prepareImport(lines.join('\n'), 'many.ndjson', {})
    if (!out.ok) throw new Error(JSON.stringify(out.errors.slice(0, 2)))
    const statements = out.sql.split(/;\n(?=[A-Z])/)
    const longest = Math.max(...statements.map((s) => new TextEncoder().encode(s).length))
    expect(longest).toBeLessThanOrEqual(100_000)
  })
})

describe('real exports', () => {
  const hit = (id: unknown, source: Record<string, unknown>) =>
    JSON.stringify({ _index: 'vue_storefront_catalog_product_1', _type: '_doc', _id: id, _source: source })
  const base = { sku: 'EC-1', type_id: 'simple', price: 10, status: 1, visibility: 4, url_key: 'ec-1' }
  const docOf = (line: string) => {
    const parsed = parseImportFile(line, 'e.ndjson', {})
    expect(parsed.errors).toEqual([])
    return { doc: parsed.records[0]?.entry.doc as unknown as Record<string, unknown>, parsed }
  }

  it('decodes the character references an export leaves in names', () => {
    const { doc, parsed } = docOf(
      hit('11', { ...base, id: 11, name: 'EverCool&trade; Tee &amp; Co &#8377;' }),
    )
    expect(doc.name).toBe('EverCool™ Tee & Co ₹')
    expect(parsed.coercions.get('HTML entities decoded (name)')).toBe(1)
  })

  it('accepts GUID ids as a stable whole number, keeping the GUID', () => {
    const guid = '3FA85F64-5717-4562-B3FC-2C963F66AFA6'
    const { doc } = docOf(hit(guid, { ...base, name: 'Guid' }))
    expect(Number.isSafeInteger(doc.id) && (doc.id as number) > 0).toBe(true)
    expect(doc.guid).toBe(guid.toLowerCase())
    expect(docOf(hit(guid, { ...base, name: 'Guid' })).doc.id).toBe(doc.id)
    // Another id that is not a number is still refused.
    expect(parseImportFile(hit('abc', { ...base, name: 'x' }), 'g.ndjson', {}).errors).not.toEqual([])
  })

  it('sells an item flagged in stock at qty ≤ 0 only when stock is not counted or backorders are on', () => {
    const stockOf = (stock: Record<string, unknown>) =>
      docOf(hit('12', { ...base, id: 12, name: 's', stock })).doc.stock as Record<string, unknown>
    expect(stockOf({ is_in_stock: true, qty: 0 })).toMatchObject({ is_in_stock: false, manage_stock: true })
    expect(stockOf({ is_in_stock: '1', qty: '-3.0000', manage_stock: '1' }).is_in_stock).toBe(false)
    expect(stockOf({ is_in_stock: true, qty: 0, backorders: 1 }).is_in_stock).toBe(true)
    expect(stockOf({ is_in_stock: true, qty: 0, manage_stock: false }).is_in_stock).toBe(true)
  })

  it('says to run the migrations first when the database has no tables', () => {
    const msg = writeFailure('✘ [ERROR] no such table: products: SQLITE_ERROR', [
      '--local',
      '--persist-to',
      '.tmp/x',
    ])
    expect(msg).toMatch(
      /^the database has no catalogue tables yet \(no table products\): run the migrations first/,
    )
    expect(msg).toContain('npx wrangler d1 migrations apply DB --local --persist-to .tmp/x')
    expect(writeFailure('network down', [])).toBe('network down')
  })
})
