/**
 * Links in our mails that act without a sign-in (the newsletter's confirm and leave links, a
 * back-in-stock mail's unsubscribe link).
 *
 * - A link's `key` is an HS256 JWT signed with TOKEN_SECRET; its `typ` names the one action it is
 *   good for and `email` the address it acts on. It is built from PUBLIC_ORIGIN, never from the
 *   request's host.
 * - A key that was edited, is of another action, has expired, lacks a required expiry or names no
 *   valid address is refused with a 400 (a page for a browser, an envelope for an API caller) and
 *   nothing changes.
 * - Opening a link (GET) only shows a page with a button, because mail scanners open links; the
 *   button (POST) acts.
 */
import { EmailSchema } from '@shared/schemas/user'
import type { Context, MiddlewareHandler } from 'hono'
import { html } from 'hono/html'
import { z } from 'zod'
import type { AppConfig, AppEnv } from '../../platform/env'
import { fail, query } from '../../platform/http'
import { MAX_TOKEN_LENGTH, signJws, tokenSecret, verifyJws } from '../auth/tokens'

const LinkSchema = z.object({
  key: z
    .string({ error: 'key is required' })
    .min(1, 'key is required')
    .max(MAX_TOKEN_LENGTH, 'key is too long'),
})

/** What a valid link's key says: its address and every other claim it was signed with. */
interface LinkClaims {
  email: string
  claims: Record<string, unknown>
}

/**
 * A mailed link to `path` (under PUBLIC_ORIGIN) for action `typ` on `email`, with `claims` signed
 * in; it expires `ttlSeconds` after `now` when given.
 */
export async function signLink(
  env: { TOKEN_SECRET?: string },
  config: AppConfig,
  link: { path: string; typ: string; email: string; claims?: Record<string, unknown>; ttlSeconds?: number },
  now = Date.now(),
): Promise<string> {
  const iat = Math.floor(now / 1000)
  const claims: Record<string, unknown> = {
    ...link.claims,
    typ: link.typ,
    email: link.email.toLowerCase(),
    iat,
  }
  if (link.ttlSeconds !== undefined) claims.exp = iat + link.ttlSeconds
  const key = await signJws(tokenSecret(env, config), claims)
  return `${config.PUBLIC_ORIGIN}${link.path}?key=${key}`
}

/** True when the caller is a browser (a form post, or a page asked for), not an API client. */
export function wantsPage(c: Context<AppEnv>): boolean {
  const type = c.req.header('content-type') ?? ''
  return (
    type.startsWith('application/x-www-form-urlencoded') ||
    (c.req.header('accept') ?? '').includes('text/html')
  )
}

/** A button of a link's page: it posts the form, with `name=value` when given. */
type PageButton = string | { label: string; name: string; value: string }

/** The small page a link opens: a title, a sentence and the buttons that act. */
export function linkPage(
  c: Context<AppEnv>,
  status: 200 | 400,
  title: string,
  text: string,
  buttons: PageButton | readonly PageButton[] = [],
) {
  const store = c.var.config.STORE_NAME
  const list = (Array.isArray(buttons) ? buttons : [buttons]) as readonly PageButton[]
  const form = list.length
    ? html`<form method="post">${list.map((b) =>
        typeof b === 'string'
          ? html`<button type="submit">${b}</button>`
          : html`<p><button type="submit" name="${b.name}" value="${b.value}">${b.label}</button></p>`,
      )}</form>`
    : ''
  return c.html(
    html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${title} – ${store}</title></head>
<body><main><h1>${title}</h1><p>${text}</p>${form}<p><a href="/">Back to ${store}</a></p></main></body>
</html>`,
    status,
  )
}

const linkQuery = query(LinkSchema)

/**
 * The claims of the request's link key for action `typ`, or null when the key is not good. A link
 * kind with a lifetime must carry an expiry within it; one without (null) need not expire.
 */
async function readLink(
  c: Context<AppEnv>,
  typ: string,
  lifetimeSeconds: number | null,
): Promise<LinkClaims | null> {
  let key = ''
  await linkQuery(c, async () => {
    key = (c.req as unknown as { valid(t: 'query'): z.output<typeof LinkSchema> }).valid('query').key
  })
  const claims = await verifyJws(tokenSecret(c.env, c.var.config), key, { lifetimeSeconds })
  if (!claims || claims.typ !== typ) return null
  if (lifetimeSeconds !== null && typeof claims.exp !== 'number') return null
  const parsed = EmailSchema.safeParse(claims.email)
  return parsed.success ? { email: parsed.data, claims } : null
}

/** The valid link of each request (set by `signedLink`). */
const links = new WeakMap<Context<AppEnv>, LinkClaims>()

/**
 * Lets a request through only with a good key for action `typ` (with an expiry at most
 * `lifetimeSeconds` ahead, when the kind has a lifetime); anything else is a 400 saying
 * `badLink`, as a page for a browser and an envelope otherwise.
 */
export function signedLink(
  typ: string,
  badLink: string,
  lifetimeSeconds: number | null,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    let link: LinkClaims | null = null
    try {
      link = await readLink(c, typ, lifetimeSeconds)
    } catch (err) {
      if (wantsPage(c)) return linkPage(c, 400, 'Link not valid', badLink)
      throw err
    }
    if (!link) {
      if (wantsPage(c)) return linkPage(c, 400, 'Link not valid', badLink)
      fail(400, badLink)
    }
    links.set(c, link)
    await next()
  }
}

/** The link `signedLink` let through. */
export const linkOf = (c: Context<AppEnv>) => links.get(c) as LinkClaims
