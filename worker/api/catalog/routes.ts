/**
 * Catalogue search in the vue-storefront-api shape, mounted at /api/catalog:
 *   GET  /api/catalog/:index/:entityType/_search?request=<URL-encoded JSON DSL>
 *   POST /api/catalog/:index/:entityType/_search   (the DSL as the JSON body)
 * Query params: size, from, sort (ES URI syntax), _source_include/_source_exclude (comma lists;
 * aliases _sourceInclude/_sourceExclude/_source_includes/_source_excludes),
 * request_format=search-query (body is a serialized SearchQuery), response_format=compact,
 * q (Elasticsearch's URI query syntax, in place of the body's query: worker/search/request/query-string.ts).
 * Answers the raw Elasticsearch shape (no envelope); bad input is a 400 envelope. A request (body or
 * `request` parameter) is at most MAX_REQUEST_BYTES; the engine bounds the rest (docs/search-limits.md).
 */

import { MAX_LISTING_PAGE_SIZE } from '@shared/config/catalog'
import { PAGE_TEXT } from '@shared/i18n/messages'
import type { Context } from 'hono'
import { Hono } from 'hono'
import { getCommerce } from '../../commerce'
import type { AppEnv } from '../../platform/env'
import { fail, limitBody } from '../../platform/http'
import {
  ENTITY_TYPES,
  parsePatterns,
  queryStringToDsl,
  SearchError,
  searchCatalog,
  searchQueryToDsl,
  toCompactResponse,
} from '../../search'

/** The default catalogue index; per-store variants are `<default>_<storeCode>`. */
const DEFAULT_CATALOG_INDEX = 'vue_storefront_catalog'
/** Store codes with their own index (the optional /de and /it store views). */
const STORE_INDEX_CODES = ['de', 'it']

/** Whether an index name is served here: the default index or a per-store variant. */
function isKnownIndex(index: string, storeCode: string): boolean {
  if (index === DEFAULT_CATALOG_INDEX) return true
  const codes = new Set([...STORE_INDEX_CODES, storeCode])
  return [...codes].some((code) => index === `${DEFAULT_CATALOG_INDEX}_${code}`)
}

/** The country prices are answered for: the request's store context, else the shop's default. */
function visitorCountry(c: Context<AppEnv>): string {
  return c.var.store?.country || c.var.config.DEFAULT_COUNTRY
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text)
  } catch (err) {
    return fail(400, `Malformed JSON in ${what}: ${(err as Error).message.slice(0, 120)}`)
  }
}

/** Largest search request: a POST body, or the `request` parameter of a GET (bytes). */
export const MAX_REQUEST_BYTES = 128 * 1024

const TOO_LARGE = `The search request is larger than ${MAX_REQUEST_BYTES / 1024} KB`

/** Whether a DSL body asks for at least one aggregation (under either of its names). */
function asksAggregations(body: Record<string, unknown>): boolean {
  return [body.aggs, body.aggregations].some(
    (a) => typeof a === 'object' && a !== null && Object.keys(a).length > 0,
  )
}

/**
 * A listing request (products with aggregations: a listing's next page, or the reload that brings a
 * returning shopper back to the product they left) answers at most MAX_LISTING_PAGE_SIZE hits; a
 * larger page is refused before any work, in words. Searches without aggregations keep the
 * engine's own page bounds.
 */
function checkListingPage(entityType: string, body: Record<string, unknown>, size: unknown): void {
  if (entityType !== 'product' || !asksAggregations(body)) return
  const n = Number(size ?? body.size)
  if (Number.isFinite(n) && n > MAX_LISTING_PAGE_SIZE)
    fail(
      400,
      `A page with aggregations holds at most ${MAX_LISTING_PAGE_SIZE} products, ${n} were asked: ask for fewer at a time (a smaller size)`,
    )
}

export const catalogSearchRoutes = new Hono<AppEnv>()

// The body is counted while it is read (a missing or false Content-Length does not get past it).
catalogSearchRoutes.use('*', limitBody(MAX_REQUEST_BYTES, TOO_LARGE))

catalogSearchRoutes.on(['GET', 'POST'], '/:index/:entityType/:op', async (c) => {
  const { index, entityType, op } = c.req.param()
  if (!op.startsWith('_search')) fail(400, `Unsupported catalogue operation: ${op.slice(0, 40)}`)
  if (!isKnownIndex(index, c.var.config.STORE_CODE))
    fail(400, `Unknown catalogue index: ${index.slice(0, 60)}`)
  if (!(ENTITY_TYPES as readonly string[]).includes(entityType)) {
    fail(400, `${PAGE_TEXT.noEntityTypeRegistered} for ${entityType.slice(0, 40)}`)
  }
  const q = c.req.query()
  const requestFormat = q.request_format
  if (requestFormat !== undefined && requestFormat !== 'search-query' && requestFormat !== 'standard') {
    fail(400, `Unsupported request_format: ${requestFormat.slice(0, 40)}`)
  }
  const responseFormat = q.response_format
  if (responseFormat !== undefined && responseFormat !== 'compact' && responseFormat !== 'standard') {
    fail(400, `Unsupported response_format: ${responseFormat.slice(0, 40)}`)
  }
  let raw: unknown = {}
  if (c.req.method === 'POST') {
    const text = await c.req.text()
    if (text.trim() !== '') raw = parseJson(text, 'the request body')
  } else if (q.request !== undefined && q.request.trim() !== '') {
    if (new TextEncoder().encode(q.request).length > MAX_REQUEST_BYTES) fail(400, TOO_LARGE)
    raw = parseJson(q.request, 'the request parameter')
  }
  try {
    const body = requestFormat === 'search-query' ? searchQueryToDsl(raw) : raw
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new SearchError('The search request must be a JSON object')
    // q (URI query syntax) takes the place of the body's query, as in Elasticsearch.
    if (q.q !== undefined) (body as Record<string, unknown>).query = queryStringToDsl(q.q)
    checkListingPage(entityType, body as Record<string, unknown>, q.size)
    const toError = (m: string) => new SearchError(m)
    const includes = parsePatterns(
      q._source_include ?? q._sourceInclude ?? q._source_includes,
      '_source_include',
      toError,
    )
    const excludes = parsePatterns(
      q._source_exclude ?? q._sourceExclude ?? q._source_excludes,
      '_source_exclude',
      toError,
    )
    // Products carry the tax processor's price fields for the visitor's country, as vue-storefront-api
    // adds them; the (memoised) tax rules are read while the search runs.
    const prices =
      entityType === 'product'
        ? getCommerce(c)
            .getTaxRules()
            .then((taxRules) => ({ now: Date.now(), taxRules, country: visitorCountry(c) }))
        : undefined
    const res = await searchCatalog(
      c.env.DB,
      {
        entityType,
        index,
        body: body as Record<string, unknown>,
        size: q.size,
        from: q.from,
        sort: q.sort,
        includes,
        excludes,
        // `shown_price` (a listing's price filter and bands) is the price this visitor is shown.
        ...(prices
          ? {
              shopper: prices.then((p) => ({
                ...p,
                currency: c.var.store?.currency ?? c.var.config.DEFAULT_CURRENCY,
              })),
            }
          : {}),
      },
      prices,
    )
    return c.json(responseFormat === 'compact' ? toCompactResponse(res, entityType) : res)
  } catch (err) {
    if (err instanceof SearchError) fail(400, err.message)
    throw err
  }
})
