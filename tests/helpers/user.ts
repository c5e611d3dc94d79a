// Helpers for the transactional worker tests (accounts, carts, orders).
import { env, SELF } from 'cloudflare:test'
import { readConfig } from '../../worker/platform/env'

// biome-ignore lint/suspicious/noExplicitAny: envelopes are asserted field by field in the tests
export type Json = any

export interface ApiAnswer {
  status: number
  json: { code: number; result: Json; meta?: Json }
  headers: Headers
}

let ipCounter = 0
/** A fresh client IP, so rate limits of one test don't leak into another. */
export function freshIp(): string {
  ipCounter++
  return `10.0.${Math.floor(ipCounter / 250)}.${ipCounter % 250}`
}

/**
 * Calls the API like the storefront does and parses the envelope. From 192.0.2.1 unless `ip` names
 * an address; an order (POST /order) comes from an address of its own, so the per-address order
 * limits (tested on their own) do not carry over from one test's orders to another's.
 */
export async function api(
  path: string,
  init: {
    method?: string
    body?: unknown
    bearer?: string
    ip?: string
    rawBody?: string
    headers?: Record<string, string>
  } = {},
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...init.headers }
  if (init.bearer) headers.authorization = `Bearer ${init.bearer}`
  const method = init.method ?? (init.body !== undefined || init.rawBody !== undefined ? 'POST' : 'GET')
  headers['cf-connecting-ip'] =
    init.ip ?? (path.split('?')[0] === '/order' && method === 'POST' ? freshIp() : '192.0.2.1')
  const res = await SELF.fetch(`https://shop.test/api${path}`, {
    method,
    headers,
    body: init.rawBody ?? (init.body !== undefined ? JSON.stringify(init.body) : undefined),
  })
  const text = await res.text()
  let json: Json
  try {
    json = JSON.parse(text)
  } catch {
    throw new Error(`non-JSON answer ${res.status} for ${path}: ${text.slice(0, 200)}`)
  }
  return { status: res.status, json, headers: res.headers }
}

let userCounter = 0
/** Registers a customer and signs in; returns the token pair and the customer id. */
export async function registerAndLogin(prefix = 'user', password = 'Secret123') {
  userCounter++
  const email = `${prefix}${userCounter}-${Math.random().toString(36).slice(2, 8)}@example.com`
  const created = await api('/user/create', {
    body: { customer: { email, firstname: 'Asha', lastname: 'Rao' }, password },
    ip: freshIp(),
  })
  if (created.status !== 200) throw new Error(`create failed: ${JSON.stringify(created.json)}`)
  const login = await api('/user/login', { body: { username: email, password }, ip: freshIp() })
  if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.json)}`)
  const me = await api('/user/me', { bearer: login.json.result })
  return {
    email,
    password,
    id: me.json.result.id as number,
    token: login.json.result as string,
    refreshToken: login.json.meta.refreshToken as string,
    deviceToken: login.json.meta.deviceToken as string | undefined,
  }
}

export interface OutboxMail {
  id: number
  kind: string
  target_address: string
  subject: string
  body: string
  status: string
}

/**
 * The newest outbox mail of `kind` to `to`, waiting for it: mails are recorded after the answer
 * (waitUntil), so a test polls briefly instead of racing the write.
 */
export async function waitForMail(
  kind: string,
  to: string,
  afterId = 0,
  timeoutMs = 5000,
): Promise<OutboxMail> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const row = await env.DB.prepare(
      'SELECT * FROM mail_outbox WHERE kind = ? AND target_address = ? COLLATE NOCASE AND id > ? ORDER BY id DESC LIMIT 1',
    )
      .bind(kind, to, afterId)
      .first<OutboxMail>()
    if (row) return row
    if (Date.now() > until) throw new Error(`no ${kind} mail to ${to} within ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** The highest outbox id now (mails after it are new). */
export async function lastMailId(): Promise<number> {
  const row = await env.DB.prepare('SELECT MAX(id) AS id FROM mail_outbox').first<{ id: number | null }>()
  return row?.id ?? 0
}

/** Asks for a password reset for `email` (from a fresh address) and reads the code its mail carries. */
export async function resetCodeFor(email: string): Promise<string> {
  const before = await lastMailId()
  await api('/user/reset-password', { ip: freshIp(), body: { email } })
  const mail = await waitForMail('password-reset', email, before)
  return /Reset code: (\S+)/.exec(mail.body)?.[1] as string
}

/**
 * Opens or submits a mailed link (a confirmation, an unsubscribe) as a browser (`page`: GET,
 * `form`: POST) or as an API client (`get`: GET, `json`: POST with `body`).
 */
export async function followLink(link: string, how: 'page' | 'form' | 'get' | 'json', body?: string) {
  const headers: Record<string, string> =
    how === 'page'
      ? { accept: 'text/html' }
      : how === 'form'
        ? { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' }
        : { 'content-type': 'application/json' }
  const get = how === 'page' || how === 'get'
  const res = await SELF.fetch(link.replace(readConfig(env).PUBLIC_ORIGIN, 'https://shop.test'), {
    method: get ? 'GET' : 'POST',
    headers,
    body: get ? undefined : (body ?? ''),
  })
  const type = res.headers.get('content-type') ?? ''
  return { status: res.status, type, csp: res.headers.get('content-security-policy'), text: await res.text() }
}
