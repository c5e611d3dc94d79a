/**
 * Who is calling the back office. Behind Cloudflare Access the Access assertion is the only proof
 * (the local sign-in is off); otherwise an operator signs in with e-mail and password (PBKDF2, its
 * own table: a shopper account is never an operator) and gets an HttpOnly, SameSite=Strict session
 * cookie scoped to /admin. Shopper tokens (Authorization headers, shop cookies) are never read here.
 *
 * Every request that changes something carries a CSRF token bound to the operator's session (or
 * Access identity and day) and must come from this origin.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import {
  constantTimeEqual,
  hmacSha256,
  randomToken,
  sha256Hex,
  toBase64Url,
  verifyPassword,
} from '../api/auth/crypto'
import { release, reserveOrReject } from '../api/auth/rate-limit'
import { tokenSecret } from '../api/auth/tokens'
import { clientAddress, fail } from '../platform/http'
import { ACCESS_JWT_HEADER, AccessKeysUnavailable, verifyAccessAssertion } from './access'
import { auditStatement } from './audit'
import { accessSettings } from './config'
import type { AdminEnv, Operator } from './env'
import { isRole, type Role } from './roles'

const SESSION_COOKIE = 'admin_session'
const CSRF_HEADER = 'x-csrf-token'
const SESSION_TTL_MS = 12 * 60 * 60 * 1000
const DAY_MS = 24 * 60 * 60 * 1000
const LOGIN_LIMIT_PER_IP = 10
const LOGIN_LIMIT_PER_ACCOUNT = 10
const LOGIN_WINDOW_MS = 15 * 60 * 1000
/**
 * Largest sign-in body read (an e-mail of ≤ 254 and a password of ≤ 200 characters, form- or
 * JSON-encoded); a longer one is refused while it is read, so a huge body costs nothing.
 */
export const LOGIN_MAX_BODY_BYTES = 4096

const MSG_SIGN_IN = 'Sign in as an operator to use the back office.'
const MSG_ACCESS_NOT_CONFIGURED =
  'The back office needs Cloudflare Access here: set ACCESS_TEAM_DOMAIN and ACCESS_AUD (the local operator sign-in exists for development and tests only).'
const MSG_ACCESS_REQUIRED =
  'This back office is behind Cloudflare Access: a valid Access assertion is required.'
const MSG_NOT_OPERATOR = 'This identity is not an operator of this shop.'
const MSG_ACCESS_KEYS_UNAVAILABLE =
  'The back office cannot check your Cloudflare Access sign-in right now (the team’s signing keys cannot be read). Please try again in a moment.'
const MSG_LOCAL_DISABLED = 'Local operator sign-in is disabled: this back office is behind Cloudflare Access.'
const MSG_BAD_LOGIN = 'The e-mail or password is not right.'
const MSG_CSRF = 'Missing or invalid CSRF token: reload the page and try again.'
const MSG_CROSS_SITE = 'Cross-site requests are refused.'

interface OperatorRow {
  id: number
  email: string
  role: string
  password_hash: string | null
  disabled_at: string | null
}

function activeOperator(row: OperatorRow | null): (OperatorRow & { role: Role }) | null {
  if (!row || row.disabled_at || !isRole(row.role)) return null
  return row as OperatorRow & { role: Role }
}

async function fromAccess(c: Context<AdminEnv>): Promise<Operator> {
  const settings = accessSettings(c.env) as NonNullable<ReturnType<typeof accessSettings>>
  let email: string | null
  try {
    email = await verifyAccessAssertion(c.req.header(ACCESS_JWT_HEADER), settings)
  } catch (err) {
    if (!(err instanceof AccessKeysUnavailable)) throw err
    // Access itself is down or unreachable: a retry can fix it (503), and nothing is refused for good.
    console.error(
      JSON.stringify({ requestId: c.var.requestId, msg: 'access keys unavailable', why: err.message }),
    )
    c.header('retry-after', String(err.retryAfterSeconds))
    return fail(503, MSG_ACCESS_KEYS_UNAVAILABLE)
  }
  if (!email) return fail(403, MSG_ACCESS_REQUIRED)
  const row = activeOperator(
    await c.env.DB.prepare('SELECT * FROM operators WHERE email = ?').bind(email).first<OperatorRow>(),
  )
  if (!row) return fail(403, MSG_NOT_OPERATOR)
  return { id: row.id, email: row.email, role: row.role, via: 'access', csrfKey: `access:${row.email}` }
}

async function fromSession(c: Context<AdminEnv>, now: number): Promise<Operator | null> {
  const token = getCookie(c, SESSION_COOKIE)
  if (!token || token.length > 200) return null
  const hash = await sha256Hex(token)
  const row = activeOperator(
    await c.env.DB.prepare(
      `SELECT o.* FROM operator_sessions s JOIN operators o ON o.id = s.operator_id
       WHERE s.token_hash = ? AND s.expires_at > ?`,
    )
      .bind(hash, now)
      .first<OperatorRow>(),
  )
  if (!row) return null
  return { id: row.id, email: row.email, role: row.role, via: 'session', csrfKey: `session:${hash}` }
}

const hmac = async (secret: string, text: string) => toBase64Url(await hmacSha256(secret, text))

/** The CSRF token of an operator (an Access identity's changes with the day; the previous day's still holds). */
function csrfToken(c: Context<AdminEnv>, op: Operator, now: number, daysBack = 0): Promise<string> {
  const secret = tokenSecret(c.env, c.var.config)
  const scope = op.via === 'access' ? `${op.csrfKey}:${Math.floor(now / DAY_MS) - daysBack}` : op.csrfKey
  return hmac(secret, `admin-csrf|${scope}`)
}

