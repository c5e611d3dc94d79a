// Editing a product in the back office keeps its creation date, and an imported product the
// export gave no date keeps none: an edit does not make it the shop's newest.
import { env } from 'cloudflare:test'
import { expect, it } from 'vitest'
import { operator, post, productBySku, simpleProductForm } from './operator'

it('an edit keeps a product undated when it was imported without a date', async () => {
  const owner = await operator('staff')
  const category = (await env.DB.prepare(
    'SELECT id FROM categories WHERE level > 1 ORDER BY id LIMIT 1',
  ).first<{ id: number }>()) as { id: number }
  const sku = `UND${Date.now() % 100000}`
  const form = (extra: [string, string][]) =>
    simpleProductForm(
      { sku, name: `Undated Stole ${sku}`, category: category.id, price: '900', qty: '1' },
      extra,
    )
  const created = await post(owner, '/api/products/authoring', '/admin/products/new?type=simple', form([]))
  expect(created.status, created.text.slice(0, 300)).toBe(303)
  const row = (await productBySku(sku)) as NonNullable<Awaited<ReturnType<typeof productBySku>>>
  // As the importer stores a product without dates.
  await env.DB.prepare(
    "UPDATE products SET created_at = '', updated_at = '', doc = json_set(doc, '$.created_at', NULL, '$.updated_at', NULL) WHERE id = ?",
  )
    .bind(row.id)
    .run()
  const edited = await post(
    owner,
    `/api/products/${row.id}/authoring`,
    `/admin/products/${row.id}/edit`,
    form([['revision', String(row.revision)]]),
  )
  expect(edited.status, edited.text.slice(0, 300)).toBe(303)
  const after = await env.DB.prepare(
    "SELECT created_at, json_extract(doc, '$.created_at') AS doc_created, json_extract(doc, '$.updated_at') AS doc_updated FROM products WHERE id = ?",
  )
    .bind(row.id)
    .first<{ created_at: string; doc_created: string | null; doc_updated: string | null }>()
  expect(after?.created_at).toBe('')
  expect(after?.doc_created).toBeNull()
  // The edit itself is a change: it is dated.
  expect(after?.doc_updated).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
})
