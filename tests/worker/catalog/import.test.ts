import { env, SELF } from 'cloudflare:test'
import { describe, expect, it } from 'vitest'
import { prepareImport } from '../../../scripts/catalogue/import/node-entry'
import { parseImportFile } from '../../../scripts/catalogue/import/transform'
import { importStatements, importUrlMappings } from '../../../scripts/catalogue/import/write'
import { putUrlMappings } from '../../../scripts/catalogue/seed/apply'
import { createRecordingDb, toSql } from '../../../scripts/catalogue/seed/sql-recorder'
import { getProductsBySku } from '../../../worker/catalog/products'
import catalogNdjson from '../../fixtures/import/catalog.ndjson?raw'

describe('imported catalogue in D1', () => {
  it('is readable by every read path once its statements run in one batch', async () => {
    const parsed = parseImportFile(catalogNdjson, 'catalog.ndjson', {})
    expect(parsed.errors).toEqual([])
    await env.DB.batch(importStatements(env.DB, parsed.records))
    await putUrlMappings(env.URL_MAPPINGS, importUrlMappings(parsed.records))

    const found = await getProductsBySku(env.DB, ['IMP-SHAWL-BLACK', 'IMP-STOLE'])
    expect(found.get('IMP-SHAWL-BLACK')?.product.sku).toBe('IMP-SHAWL')
    expect(found.get('IMP-SHAWL-BLACK')?.child?.stock.qty).toBe(4)
    expect(found.get('IMP-STOLE')?.product.stock.qty).toBe(12)

    const hit = (await (
      await SELF.fetch('https://shop.test/api/url/map', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ url: 'imported-shawls/imported-pashmina-shawl' }),
      })
    ).json()) as { _type: string; _id: string }
    expect(hit).toMatchObject({ _type: 'product', _id: '9001' })

    const search = (await (
      await SELF.fetch(
        `https://shop.test/api/catalog/vue_storefront_catalog/product/_search?request=${encodeURIComponent(
          JSON.stringify({
            query: { bool: { filter: { bool: { must: [{ terms: { category_ids: [500] } }] } } } },
          }),
        )}`,
      )
    ).json()) as { hits: { total: number | { value: number } } }
    const total = typeof search.hits.total === 'number' ? search.hits.total : search.hits.total.value
    expect(total).toBe(2)

    const page = await SELF.fetch(
      'https://shop.test/api/ext/cms-data/cmsPageIdentifier/imported-lookbook/storeId/0',
    )
    expect(page.status).toBe(200)
    expect(await env.URL_MAPPINGS.get('imported-shawls', 'json')).toMatchObject({ type: 'category', id: 500 })
  })

  it('re-importing a configurable replaces its child stock rows', async () => {
    const line = catalogNdjson.split('\n').find((l) => l.includes('"IMP-SHAWL"')) as string
    const hit = JSON.parse(line) as { _source: { configurable_children: Array<{ sku: string }> } }
    hit._source.configurable_children = hit._source.configurable_children.filter(
      (c) => c.sku !== 'IMP-SHAWL-RED',
    )
    const shrunk = JSON.stringify(hit)
    const parsed = parseImportFile(shrunk, 'again.ndjson', {})
    expect(parsed.errors).toEqual([])
    await env.DB.batch(importStatements(env.DB, parsed.records))
    const rows = await env.DB.prepare('SELECT sku FROM inventory WHERE parent_sku = ?')
      .bind('IMP-SHAWL')
      .all()
    expect(rows.results.map((r) => r.sku)).toEqual(['IMP-SHAWL-BLACK'])
  })
})

describe('the importer’s size limit is D1’s', () => {
  it('a record the validation accepts is written by D1, and the next byte is refused by both', async () => {
    const record = (length: number) =>
      JSON.stringify({
        _type: 'product',
        _id: '8800',
        _source: {
          id: 8800,
          sku: 'LIMIT-8800',
          name: 'At the limit',
          type_id: 'simple',
          price: 10,
          status: 1,
          visibility: 4,
          url_key: 'at-the-limit',
          description: 'x'.repeat(length),
        },
      })
    const accepted = (length: number) => prepareImport(record(length), 'limit.ndjson', {}).ok
    // The longest description the validation accepts.
    let lo = 1_000
    let hi = 200_000
    expect(accepted(lo)).toBe(true)
    expect(accepted(hi)).toBe(false)
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2)
      if (accepted(mid)) lo = mid
      else hi = mid
    }
    /** Runs every statement the import writes for a description of `length`, as the write does. */
    const write = async (length: number) => {
      const parsed = parseImportFile(record(length), 'limit.ndjson', {})
      expect(parsed.errors).toEqual([])
      for (const st of importStatements(createRecordingDb(), parsed.records))
        await env.DB.prepare(toSql(st)).run()
    }
    await write(lo)
    const stored = await env.DB.prepare(
      "SELECT length(doc) AS n FROM products WHERE sku = 'LIMIT-8800'",
    ).first<{
      n: number
    }>()
    expect(stored?.n).toBeGreaterThan(lo)
    await expect(write(lo + 1)).rejects.toThrow(/statement too long/)
  })
})
