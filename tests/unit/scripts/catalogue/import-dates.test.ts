import { describe, expect, it } from 'vitest'
import { prepareImport } from '../../../../scripts/catalogue/import/node-entry'
import { parseImportFile } from '../../../../scripts/catalogue/import/transform'

/** One elasticdump line of a small simple product with the given extra fields. */
const line = (id: number, extra: Record<string, unknown>) =>
  JSON.stringify({
    _index: 'vue_storefront_catalog',
    _type: 'product',
    _id: String(id),
    _source: {
      id,
      sku: `DATE-${id}`,
      name: `Dated ${id}`,
      type_id: 'simple',
      price: 1200,
      status: 1,
      visibility: 4,
      url_key: `dated-${id}`,
      stock: { qty: 3, is_in_stock: true },
      ...extra,
    },
  })

const docs = (text: string) => {
  const parsed = parseImportFile(text, 'dates.ndjson', {})
  expect(parsed.errors).toEqual([])
  return {
    parsed,
    byId: new Map(
      parsed.records.flatMap((r) =>
        r.entry.type === 'product' ? [[r.entry.doc.id, r.entry.doc] as const] : [],
      ),
    ),
  }
}

describe('imported product dates', () => {
  it('keeps a missing or empty date empty, never the moment of the import', () => {
    const { parsed, byId } = docs(
      [
        line(1, {}),
        line(2, { created_at: '', updated_at: '  ' }),
        line(3, { created_at: null, updated_at: null }),
      ].join('\n'),
    )
    for (const id of [1, 2, 3]) expect(byId.get(id)).toMatchObject({ created_at: null, updated_at: null })
    // The summary says how many products came without dates.
    expect(parsed.coercions.get('missing → null (created_at)')).toBe(3)
  })

  it('keeps the dates an export gives; a product never changed was last changed when created', () => {
    const { byId } = docs(
      [
        line(1, { created_at: '2024-03-05 10:00:00', updated_at: '2025-01-02 08:30:00' }),
        line(2, { created_at: '2024-07-09 12:00:00' }),
      ].join('\n'),
    )
    expect(byId.get(1)).toMatchObject({
      created_at: '2024-03-05 10:00:00',
      updated_at: '2025-01-02 08:30:00',
    })
    expect(byId.get(2)).toMatchObject({
      created_at: '2024-07-09 12:00:00',
      updated_at: '2024-07-09 12:00:00',
    })
  })

  it("writes an undated product: its row's NOT NULL columns empty, its document and search columns null", () => {
    const out = prepareImport(line(7, {}), 'dates.ndjson', {})
    if (!out.ok) throw new Error(out.errors.map((e) => e.reason).join('; '))
    // (id, sku, type_id, name, status, visibility, price, final_price, created_at, updated_at, …)
    expect(out.sql).toMatch(
      /VALUES\s*\(7, 'DATE-7', 'simple', 'Dated 7', 1, 4, 1200, [^,]+, '', '', 'dated-7'/,
    )
    expect(out.sql).toContain('"created_at":null,"updated_at":null')
    expect(out.sql).not.toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/)
  })
})
