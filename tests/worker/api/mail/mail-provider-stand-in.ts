// The mail provider as worker tests meet it: the local mail stand-in (scripts/mail-sandbox/, which
// follows Resend's POST /emails: key, fields, Idempotency-Key) behind a script of failures, so a
// test can make the next calls fail (a status) or never answer ('hang').
import { createMailSandbox } from '../../../../scripts/mail-sandbox/sandbox'

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
  /** Answers of the next calls, in order (a status, or 'hang'); when empty: the stand-in's own. */
  script: (number | 'hang')[]
  fetch: typeof fetch
}

export function mailApiStandIn(key: string): MailStandIn {
  const sandbox = createMailSandbox({ key })
  const ids = new Set<string>()
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
      if (next !== 200)
        return Response.json(
          { statusCode: next, name: 'error', message: 'stand-in failure' },
          { status: next },
        )
      const body = (await req
        .clone()
        .json()
        .catch(() => null)) as Record<string, unknown> | null
      const res = await sandbox.fetch(req)
      const id = res.ok ? ((await res.clone().json()) as { id: string }).id : null
      // A repeat of an Idempotency-Key answers the first mail's id: nothing new was sent.
      if (id && !ids.has(id)) {
        ids.add(id)
        standIn.accepted.push({
          ...(body as unknown as AcceptedMail),
          idempotencyKey: req.headers.get('idempotency-key'),
        })
      }
      return res
    }) as typeof fetch,
  }
  return standIn
}
