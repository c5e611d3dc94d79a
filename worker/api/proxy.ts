/**
 * Upstream proxy: with API_UPSTREAM set, /api/* is forwarded to a vue-storefront-api compatible
 * server (method, path, query, body and the store and price headers). A 5000 ms time-out
 * answers a 504 envelope; an unreachable upstream a 502 envelope; an upstream 5xx that is not
 * already a `{code, result}` envelope is passed on as one (same status). Everything else (2xx-4xx,
 * including the raw Elasticsearch catalogue answers and /api/url/map's bare hits) passes through.
 */
import type { Context } from 'hono'
import type { AppEnv } from '../platform/env'
import { fetchOutbound, OutboundError } from '../platform/fetch'
import { ok } from '../platform/http'

/** How long the upstream may take to answer a forwarded call. */
const UPSTREAM_TIMEOUT_MS = 5000

/** Request headers forwarded upstream: JSON content negotiation, auth, and the store and price headers. */
const FORWARDED_HEADERS = [
  'content-type',
  'accept',
  'authorization',
  'store',
  'x-vs-store-code',
  'send-final-price',
  'send-converted-price',
  'country-id',
  'currency',
] as const

/** Response headers passed back to the browser. */
const RETURNED_HEADERS = [
  'content-type',
  'cache-control',
  'x-vs-cache',
  'x-vs-cache-tags',
  'etag',
  'last-modified',
]

function isEnvelope(text: string): boolean {
  try {
    const v = JSON.parse(text) as unknown
    return typeof v === 'object' && v !== null && 'code' in v && 'result' in v
  } catch {
    return false
  }
}

/** Forwards the current /api request to `upstream` (the fetcher and time-out are injectable for tests). */
export async function proxyToUpstream(
  c: Context<AppEnv>,
  upstream: string,
  fetcher: typeof fetch = fetch,
  timeoutMs: number = UPSTREAM_TIMEOUT_MS,
): Promise<Response> {
  const url = new URL(c.req.url)
  // Our client sends the access token only as `Authorization: Bearer`; a vue-storefront-api reads
  // `?token=` unless configured for the header, so the proxy adds it on the server-to-server hop.
  const bearer = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1]?.trim()
  if (bearer && !url.searchParams.get('token')) url.searchParams.set('token', bearer)
  const target = `${upstream}${url.pathname}${url.search}`
  const headers = new Headers()
  for (const name of FORWARDED_HEADERS) {
    const v = c.req.header(name)
    if (v) headers.set(name, v)
  }
  headers.set('x-request-id', c.var.requestId)
  const method = c.req.method
  const body = method === 'GET' || method === 'HEAD' ? undefined : await c.req.arrayBuffer()
  let res: Response
  try {
    res = await fetchOutbound('Upstream API', target, {
      method,
      headers,
      body,
      fetchImpl: fetcher,
      timeoutMs,
    })
  } catch (err) {
    if (!(err instanceof OutboundError)) throw err
    return ok(c, err.message, { requestId: c.var.requestId }, err.kind === 'timeout' ? 504 : 502)
  }
  const out = new Headers()
  for (const name of RETURNED_HEADERS) {
    const v = res.headers.get(name)
    if (v) out.set(name, v)
  }
  if (res.status >= 500) {
    const text = await res.text().catch(() => '')
    if (!isEnvelope(text))
      return ok(c, `Upstream API error (${res.status})`, { requestId: c.var.requestId }, res.status)
    out.set('content-type', 'application/json; charset=utf-8')
    return new Response(text, { status: res.status, headers: out })
  }
  return new Response(res.body, { status: res.status, headers: out })
}
