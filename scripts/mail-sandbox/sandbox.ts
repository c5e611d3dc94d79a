/**
 * The local mail stand-in: Resend's send API as the shop calls it, and a clearly labelled TEST
 * page listing what each address received, each mail's HTML rendered as a mail client would.
 *
 * - `POST /emails` with `Authorization: Bearer <key>` and a JSON body {from, to (an address or a
 *   list of at most 50), subject, html and/or text, reply_to?, headers?} → 200 {id}. A missing key
 *   is 401 `missing_api_key`, a wrong one 403 `invalid_api_key`, a missing field 422
 *   `missing_required_field`, a malformed one 400 `validation_error`, each as
 *   {statusCode, name, message}.
 * - `Idempotency-Key` (1–256 characters, else 400 `invalid_idempotency_key`; kept 24 h): a
 *   repeat with the same body answers the first mail's id and sends nothing; the same key with
 *   another body is 409 `invalid_idempotent_request`.
 * - `GET /emails/{id}` (same key) reads a sent mail back.
 * - `/test` lists the addresses and their mails; `/test/mail/{id}` shows one mail's HTML in a
 *   sandboxed frame (no script runs, images load) beside its text; `/test/inbox?to=` gives one
 *   address's mails as JSON for browser tests.
 *
 * State lives in memory. Written against Web APIs only; the worker never imports it.
 */

import { esc } from '../../worker/mail/html.ts'

/** The test key `npm start` gives the shop when no mail provider is set. */
export const MAIL_SANDBOX_KEY = 're_sandbox_local_test_key'

/** The shop's mail settings for a stand-in at `origin`. */
export function mailSandboxVars(origin: string): Record<string, string> {
  return { MAIL_PROVIDER_URL: `${origin}/emails`, MAIL_PROVIDER_KEY: MAIL_SANDBOX_KEY }
}

interface SbMail {
  id: string
  from: string
  to: string[]
  subject: string
  html: string | null
  text: string | null
  reply_to: string | null
  created_at: string
}

const MAX_RECIPIENTS = 50
const IDEMPOTENCY_TTL_MS = 24 * 3600_000
const ADDRESS = /^(?:[^<>@\s]+@[^<>@\s]+\.[^<>@\s]+|[^<>]*<[^<>@\s]+@[^<>@\s]+\.[^<>@\s]+>)$/

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
const error = (statusCode: number, name: string, message: string) =>
  json({ statusCode, name, message }, statusCode)

const page = (title: string, body: string) =>
  new Response(
    `<!doctype html><meta charset="utf-8"><title>${esc(title)}</title>
<style>body{font:15px system-ui,sans-serif;margin:0}.banner{background:#b71c1c;color:#fff;padding:.6rem 1rem;font-weight:700}main{padding:1rem;max-width:60rem}li{margin:.3rem 0}iframe{width:100%;height:70vh;border:1px solid #ccc}pre{white-space:pre-wrap;background:#f6f6f6;padding:.8rem}</style>
<div class="banner" role="alert">TEST MODE — local mail stand-in. No real mail is sent.</div>
<main>${body}</main>`,
    { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } },
  )

