/**
 * POST /api/url/map {url, includeFields?, excludeFields?, ...} → the raw Elasticsearch-style hit
 * `{_index,_type,_id,_score,_source}` for the product (exact url_path), category (exact url_path)
 * or CMS page (exact identifier) at that URL, WITHOUT the envelope; JSON `null` when nothing
 * matches. A missing or invalid url → 400 envelope 'Missing url'.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { mapUrlPath } from '../../catalog/url-map'
import type { AppEnv } from '../../platform/env'
import { jsonBody } from '../../platform/http'

/** The index name hits report (vue-storefront-api's default catalogue index). */
const URL_MAP_INDEX = 'vue_storefront_catalog'

const BodySchema = z.looseObject({
  url: z.string({ error: 'Missing url' }).trim().min(1, 'Missing url').max(2048, 'url is too long'),
  includeFields: z.array(z.string().max(200)).max(200).nullish(),
  excludeFields: z.array(z.string().max(200)).max(200).nullish(),
})

/** Applies VSF include/exclude field lists (top-level and dotted paths) to a source document. */
function filterSource(
  source: Record<string, unknown>,
  include?: string[] | null,
  exclude?: string[] | null,
): Record<string, unknown> {
  let out: Record<string, unknown> = source
  if (include?.length) {
    out = {}
    for (const field of include) {
      const [head, ...rest] = field.split('.')
      if (!head || !(head in source)) continue
      if (rest.length === 0) out[head] = source[head]
      else if (source[head] && typeof source[head] === 'object' && !Array.isArray(source[head])) {
        const nested = filterSource(source[head] as Record<string, unknown>, [rest.join('.')])
        out[head] = { ...((out[head] as Record<string, unknown>) ?? {}), ...nested }
      }
    }
  }
  if (exclude?.length) {
    out = { ...out }
    for (const field of exclude) if (!field.includes('.')) delete out[field]
  }
  return out
}

export const urlRoutes = new Hono<AppEnv>()

urlRoutes.post('/map', jsonBody(BodySchema), async (c) => {
  const body = c.req.valid('json')
  const hit = await mapUrlPath(c.env.DB, body.url, c.var.store?.storeId ?? 0)
  if (!hit) return c.json(null)
  const [type, id, source] =
    hit.type === 'product'
      ? ['product', hit.product.id, hit.product]
      : hit.type === 'category'
        ? ['category', hit.category.id, hit.category]
        : ['cms_page', hit.page.id, hit.page]
  return c.json({
    _index: URL_MAP_INDEX,
    _type: type,
    _id: String(id),
    _score: 1,
    _source: filterSource(source as Record<string, unknown>, body.includeFields, body.excludeFields),
  })
})
