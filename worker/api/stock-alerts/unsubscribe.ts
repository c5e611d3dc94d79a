/**
 * Leaving back-in-stock mail from a mail's link, without signing in:
 *   GET  /api/stock-alerts/unsubscribe?key=   a page with two buttons (opening a link changes nothing:
 *                                             mail scanners open links)
 *   POST /api/stock-alerts/unsubscribe?key=   scope=alert (the default, and what a mail client's
 *                                             one-click unsubscribe sends) removes the alert the mail
 *                                             was about; scope=all removes every alert of the address
 * The key is a signed link (../newsletter/signed-links.ts) naming the address and the alert; it
 * lapses when the alert would have. A key that is edited, of another kind or expired, or whose alert
 * is held by another address, is a 400 and changes nothing; an alert is only ever removed together
 * with the address the key names, so a key acts on its own address's alerts and no one else's.
 */
import { type Context, Hono } from 'hono'
import { z } from 'zod'
import type { AppConfig, AppEnv } from '../../platform/env'
import { describeIssues, fail, limitBody, ok } from '../../platform/http'
import { linkOf, linkPage, signedLink, signLink, wantsPage } from '../newsletter/signed-links'

const LINK_TYPE = 'stock-alert-unsubscribe'
const PATH = '/api/stock-alerts/unsubscribe'
/** An unsubscribe link works as long as an alert is kept (90 days from the mail at most). */
const LINK_TTL_SECONDS = 90 * 24 * 3600
/** The largest body the unsubscribe POST reads (a form field or a one-click marker). */
const MAX_BODY_BYTES = 1024
/** The longest product name a link carries. */
const MAX_NAME_CHARS = 120
export const MSG_BAD_ALERT_LINK = 'This back-in-stock link is invalid or has expired.'

/** The link a back-in-stock mail carries to remove its alert (or all of the address's alerts). */
export function unsubscribeLink(
  env: { TOKEN_SECRET?: string },
  config: AppConfig,
  alert: { id: number; email: string; sku: string },
  productName: string,
  now: number,
): Promise<string> {
  return signLink(
    env,
    config,
    {
      path: PATH,
      typ: LINK_TYPE,
      email: alert.email,
      // The product's name (cut short) lets the page say what the alert was for.
      claims: { alert: alert.id, sku: alert.sku, name: productName.slice(0, MAX_NAME_CHARS) },
      ttlSeconds: LINK_TTL_SECONDS,
    },
    now,
  )
}

/**
 * The address, alert id and sku the request's key names. A key whose alert is held by another
 * address is not one we mailed: refused like a forged one.
 */
async function linkedAlert(c: Context<AppEnv>) {
  const { email, claims } = linkOf(c)
  const id = claims.alert
  const sku = claims.sku
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || typeof sku !== 'string') return null
  const holder = await c.env.DB.prepare('SELECT email FROM stock_alerts WHERE id = ?1')
    .bind(id)
    .first<{ email: string }>()
  if (holder && holder.email !== email) return null
  return { email, id, sku, what: typeof claims.name === 'string' && claims.name ? claims.name : sku }
}

/** The answer to a key that names no alert of its address. */
function badAlertLink(c: Context<AppEnv>) {
  if (wantsPage(c)) return linkPage(c, 400, 'Link not valid', MSG_BAD_ALERT_LINK)
  return fail(400, MSG_BAD_ALERT_LINK)
}

const ScopeSchema = z.object({
  scope: z.enum(['alert', 'all'], { error: 'scope must be alert or all' }).default('alert'),
})

/**
 * The scope a POST asks for: a form field (URL-encoded, or multipart as some mail clients send their
 * one-click request), else a JSON field whatever the declared type; none (one click) is that alert.
 */
async function requestedScope(c: Context<AppEnv>): Promise<'alert' | 'all'> {
  const raw = await c.req.text()
  const type = c.req.header('content-type') ?? ''
  let fields: unknown = {}
  if (type.startsWith('application/x-www-form-urlencoded')) {
    fields = Object.fromEntries(new URLSearchParams(raw))
  } else if (type.startsWith('multipart/form-data')) {
    try {
      const form = await new Response(raw, { headers: { 'content-type': type } }).formData()
      fields = Object.fromEntries([...form].filter(([, v]) => typeof v === 'string'))
    } catch {
      fail(400, 'Invalid unsubscribe request: malformed form data')
    }
  } else {
    try {
      fields = raw.trim() ? JSON.parse(raw) : {}
    } catch {
      fail(400, 'Invalid unsubscribe request: malformed JSON')
    }
  }
  const parsed = ScopeSchema.safeParse(fields ?? {})
  if (!parsed.success) fail(400, `Invalid unsubscribe request: ${describeIssues(parsed.error)}`)
  return parsed.data.scope
}

const signedAlertLink = signedLink(LINK_TYPE, MSG_BAD_ALERT_LINK, LINK_TTL_SECONDS)

/** GET and POST of the unsubscribe link, mounted at /api/stock-alerts/unsubscribe. */
export const unsubscribeRoutes = new Hono<AppEnv>()

unsubscribeRoutes.get('/', signedAlertLink, async (c) => {
  const alert = await linkedAlert(c)
  if (!alert) return badAlertLink(c)
  const { email, sku, what } = alert
  if (!wantsPage(c)) return ok(c, { action: 'unsubscribe', email, sku })
  return linkPage(
    c,
    200,
    'Back-in-stock mail',
    `Remove the alert for ${what} sent to ${email}, or stop all back-in-stock mail to this address?`,
    [
      { label: 'Remove this alert', name: 'scope', value: 'alert' },
      { label: 'Stop all back-in-stock mail', name: 'scope', value: 'all' },
    ],
  )
})

unsubscribeRoutes.post('/', limitBody(MAX_BODY_BYTES), signedAlertLink, async (c) => {
  const alert = await linkedAlert(c)
  if (!alert) return badAlertLink(c)
  const { email, id, what } = alert
  const scope = await requestedScope(c)
  const db = c.env.DB
  if (scope === 'all') {
    // The address's confirmation goes too: mail starts again only after a new double opt-in.
    const [res] = await db.batch([
      db.prepare('DELETE FROM stock_alerts WHERE email = ?1').bind(email),
      db.prepare('DELETE FROM stock_alert_addresses WHERE email = ?1').bind(email),
    ])
    const removed = res?.meta.changes ?? 0
    if (wantsPage(c))
      return linkPage(
        c,
        200,
        'Back-in-stock mail stopped',
        `${email} will get no more back-in-stock mail (${removed} ${removed === 1 ? 'alert' : 'alerts'} removed).`,
      )
    return ok(c, { scope, removed })
  }
  // The alert goes only together with the address the key names.
  const res = await db.prepare('DELETE FROM stock_alerts WHERE id = ?1 AND email = ?2').bind(id, email).run()
  const removed = res.meta.changes ?? 0
  if (wantsPage(c))
    return linkPage(
      c,
      200,
      'Alert removed',
      removed
        ? `We will not write to ${email} about ${what}.`
        : `The alert for ${what} was already removed: we will not write to ${email} about it.`,
    )
  return ok(c, { scope, removed })
})
