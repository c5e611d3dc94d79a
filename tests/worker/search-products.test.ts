import { env } from 'cloudflare:test'
import { beforeAll, describe, expect, it } from 'vitest'
import { FIXTURE_PRODUCTS, ids, searchGet, searchPost, seedSearchFixtures } from './search-fixtures'

beforeAll(async () => {
  await seedSearchFixtures()
})

describe('catalogue search: filters', () => {
  it('filters with terms on visibility, status and category_ids', async () => {
    const { status, json } = await searchGet(
      'product',
      {
        query: {
          bool: {
            filter: {
              bool: {
                must: [
                  { terms: { visibility: [2, 3, 4] } },
                  { terms: { status: [0, 1] } },
                  { terms: { category_ids: [20, 22] } },
                ],
              },
            },
          },
        },
      },
      { sort: 'id:asc' },
    )
    expect(status).toBe(200)
    expect(ids(json)).toEqual([1, 2, 9, 12])
    expect(json.hits.total).toBe(4)
  })
})
