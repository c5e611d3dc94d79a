// A local stand-in of a JSON mail API (the shape of Resend's POST /emails: {from, to, subject,
// text, html?, reply_to} with `Authorization: Bearer <key>`, 200 {id} on success, 4xx/5xx envelopes
// otherwise). It checks the key and the fields, records every accepted mail, and drops a repeat
// of an Idempotency-Key it has already accepted, as the real API does.

export const MAIL_API_URL = 'https://mail-api.stand-in.test/emails'

export interface AcceptedMail {
  from: string
  to: string
  subject: string
  text: string
  html?: string
  reply_to?: string
  idempotencyKey: string | null
}

export interface MailStandIn {
  accepted: AcceptedMail[]
  /** Every call, accepted or not. */
  calls: number
  /** Answers of the next calls, in order (a status, or 'hang'); when empty: 200. */
  script: (number | 'hang')[]
  fetch: typeof fetch
}

export function mailApiStandIn(key: string): MailStandIn {
  const seen = new Set<string>()
  const standIn: MailStandIn = {
    accepted: [],
    calls: 0,
    script: [],
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = new Request(input, init)
      standIn.calls++
      const next = standIn.script.shift() ?? 200
      if (next === 'hang')
        return new Promise<Response>((_, reject) =>
          req.signal.addEventListener('abort', () => reject(req.signal.reason)),
        )
      const error = (statusCode: number, message: string) =>
        Response.json({ statusCode, name: 'error', message }, { status: statusCode })
      if (req.method !== 'POST') return error(405, 'Method not allowed')
      if (req.headers.get('authorization') !== `Bearer ${key}`) return error(401, 'API key is invalid')
      const body = (await req.json().catch(() => null)) as Record<string, unknown> | null
      for (const field of ['from', 'to', 'subject', 'text'])
        if (typeof body?.[field] !== 'string' || body[field] === '')
          return error(422, `Missing \`${field}\` field.`)
      if (next !== 200) return error(next, 'stand-in failure')
      const idempotencyKey = req.headers.get('idempotency-key')
      if (idempotencyKey && seen.has(idempotencyKey)) return Response.json({ id: `dup-${idempotencyKey}` })
      if (idempotencyKey) seen.add(idempotencyKey)
      standIn.accepted.push({ ...(body as unknown as AcceptedMail), idempotencyKey })
      return Response.json({ id: `m-${standIn.accepted.length}` })
    }) as typeof fetch,
  }
  return standIn
}
