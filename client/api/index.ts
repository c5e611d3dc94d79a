/**
 * The one place the browser calls `/api/*`. Every request carries the headers the spec requires
 * (transactions spec §7): JSON content type, the store name, send-final-price, send-converted-price,
 * country-id (IN/US/GB/ROW) and the currency.
 */
import type { z } from 'zod'
import { pricingCountry } from '../../shared/config/store'

export const MSG_BAD_CONTENT_TYPE = 'Error with response - bad content-type!'
export const MSG_WRONG_FORMAT = 'Unhandled error, wrong response format!'

export interface ApiContext {
  storeCode: string
  currency: string
  country: string
}

/** The request context the server rendered into <html data-*>. */
export function currentApiContext(): ApiContext {
  const ds = typeof document !== 'undefined' ? document.documentElement.dataset : {}
  return {
    storeCode: ds.store ?? 'default',
    currency: ds.currency ?? 'INR',
    country: ds.country ?? 'IN',
  }
}

/** Headers sent with every /api request. */
export function apiHeaders(ctx: ApiContext = currentApiContext()): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json',
    store: ctx.storeCode,
    'x-vs-store-code': ctx.storeCode,
    'send-final-price': 'true',
    'send-converted-price': 'true',
    'country-id': pricingCountry(ctx.country),
    currency: ctx.currency,
  }
}

export interface ApiEnvelope<T = unknown> {
  code: number
  result: T
  meta?: Record<string, unknown>
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly body?: unknown,
  ) {
    super(message)
    this.name = 'ApiError'
  }
}

export interface ApiRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE'
  query?: Record<string, string | number | boolean | undefined | null>
  body?: unknown
  signal?: AbortSignal
  /** Injected for tests; defaults to the global fetch. */
  fetch?: typeof fetch
  context?: ApiContext
}

/** Builds `/api/...?query` with undefined/null query values dropped. */
export function apiUrl(path: string, query?: ApiRequest['query']): string {
  const url = path.startsWith('/api/') ? path : `/api/${path.replace(/^\/+/, '')}`
  if (!query) return url
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) params.set(k, String(v))
  const qs = params.toString()
  return qs ? `${url}${url.includes('?') ? '&' : '?'}${qs}` : url
}

/**
 * Calls the API and returns the parsed JSON body. Rejects with the spec's messages for a non-JSON
 * response or a missing body. Non-2xx envelopes resolve too: callers read `code` (VSF semantics).
 */
export async function apiRaw(path: string, req: ApiRequest = {}): Promise<{ status: number; body: unknown }> {
  const doFetch = req.fetch ?? fetch
  const res = await doFetch(apiUrl(path, req.query), {
    method: req.method ?? (req.body === undefined ? 'GET' : 'POST'),
    headers: apiHeaders(req.context),
    body: req.body === undefined ? undefined : JSON.stringify(req.body),
    signal: req.signal,
    credentials: 'same-origin',
  })
  const type = res.headers.get('content-type') ?? ''
  if (!type.includes('application/json')) throw new ApiError(MSG_BAD_CONTENT_TYPE, res.status)
  const text = await res.text()
  if (!text) throw new ApiError(MSG_WRONG_FORMAT, res.status)
  try {
    return { status: res.status, body: JSON.parse(text) }
  } catch {
    throw new ApiError(MSG_WRONG_FORMAT, res.status)
  }
}

/** Calls an envelope endpoint; validates `result` with the schema when given. */
export async function api<T>(
  path: string,
  req: ApiRequest & { schema?: z.ZodType<T> } = {},
): Promise<ApiEnvelope<T>> {
  const { body } = await apiRaw(path, req)
  if (!body || typeof body !== 'object' || !('code' in body)) throw new ApiError(MSG_WRONG_FORMAT, 0, body)
  const env = body as ApiEnvelope<unknown>
  if (req.schema && env.code >= 200 && env.code < 300) {
    const parsed = req.schema.safeParse(env.result)
    if (!parsed.success) throw new ApiError(MSG_WRONG_FORMAT, env.code, body)
    return { ...env, result: parsed.data }
  }
  return env as ApiEnvelope<T>
}
