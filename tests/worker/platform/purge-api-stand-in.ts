// A local stand-in of Cloudflare's zone purge endpoint (POST /zones/:zone/purge_cache): it checks
// the method, the bearer token, the zone and the body as the real endpoint documents them (a JSON
// object with a non-empty `tags` array of at most 100 strings), answers the documented envelope
// ({success, errors, messages, result}) and records every tag it accepted.

export const STAND_IN_BASE = 'https://purge-api.stand-in.test/client/v4'

export interface PurgeStandIn {
  /** Tags of every accepted purge request, one array per request, in order. */
  requests: string[][]
  /** What the next requests answer: a status, or 'hang' (never answers). */
  answer: number | 'hang'
  fetch: typeof fetch
}

export function purgeApiStandIn(opts: { zoneId: string; token: string }): PurgeStandIn {
  const standIn: PurgeStandIn = {
    requests: [],
    answer: 200,
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = new Request(input, init)
      const envelope = (status: number, errors: { code: number; message: string }[]) =>
        Response.json(
          {
            success: status === 200,
            errors,
            messages: [],
            result: status === 200 ? { id: 'purge-1' } : null,
          },
          { status },
        )
      if (standIn.answer === 'hang')
        return new Promise<Response>((_, reject) =>
          req.signal.addEventListener('abort', () => reject(req.signal.reason)),
        )
      const url = new URL(req.url)
      if (req.method !== 'POST') return envelope(405, [{ code: 10000, message: 'method not allowed' }])
      if (url.pathname !== `/client/v4/zones/${opts.zoneId}/purge_cache`)
        return envelope(404, [{ code: 7003, message: 'Could not route to the zone' }])
      if (req.headers.get('authorization') !== `Bearer ${opts.token}`)
        return envelope(403, [{ code: 10000, message: 'Authentication error' }])
      if (!req.headers.get('content-type')?.startsWith('application/json'))
        return envelope(400, [{ code: 1012, message: 'content-type must be application/json' }])
      const body = (await req.json().catch(() => null)) as { tags?: unknown } | null
      const tags = body?.tags
      if (
        !Array.isArray(tags) ||
        tags.length === 0 ||
        tags.length > 100 ||
        !tags.every((t) => typeof t === 'string' && t.length > 0 && t.length <= 1024)
      )
        return envelope(400, [{ code: 1015, message: 'tags must be 1..100 non-empty strings' }])
      if (standIn.answer !== 200)
        return envelope(standIn.answer, [{ code: 10000, message: 'stand-in failure' }])
      standIn.requests.push(tags as string[])
      return envelope(200, [])
    }) as typeof fetch,
  }
  return standIn
}