export function createMailSandbox(opts: { key?: string } = {}) {
  const key = opts.key ?? MAIL_SANDBOX_KEY
  const mails: SbMail[] = []
  const idempotent = new Map<string, { body: string; id: string; at: number }>()
  let counter = 0

  function authorised(req: Request): Response | null {
    const auth = req.headers.get('authorization')
    if (!auth) return error(401, 'missing_api_key', 'Missing API key in the authorization header.')
    if (auth !== `Bearer ${key}`) return error(403, 'invalid_api_key', 'API key is invalid')
    return null
  }

  async function send(req: Request): Promise<Response> {
    const raw = await req.text()
    let body: Record<string, unknown>
    try {
      body = JSON.parse(raw) as Record<string, unknown>
    } catch {
      return error(400, 'validation_error', 'Invalid JSON body.')
    }
    if (typeof body !== 'object' || body === null) return error(400, 'validation_error', 'Invalid JSON body.')
    for (const field of ['from', 'to', 'subject'])
      if (body[field] === undefined || body[field] === '')
        return error(422, 'missing_required_field', `Missing \`${field}\` field.`)
    const to = Array.isArray(body.to) ? body.to : [body.to]
    if (to.length > MAX_RECIPIENTS || to.some((a) => typeof a !== 'string' || !ADDRESS.test(a)))
      return error(400, 'validation_error', 'Invalid `to` field.')
    if (typeof body.from !== 'string' || !ADDRESS.test(body.from))
      return error(
        400,
        'validation_error',
        'Invalid `from` field. The email address needs to follow the `email@example.com` or `Name <email@example.com>` format.',
      )
    if (typeof body.subject !== 'string') return error(400, 'validation_error', 'Invalid `subject` field.')
    const html = typeof body.html === 'string' ? body.html : null
    const text = typeof body.text === 'string' ? body.text : null
    if (!html && !text) return error(422, 'missing_required_field', 'Missing `html` or `text` field.')
    const idemKey = req.headers.get('idempotency-key')
    if (idemKey !== null) {
      if (idemKey.length === 0 || idemKey.length > 256)
        return error(400, 'invalid_idempotency_key', 'The key must be between 1-256 chars.')
      const seen = idempotent.get(idemKey)
      if (seen && Date.now() - seen.at < IDEMPOTENCY_TTL_MS) {
        if (seen.body !== raw)
          return error(
            409,
            'invalid_idempotent_request',
            'Same idempotency key used with a different request payload.',
          )
        return json({ id: seen.id })
      }
    }
    const id = `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`
    mails.push({
      id,
      from: body.from,
      to: to as string[],
      subject: body.subject,
      html,
      text,
      reply_to: typeof body.reply_to === 'string' ? body.reply_to : null,
      created_at: new Date().toISOString(),
    })
    if (idemKey !== null) idempotent.set(idemKey, { body: raw, id, at: Date.now() })
    return json({ id })
  }

  const addressOf = (a: string) => (a.match(/<([^>]+)>$/)?.[1] ?? a).toLowerCase()
  const inbox = (address: string) =>
    mails.filter((m) => m.to.some((t) => addressOf(t) === address.toLowerCase()))

  function listPage(): Response {
    const addresses = [...new Set(mails.flatMap((m) => m.to.map(addressOf)))].sort()
    const sections = addresses
      .map((a) => {
        const rows = inbox(a)
          .map(
            (m) =>
              `<li><a href="/test/mail/${m.id}">${esc(m.subject)}</a> <small>${esc(m.created_at)}</small></li>`,
          )
          .join('')
        return `<section><h2>${esc(a)}</h2><ul>${rows}</ul></section>`
      })
      .join('')
    return page('TEST mail', `<h1>TEST mail</h1>${sections || '<p>No mail yet.</p>'}`)
  }

  function mailPage(m: SbMail): Response {
    return page(
      m.subject,
      `<p><a href="/test">All mail</a></p><h1>${esc(m.subject)}</h1>
<p>From ${esc(m.from)} to ${esc(m.to.join(', '))}${m.reply_to ? `, reply to ${esc(m.reply_to)}` : ''}</p>
${m.html ? `<iframe title="HTML part" sandbox src="/test/mail/${m.id}/html"></iframe>` : ''}
${m.text ? `<h2>Text part</h2><pre>${esc(m.text)}</pre>` : ''}`,
    )
  }

  async function handle(req: Request): Promise<Response> {
    const url = new URL(req.url)
    const path = url.pathname
    if (path === '/emails' && req.method === 'POST') return authorised(req) ?? send(req)
    const read = path.match(/^\/emails\/([\w-]+)$/)
    if (read && req.method === 'GET') {
      const refused = authorised(req)
      if (refused) return refused
      const m = mails.find((x) => x.id === read[1])
      return m
        ? json({ object: 'email', ...m, last_event: 'delivered' })
        : error(404, 'not_found', 'Email not found')
    }
    if (req.method !== 'GET')
      return error(405, 'method_not_allowed', 'Method is not allowed for the requested path.')
    if (path === '/test') return listPage()
    if (path === '/test/inbox') return json(inbox(url.searchParams.get('to') ?? ''))
    const shown = path.match(/^\/test\/mail\/([\w-]+)(\/html)?$/)
    const m = shown && mails.find((x) => x.id === shown[1])
    if (m && shown?.[2]) {
      // The mail's own HTML, as a mail client shows it: styles and pictures, never a script.
      return new Response(m.html ?? '', {
        headers: {
          'content-type': 'text/html; charset=utf-8',
          'content-security-policy':
            "sandbox; default-src 'none'; img-src * data:; style-src 'unsafe-inline'",
          'cache-control': 'no-store',
        },
      })
    }
    if (m) return mailPage(m)
    return error(404, 'not_found', 'The requested endpoint does not exist.')
  }

  return { fetch: handle, inbox }
}
