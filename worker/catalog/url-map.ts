/**
 * URL mapping: exact url_path (products, categories) or identifier (CMS pages) lookups, as
 * vue-storefront-api's POST /api/url/map does (match_phrase then an exact equality check).
 *
 * KV `URL_MAPPINGS` format (written by the seed and the import, read by the URL dispatcher):
 *   key   = the path without leading/trailing slashes, e.g. 'women/sarees/ruby-silk-saree-vs1001'
 *   value = JSON, one of
 *     {"type":"product","id":1001,"sku":"VS1001","type_id":"configurable","slug":"...","url_path":"..."}
 *     {"type":"category","id":12,"slug":"sarees","url_path":"women/sarees"}
 *     {"type":"cms_page","id":3,"identifier":"about-us"}
 */
import type { Category, CmsPage, Product } from '@shared/schemas/catalog'
import { getCategoryByUrlPath } from './categories'
import { getCmsPageByIdentifier } from './content'
import { getProductByUrlPath } from './products'

export type UrlMapping =
  | { type: 'product'; id: number; sku: string; type_id: string; slug: string; url_path: string }
  | { type: 'category'; id: number; slug: string; url_path: string }
  | { type: 'cms_page'; id: number; identifier: string }

type UrlMapResult =
  | { type: 'product'; product: Product }
  | { type: 'category'; category: Category }
  | { type: 'cms_page'; page: CmsPage }

/** Normalises a URL path to the mapping key: no leading/trailing slashes, no query or hash. */
export function urlMappingKey(path: string): string {
  return path.split(/[?#]/)[0]?.replace(/^\/+|\/+$/g, '') ?? ''
}

/** The KV mapping for a product (key + value). */
export function productMapping(p: Product): [string, UrlMapping] {
  return [
    urlMappingKey(p.url_path),
    { type: 'product', id: p.id, sku: p.sku, type_id: p.type_id, slug: p.slug, url_path: p.url_path },
  ]
}

/** The KV mapping for a category (key + value). */
export function categoryMapping(c: Category): [string, UrlMapping] {
  return [urlMappingKey(c.url_path), { type: 'category', id: c.id, slug: c.slug, url_path: c.url_path }]
}

/** The KV mapping for a CMS page (key + value). */
export function cmsPageMapping(p: CmsPage): [string, UrlMapping] {
  return [urlMappingKey(p.identifier), { type: 'cms_page', id: p.id, identifier: p.identifier }]
}

/** Exact lookup of a path: product url_path, then category url_path, then CMS identifier. */
export async function mapUrlPath(db: D1Database, path: string, storeId = 0): Promise<UrlMapResult | null> {
  const key = urlMappingKey(path)
  if (!key) return null
  const product = await getProductByUrlPath(db, key)
  if (product) return { type: 'product', product }
  const category = await getCategoryByUrlPath(db, key)
  if (category) return { type: 'category', category }
  const page = await getCmsPageByIdentifier(db, key, storeId)
  if (page) return { type: 'cms_page', page }
  return null
}
