// The first visible simple or configurable product of the demo catalogue, for the product URL tests.
import { env, SELF } from 'cloudflare:test'

/** The product's page path, its sku and slug, and its first variant's sku (configurable only). */
export async function productOf(type: 'simple' | 'configurable') {
  const row = await env.DB.prepare(
    'SELECT sku, slug, doc FROM products WHERE status = 1 AND visibility = 4 AND type_id = ? ORDER BY id LIMIT 1',
  )
    .bind(type)
    .first<{ sku: string; slug: string; doc: string }>()
  if (!row) throw new Error(`no ${type} product`)
  const children = (JSON.parse(row.doc).configurable_children ?? []) as { sku: string }[]
  return {
    path: `/p/${encodeURIComponent(row.sku)}/${row.slug}`,
    sku: row.sku,
    slug: row.slug,
    variant: children[0]?.sku,
  }
}

/** GET of a shop path, redirects not followed. */
export const get = (path: string) => SELF.fetch(`https://shop.test${path}`, { redirect: 'manual' })
