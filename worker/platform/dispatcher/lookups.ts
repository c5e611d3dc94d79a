/**
 * The dispatcher's lookups, in order: (1) a stored mapping in KV URL_MAPPINGS; (2) a product by
 * url_path → the `{type_id}-product` route with parentSku, slug and childSku; (3) a category by
 * url_path → the category route.
 * KV value format: see worker/catalog/url-map.ts (plus `{"type":"redirect","to":"/x"}`;
 * a redirect target must stay on the shop's public origin, see shared/domain/safe-redirect).
 */

import { categoryPath, productPath, productRouteName } from '@shared/config/links'
import { sameOriginPath } from '@shared/domain/safe-redirect'
import type { Context } from 'hono'
import { getCommerce } from '../../commerce'
import type { AppEnv } from '../env'
import type { DispatchLookups, DispatchResult } from './index'

/** The KV key of a path: no leading/trailing slashes, no query. */
export function mappingKey(path: string): string {
  let p = path
  try {
    p = decodeURIComponent(path)
  } catch {
    // keep the raw path
  }
  return p.replace(/^\/+|\/+$/g, '')
}

type StoredMapping =
  | { type: 'product'; sku: string; slug: string; type_id?: string; childSku?: string }
  | { type: 'category'; slug: string }
  | { type: 'cms_page'; identifier: string }
  | { type: 'redirect'; to: string; status?: 301 | 302 }

/**
 * Turns a stored mapping into a dispatch result; malformed values are ignored (null). A redirect
 * is followed only to a target on `origin` (the shop's public origin), as its normalised path.
 */
export function mappingToResult(
  value: unknown,
  childSku: string | null | undefined,
  origin: string,
): DispatchResult | null {
  if (!value || typeof value !== 'object') return null
  const m = value as StoredMapping
  switch (m.type) {
    case 'product':
      if (typeof m.sku !== 'string' || typeof m.slug !== 'string') return null
      return {
        kind: 'rewrite',
        path: productPath(m.sku, m.slug, childSku ?? m.childSku),
        routeName: productRouteName(m.type_id ?? 'simple'),
      }
    case 'category':
      return typeof m.slug === 'string'
        ? { kind: 'rewrite', path: categoryPath(m.slug), routeName: 'category' }
        : null
    case 'cms_page':
      return typeof m.identifier === 'string'
        ? { kind: 'rewrite', path: `/i/${encodeURIComponent(m.identifier)}`, routeName: 'cms-page' }
        : null
    case 'redirect': {
      const location = sameOriginPath(m.to, origin, { allowAbsolute: true })
      return location ? { kind: 'redirect', location, status: m.status === 302 ? 302 : 301 } : null
    }
    default:
      return null
  }
}

export function createDispatchLookups(c: Context<AppEnv>): DispatchLookups {
  const childSku = c.req.query('childSku') ?? null
  return {
    async mapping(path) {
      const key = mappingKey(path)
      if (!key) return null
      const value = await c.env.URL_MAPPINGS.get(key, 'json').catch(() => null)
      return mappingToResult(value, childSku, c.var.config.PUBLIC_ORIGIN)
    },
    async product(path) {
      const key = mappingKey(path)
      if (!key) return null
      const product = await getCommerce(c).getProductByUrlPath(key)
      if (!product) return null
      return {
        kind: 'rewrite',
        path: productPath(product.sku, product.slug, childSku),
        routeName: productRouteName(product.type_id),
      }
    },
    async category(path) {
      const key = mappingKey(path)
      if (!key) return null
      const category = await getCommerce(c).getCategoryByUrlPath(key)
      return category ? { kind: 'rewrite', path: categoryPath(category.slug), routeName: 'category' } : null
    },
  }
}
