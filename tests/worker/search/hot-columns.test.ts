// Products whose copy of visibility/status/type_id in the index's hot columns is NULL (the field is
// missing, null, a list or an object): the facts tables decide, so such a product passes a terms
// filter only with a matching value, and must_not never drops it for a value it does not have.
import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { indexProductStatements } from '../../../worker/search/builds/index-products'
import { searchDocsInMemory, toJsDocs } from '../../../worker/search/memory/search-docs'
import { planSearch } from '../../../worker/search/request/plan'
import { searchProducts } from '../../../worker/search/results/product-search'
import { FIXTURE_PRODUCTS, ids, searchGet, seedSearchFixtures } from '../../helpers/search-fixtures'

const base = FIXTURE_PRODUCTS[9] as unknown as Record<string, unknown>
function variant(id: number, fields: Record<string, unknown>, drop: string[] = []) {
  const doc: Record<string, unknown> = { ...base, id, sku: `NULL-${id}`, url_path: `p/null-${id}`, ...fields }
  for (const k of drop) delete doc[k]
  return doc
}
/** Products whose hot columns are all NULL, each for a different reason. */
const ODD = [
  variant(101, {}, ['visibility', 'status', 'type_id']),
  variant(102, { visibility: [2, 4], status: [1], type_id: ['simple', 'virtual'] }),
  variant(103, { visibility: null, status: null, type_id: null }),
  variant(104, { visibility: { value: 4 }, status: { value: 1 }, type_id: { code: 'simple' } }),
]

beforeAll(async () => {
  await seedSearchFixtures()
  const stmts = ODD.flatMap((doc) => [
    env.DB.prepare(
      `INSERT INTO products (id, sku, type_id, name, created_at, updated_at, url_path, slug, doc)
       VALUES (?1, ?2, 'simple', ?3, ?4, ?4, ?5, ?5, ?6)`,
    ).bind(doc.id, doc.sku, doc.name, doc.created_at, doc.url_path, JSON.stringify(doc)),
    ...indexProductStatements(env.DB, doc),
  ])
  await env.DB.batch(stmts)
  const hot = await env.DB.prepare(
    'SELECT COUNT(*) AS n FROM search_docs WHERE product_id > 100 AND h_visibility IS NULL AND h_status IS NULL AND h_type_id IS NULL',
  ).first<{ n: number }>()
  expect(hot?.n).toBe(ODD.length)
})

const docs = () =>
  toJsDocs([...(FIXTURE_PRODUCTS as unknown as Record<string, unknown>[]), ...ODD], 'product')

describe('terms on a NULL hot column', () => {
  const cases: [string, unknown, number[]][] = [
    ['visibility', { terms: { visibility: [1, 2, 3, 4] } }, [102]],
    ['status', { terms: { status: [0, 1, 2] } }, [102]],
    ['type_id', { terms: { type_id: ['simple', 'configurable', 'virtual'] } }, [102]],
    ['a listed value', { terms: { visibility: [4] } }, [102]],
    ['an unlisted value', { terms: { visibility: [3] } }, []],
    ['term', { term: { status: 1 } }, [102]],
    ['keyword match', { match: { type_id: 'virtual' } }, [102]],
    ['string form of a number', { terms: { visibility: ['2'] } }, [102]],
  ]
  it.each(cases)(
    'matches a product with a NULL hot column only through its values: %s',
    async (_, clause, odd) => {
      const { status, json } = await searchGet('product', { query: clause, size: 100 }, { sort: 'id:asc' })
      expect(status).toBe(200)
      expect(ids(json).filter((id) => id > 100)).toEqual(odd)
    },
  )

  it('keeps such a product under must_not for values it does not have', async () => {
    const absent: Record<string, unknown[]> = { visibility: [1], status: [2], type_id: ['configurable'] }
    for (const [field, values] of Object.entries(absent)) {
      const query = { bool: { must_not: [{ terms: { [field]: values } }] } }
      const { json } = await searchGet('product', { query, size: 100 }, { sort: 'id:asc' })
      expect(
        ids(json).filter((id) => id > 100),
        field,
      ).toEqual([101, 102, 103, 104])
    }
    const notFour = { bool: { must_not: [{ terms: { visibility: [4] } }] } }
    const { json } = await searchGet('product', { query: notFour, size: 100 }, { sort: 'id:asc' })
    expect(ids(json).filter((id) => id > 100)).toEqual([101, 103, 104])
  })

  it('answers like the in-memory engine on every hot-column filter shape', async () => {
    const bodies = [
      { query: { terms: { visibility: [2, 3, 4] } } },
      { query: { bool: { must_not: [{ terms: { status: [1] } }] } } },
      { query: { bool: { must_not: [{ bool: { must_not: [{ terms: { type_id: ['simple'] } }] } }] } } },
      {
        query: {
          bool: {
            should: [
              { terms: { visibility: [4] } },
              { terms: { status: [1] } },
              { match: { type_id: 'virtual' } },
            ],
            minimum_should_match: 2,
          },
        },
      },
      { query: { exists: { field: 'visibility' } } },
      { query: { bool: { must_not: [{ exists: { field: 'status' } }] } } },
    ]
    for (const body of bodies) {
      const plan = planSearch({ entityType: 'product', body: { ...body, size: 100 } })
      const sql = await searchProducts(env.DB, plan)
      const js = searchDocsInMemory(docs(), plan)
      expect(
        sql.hits.map((h) => h.id),
        JSON.stringify(body),
      ).toEqual(js.hits.map((h) => h.id))
      expect(sql.total).toBe(js.total)
    }
  })
})
