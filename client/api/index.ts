/**
 * The one place the browser calls `/api/*`. Every request carries the required headers: JSON
 * content type, the store name, send-final-price, send-converted-price, country-id
 * (IN/US/GB/ROW) and the currency. The user's access token travels only as
 * `Authorization: Bearer`, never in a URL (where history, logs, analytics and Referer would see
 * it): a `token` handed over in the query or in the path's query string is moved to the header.
 */
import { DEFAULT_COUNTRY, DEFAULT_CURRENCY, pricingCountry } from '@shared/config/store'

export const MSG_BAD_CONTENT_TYPE = 'Error with response - bad content-type!'
export const MSG_WRONG_FORMAT = 'Unhandled error, wrong response format!'

interface ApiContext {
  storeCode: string
  currency: string
  country: string
}

/** The request context the server rendered into <html data-*>. */
export function currentApiContext(): ApiContext {
  const ds = typeof document !== 'undefined' ? document.documentElement.dataset : {}
  return {
    storeCode: ds.store ?? 'default',
    currency: ds.currency ?? DEFAULT_CURRENCY,
    country: ds.country ?? DEFAULT_COUNTRY,
  }
}

/** Headers sent with every /api request. */
function apiHeaders(ctx: ApiContext = currentApiContext()): Record<string, string> {
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

interface ApiEnvelope<T = unknown> {
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

interface ApiRequest {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE'
  query?: Record<string, string | number | boolean | undefined | null>
  /** The user's access token, sent as `Authorization: Bearer` (null/empty: a guest call). */
  token?: string | null
  body?: unknown
  /** Extra request headers (e.g. an order page's link token); never a secret that belongs in a body. */
  headers?: Record<string, string>
  signal?: AbortSignal
  /** Injected for tests; defaults to the global fetch. */
  fetch?: typeof fetch
  context?: ApiContext
}

/** Builds `/api/...?query` with undefined/null query values dropped. */
function apiUrl(path: string, query?: ApiRequest['query']): string {
  const url = path.startsWith('/api/') ? path : `/api/${path.replace(/^\/+/, '')}`
  if (!query) return url
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) params.set(k, String(v))
  const qs = params.toString()
  return qs ? `${url}${url.includes('?') ? '&' : '?'}${qs}` : url
}

/**
 * Splits the access token off a request: the URL without any `token` parameter (from `query` or
 * already in `path`) and the token for the Authorization header (an explicit `token` wins).
 */
export function withoutTokenInUrl(
  path: string,
  query?: ApiRequest['query'],
  token?: string | null,
): { url: string; token: string | null } {
  let found: string | null = null
  let rest = query
  if (query && 'token' in query) {
    const { token: fromQuery, ...others } = query
    if (fromQuery !== undefined && fromQuery !== null && fromQuery !== '') found = String(fromQuery)
    rest = others
  }
  let url = apiUrl(path, rest)
  const q = url.indexOf('?')
  if (q >= 0) {
    const params = new URLSearchParams(url.slice(q + 1))
    if (params.has('token')) {
      found = found ?? (params.get('token') || null)
      params.delete('token')
      const qs = params.toString()
      url = qs ? `${url.slice(0, q)}?${qs}` : url.slice(0, q)
    }
  }
  return { url, token: token || found }
}

/**
 * Calls the API and returns the parsed JSON body. Rejects with ApiError (MSG_BAD_CONTENT_TYPE,
 * MSG_WRONG_FORMAT) for a non-JSON response, an empty body or JSON that does not parse. Non-2xx
 * envelopes resolve too: callers read `code`.
 */
export async function apiRaw(path: string, req: ApiRequest = {}): Promise<{ status: number; body: unknown }> {
  return readJson(await send(path, req))
}

/** Sends a request with the headers every /api call carries (the token as a header, never in the URL). */
function send(path: string, req: ApiRequest): Promise<Response> {
  const doFetch = req.fetch ?? fetch
  const { url, token } = withoutTokenInUrl(path, req.query, req.token)
  const headers = { ...apiHeaders(req.context), ...req.headers }
  if (token) headers.authorization = `Bearer ${token}`
  return doFetch(url, {
    method: req.method ?? (req.body === undefined ? 'GET' : 'POST'),
    headers,
    body: req.body === undefined ? undefined : JSON.stringify(req.body),
    signal: req.signal,
    credentials: 'same-origin',
  })
}

/**
 * Calls an endpoint that answers a file (a tax invoice): the file and its name on success; a JSON
 * envelope instead (a refusal) rejects with ApiError carrying the envelope's message.
 */
export async function apiFile(
  path: string,
  req: ApiRequest = {},
): Promise<{ blob: Blob; fileName: string | null }> {
  const res = await send(path, req)
  if (res.ok && !(res.headers.get('content-type') ?? '').includes('application/json')) {
    const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? null
    return { blob: await res.blob(), fileName: name }
  }
  const { status, body } = await readJson(res)
  const result = body && typeof body === 'object' && 'result' in body ? (body as ApiEnvelope).result : null
  throw new ApiError(typeof result === 'string' ? result : MSG_WRONG_FORMAT, status, body)
}

/** A response's JSON body (ApiError for anything else). */
async function readJson(res: Response): Promise<{ status: number; body: unknown }> {
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

/**
 * Calls an envelope endpoint and returns the envelope. A body that is not an envelope (no `code`)
 * rejects with ApiError(MSG_WRONG_FORMAT); `result` is the caller's to check (`T` only names it).
 */
export async function api<T>(path: string, req: ApiRequest = {}): Promise<ApiEnvelope<T>> {
  const { body } = await apiRaw(path, req)
  if (!body || typeof body !== 'object' || !('code' in body)) throw new ApiError(MSG_WRONG_FORMAT, 0, body)
  return body as ApiEnvelope<T>
}
