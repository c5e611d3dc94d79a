/**
 * The back office, mounted at /admin: pages (/admin, /admin/orders, …: ./page-routes.ts) and JSON
 * (/admin/api/*: ./api-routes.ts). Every answer is private (never stored by any cache), not for
 * search engines, and carries its own Content-Security-Policy (no script at all; its one
 * stylesheet by nonce). Everything but the sign-in form needs an operator (see session.ts), and
 * each change needs the role that allows it.
 */
import { type Context, Hono, type MiddlewareHandler } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { secureHeaders } from 'hono/secure-headers'
import { z } from 'zod'
import { limitBody, noStore, ok } from '../platform/http'
import {
  handleError,
  isTransientError,
  MSG_TEMPORARILY_UNAVAILABLE,
  RETRY_AFTER_SECONDS,
} from '../platform/middleware/errors'
import { apiRoutes } from './api-routes'
import type { AdminEnv } from './env'
import { isFormPost, readInput } from './input'
import { pageRoutes } from './page-routes'
import { loginPage } from './pages/frame'
import { replyOnPage } from './replies'
import { LOGIN_MAX_BODY_BYTES, requireOperator, signIn, signOut } from './session'
import { taxDocumentRoutes } from './tax-documents'

const nonce = (c: Context) => `'nonce-${(c as Context<AdminEnv>).var.nonce}'`

const adminHeaders = secureHeaders({
  strictTransportSecurity: 'max-age=63072000; includeSubDomains; preload',
  xFrameOptions: 'DENY',
  referrerPolicy: 'same-origin',
  crossOriginOpenerPolicy: 'same-origin',
  crossOriginResourcePolicy: 'same-origin',
  contentSecurityPolicy: {
    defaultSrc: ["'none'"],
    scriptSrc: ["'none'"],
    styleSrc: [nonce],
    imgSrc: ["'self'", 'data:'],
    formAction: ["'self'"],
    baseUri: ["'none'"],
    frameAncestors: ["'none'"],
  },
})

const notForRobots: MiddlewareHandler<AdminEnv> = async (c, next) => {
  await next()
  c.header('X-Robots-Tag', 'noindex, nofollow')
}

const LoginSchema = z.object({
  email: z
    .string({ error: 'email is required' })
    .trim()
    .toLowerCase()
    .email('email is not an e-mail address')
    .max(254),
  password: z
    .string({ error: 'password is required' })
    .min(1, 'password is required')
    .max(200, 'password is too long'),
})

export const adminApp = new Hono<AdminEnv>()
adminApp.use('*', noStore, notForRobots, adminHeaders)

adminApp.get('/login', (c) => loginPage(c))
adminApp.post('/login', limitBody<AdminEnv>(LOGIN_MAX_BODY_BYTES), async (c) => {
  const input = await readInput(c, LoginSchema, 'sign-in')
  try {
    const op = await signIn(c, input.email, input.password)
    return isFormPost(c) ? c.redirect('/admin', 303) : ok(c as never, { email: op.email, role: op.role })
  } catch (err) {
    if (isFormPost(c) && err instanceof HTTPException && err.status < 500)
      return loginPage(c, err.message, err.status as 400 | 401 | 403 | 429)
    throw err
  }
})

adminApp.use('*', requireOperator)

adminApp.post('/logout', async (c) => {
  await signOut(c)
  return isFormPost(c) ? c.redirect('/admin/login', 303) : ok(c as never, { signedOut: true })
})

adminApp.route('/', pageRoutes)
adminApp.route('/api', apiRoutes)
adminApp.route('/', taxDocumentRoutes)

// JSON callers (/admin/api, or a JSON body) get the envelope, pages the shop's error page.
adminApp.onError(async (err, c) => {
  // A refused form post comes back to its form, with what was typed and why it was refused.
  if (err instanceof HTTPException) {
    const page = await replyOnPage(c, err)
    if (page) return page
  }
  if (
    c.req.path.startsWith('/admin/api/') ||
    (c.req.header('content-type') ?? '').includes('application/json')
  ) {
    if (err instanceof HTTPException) return c.json({ code: err.status, result: err.message }, err.status)
    console.error(JSON.stringify({ requestId: c.var.requestId, msg: 'admin api failed', err: String(err) }))
    if (isTransientError(err)) {
      c.header('Retry-After', String(RETRY_AFTER_SECONDS))
      return c.json({ code: 503, result: MSG_TEMPORARILY_UNAVAILABLE }, 503)
    }
    return c.json({ code: 500, result: `Internal error (request ${c.var.requestId})` }, 500)
  }
  return handleError(err, c as never)
})