async function csrfMatches(c: Context<AdminEnv>, op: Operator, given: string, now: number): Promise<boolean> {
  const enc = new TextEncoder()
  for (const back of op.via === 'access' ? [0, 1] : [0]) {
    const expected = await csrfToken(c, op, now, back)
    if (given.length === expected.length && constantTimeEqual(enc.encode(given), enc.encode(expected)))
      return true
  }
  return false
}

/** The local operator sign-in is for development and tests; anywhere else only Access opens /admin. */
function localSignInAllowed(c: Context<AdminEnv>): boolean {
  const environment = c.var.config.ENVIRONMENT
  return environment === 'development' || environment === 'test'
}

/** A request that changes something must come from this origin (browsers say where they come from). */
function refuseCrossSite(c: Context<AdminEnv>): void {
  const site = c.req.header('sec-fetch-site')
  if (site && site !== 'same-origin' && site !== 'none') fail(403, MSG_CROSS_SITE)
  const origin = c.req.header('origin')
  if (origin && origin !== new URL(c.req.url).origin) fail(403, MSG_CROSS_SITE)
}

const isMutation = (method: string) => !['GET', 'HEAD', 'OPTIONS'].includes(method)

/** The form field or header a mutation's CSRF token travels in. */
async function givenCsrf(c: Context<AdminEnv>): Promise<string> {
  const header = c.req.header(CSRF_HEADER)
  if (header) return header
  const type = c.req.header('content-type') ?? ''
  if (type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data')) {
    const form = await c.req.parseBody()
    return typeof form._csrf === 'string' ? form._csrf : ''
  }
  return ''
}

/**
 * Resolves the operator of every request under /admin (pages redirect to the sign-in form, JSON
 * answers 401/403), and checks origin and CSRF token of every mutation.
 */
export const requireOperator: MiddlewareHandler<AdminEnv> = async (c, next) => {
  const now = Date.now()
  const access = accessSettings(c.env)
  if (!access && !localSignInAllowed(c)) fail(403, MSG_ACCESS_NOT_CONFIGURED)
  const op = access ? await fromAccess(c) : await fromSession(c, now)
  if (!op) {
    if (c.req.method === 'GET' && !new URL(c.req.url).pathname.startsWith('/admin/api/')) {
      return c.redirect('/admin/login', 303)
    }
    return fail(401, MSG_SIGN_IN)
  }
  if (isMutation(c.req.method)) {
    refuseCrossSite(c)
    if (!(await csrfMatches(c, op, await givenCsrf(c), now))) fail(403, MSG_CSRF)
  }
  c.set('operator', op)
  c.set('csrf', await csrfToken(c, op, now))
  await next()
}

/**
 * Signs an operator in with e-mail and password (local mode only); sets the session cookie.
 *
 * Only failures count toward the per-address and per-account limits: every attempt reserves a
 * slot first (so parallel guesses are counted before any password is checked), and a correct
 * password gives its slot back. Counting successes would lock the owner, and everyone behind the
 * office's address, out after ten ordinary sign-ins in 15 minutes; resetting the counters on
 * success instead would hand a guesser a fresh ten tries after each of the owner's sign-ins.
 */
export async function signIn(c: Context<AdminEnv>, email: string, password: string): Promise<Operator> {
  if (accessSettings(c.env)) fail(403, MSG_LOCAL_DISABLED)
  if (!localSignInAllowed(c)) fail(403, MSG_ACCESS_NOT_CONFIGURED)
  refuseCrossSite(c)
  const now = Date.now()
  const db = c.env.DB
  const ipKey = `admin-login:ip:${clientAddress(c)}`
  const accountKey = `admin-login:acct:${email.toLowerCase()}`
  await reserveOrReject(
    db,
    [
      { key: ipKey, limit: LOGIN_LIMIT_PER_IP, windowMs: LOGIN_WINDOW_MS },
      { key: accountKey, limit: LOGIN_LIMIT_PER_ACCOUNT, windowMs: LOGIN_WINDOW_MS },
    ],
    now,
    'Too many sign-in attempts: wait 15 minutes and try again.',
  )
  const row = await db.prepare('SELECT * FROM operators WHERE email = ?').bind(email).first<OperatorRow>()
  // The password is checked even for unknown or disabled operators, so timing tells nothing.
  const matches = await verifyPassword(password, row?.password_hash ?? null)
  const op = activeOperator(row)
  if (!op || !matches) fail(401, MSG_BAD_LOGIN)
  await Promise.all([release(db, ipKey), release(db, accountKey)])
  const token = randomToken()
  const hash = await sha256Hex(token)
  await db.batch([
    db.prepare('DELETE FROM operator_sessions WHERE expires_at <= ?').bind(now),
    db
      .prepare(
        'INSERT INTO operator_sessions (token_hash, operator_id, created_at, expires_at) VALUES (?, ?, ?, ?)',
      )
      .bind(hash, op.id, now, now + SESSION_TTL_MS),
    auditStatement(db, { actor: op.email, action: 'operator.sign-in', target: `operator:${op.id}` }, now),
  ])
  setCookie(c, SESSION_COOKIE, token, {
    path: '/admin',
    httpOnly: true,
    sameSite: 'Strict',
    secure: new URL(c.req.url).protocol === 'https:',
    maxAge: SESSION_TTL_MS / 1000,
  })
  return { id: op.id, email: op.email, role: op.role, via: 'session', csrfKey: `session:${hash}` }
}

/** Ends the operator's local session. */
export async function signOut(c: Context<AdminEnv>): Promise<void> {
  const token = getCookie(c, SESSION_COOKIE)
  if (token)
    await c.env.DB.prepare('DELETE FROM operator_sessions WHERE token_hash = ?')
      .bind(await sha256Hex(token))
      .run()
  deleteCookie(c, SESSION_COOKIE, { path: '/admin' })
}
