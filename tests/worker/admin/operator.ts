// Helpers for the back-office tests: operators of each role signed in through the local sign-in,
// and calls carrying their session cookie and CSRF token the way the pages send them.
import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test'
import { hashPassword } from '../../../worker/api/auth/crypto'
import app from '../../../worker/app'

export const PASSWORD = 'correct horse battery staple'
let n = 0

export interface Session {
  email: string
  cookie: string
  csrf: string
}

/** Creates an operator with `role` and signs in; returns the session cookie and its CSRF token. */
export async function operator(role: 'owner' | 'staff' | 'viewer'): Promise<Session> {
  const email = `${role}${++n}-${Math.random().toString(36).slice(2, 8)}@ops.test`
  await env.DB.prepare('INSERT INTO operators (email, role, password_hash, created_at) VALUES (?, ?, ?, ?)')
    .bind(email, role, await hashPassword(PASSWORD), '2026-01-01 00:00:00')
    .run()
  const res = await SELF.fetch('https://shop.test/admin/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': `198.51.100.${n % 250}` },
    body: JSON.stringify({ email, password: PASSWORD }),
  })
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`)
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] as string
  const me = await SELF.fetch('https://shop.test/admin/api/me', { headers: { cookie } })
  const { result } = await me.json<{ result: { csrf: string } }>()
  return { email, cookie, csrf: result.csrf }
}

// biome-ignore lint/suspicious/noExplicitAny: envelopes are asserted field by field
export type Json = any

/** Calls the back office as `who` (JSON in, envelope out). */
export async function admin(
  who: Session | null,
  path: string,
  init: { body?: unknown; csrf?: string | null; headers?: Record<string, string>; method?: string } = {},
): Promise<{ status: number; json: Json; headers: Headers; text: string }> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...init.headers }
  if (who) headers.cookie = who.cookie
  const csrf = init.csrf === undefined ? who?.csrf : init.csrf
  if (csrf) headers['x-csrf-token'] = csrf
  const res = await SELF.fetch(`https://shop.test/admin${path}`, {
    method: init.method ?? (init.body !== undefined ? 'POST' : 'GET'),
    headers,
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
    redirect: 'manual',
  })
  const text = await res.text()
  let json: Json = null
  try {
    json = JSON.parse(text)
  } catch {
    // pages and CSV
  }
  return { status: res.status, json, headers: res.headers, text }
}

/** A form post as a browser sends it, waiting for the work done after the answer. */
export async function post(who: Session, path: string, back: string, fields: [string, string][]) {
  const ctx = createExecutionContext()
  const res = await app.fetch(
    new Request(`https://shop.test/admin${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: who.cookie },
      body: new URLSearchParams([['_csrf', who.csrf], ['return_to', back], ...fields]),
    }),
    env,
    ctx,
  )
  const text = await res.text()
  await waitOnExecutionContext(ctx)
  return {
    status: res.status,
    text,
    type: res.headers.get('content-type') ?? '',
    location: res.headers.get('location'),
  }
}

/** A product's row by SKU with its revision (none until the authoring form saves it); null: no such product. */
export const productBySku = (sku: string) =>
  env.DB.prepare(
    'SELECT p.id, p.status, p.url_path, p.doc, r.revision FROM products p LEFT JOIN product_revisions r ON r.product_id = p.id WHERE p.sku = ?',
  )
    .bind(sku)
    .first<{ id: number; status: number; url_path: string; doc: string; revision: number }>()

/** The kurtas category of the demo catalogue (the deepest whose slug or path names it). */
export const kurtasCategory = async () =>
  (await env.DB.prepare(
    "SELECT id, url_path FROM categories WHERE slug LIKE 'kurtas%' OR url_path LIKE '%/kurtas' ORDER BY level DESC LIMIT 1",
  ).first<{ id: number; url_path: string }>()) as { id: number; url_path: string }

/** A category the forms can file a product under: the first below the top level, by path. */
export const firstSubcategory = async () =>
  (await env.DB.prepare('SELECT id, name FROM categories WHERE level >= 2 ORDER BY url_path LIMIT 1').first<{
    id: number
    name: string
  }>()) as { id: number; name: string }

/** The authoring form's fields of a simple product, then `extra` (its status, attributes, revision). */
export const simpleProductForm = (
  p: { sku: string; name: string; category: number; price: string; qty: string },
  extra: [string, string][] = [],
): [string, string][] => [
  ['type_id', 'simple'],
  ['sku', p.sku],
  ['name', p.name],
  ['category_id', String(p.category)],
  ['price', p.price],
  ['qty', p.qty],
  ...extra,
]
