/**
 * /api/ext/mailchimp-subscribe/*: newsletter with double opt-in. Nobody learns or changes the
 * status of an address they do not own.
 *   GET    /subscribe?email=   → the signed-in customer's own status: 'subscribed' | 'pending' |
 *                                'unsubscribed'; any other caller or address gets 'unsubscribed'
 *   POST   /subscribe {email}  → 'pending': the address waits for its confirmation link (mailed,
 *                                signed, valid 7 days); the signed-in owner gets the real status
 *   DELETE /subscribe {email}  → 'unsubscribed', for the signed-in owner of the address only
 *                                (everyone else uses the signed link from a mail)
 *   GET    /confirm?key=       → a page with a button (mail scanners open links: a GET changes nothing)
 *   POST   /confirm?key=       → 'subscribed' (a pending address only)
 *   GET    /unsubscribe?key=   → a page with a button
 *   POST   /unsubscribe?key=   → 'unsubscribed' (signed link, no sign-in, never expires)
 * The `key` of a link is a signed token whose `typ` names the action (./signed-links.ts).
 * POST answers JSON, or a page when it came from the form. Mailchimp (MAILCHIMP_API_KEY +
 * MAILCHIMP_LIST_URL = https://<dc>.api.mailchimp.com/3.0/lists/<id>) keeps the list when configured
 * (a member set to 'pending' gets Mailchimp's own confirmation mail); otherwise the D1
 * `newsletter_subscribers` list, and our mail carries the links.
 */

import { EmailSchema } from '@shared/schemas/user'
import { type Context, Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../platform/env'
import { fetchOutbound, OutboundError } from '../../platform/fetch'
import { clientAddress, fail, jsonBody, noStore, ok, query } from '../../platform/http'
import { toHex } from '../auth/crypto'
import { optionalCustomer } from '../auth/guard'
import { limitClientAddress, reserveOrReject } from '../auth/rate-limit'
import { deliverMailLater } from '../mail/deliver'
import { magentoDate } from '../user/repo'
import { linkOf, linkPage, signedLink, signLink, wantsPage } from './signed-links'

type NewsletterStatus = 'subscribed' | 'pending' | 'unsubscribed'

const CONFIRM_LINK_TTL_SECONDS = 7 * 24 * 3600
const SUBSCRIBE_LIMIT_PER_IP = 10
export const SUBSCRIBE_LIMIT_PER_ADDRESS = 3
const DAY_MS = 24 * 3600 * 1000
const SUBSCRIBE_RATE_LIMITED = `Too many newsletter sign-ups (at most ${SUBSCRIBE_LIMIT_PER_ADDRESS} confirmation mails per address a day and ${SUBSCRIBE_LIMIT_PER_IP} sign-ups per network address in 15 minutes). Please try again later.`
const MSG_NOT_YOUR_ADDRESS =
  'Sign in to change the newsletter settings of your own address, or use the unsubscribe link from one of our mails.'
export const MSG_BAD_LINK = 'This newsletter link is invalid or has expired.'

const EmailBodySchema = z.object({ email: EmailSchema })

export const newsletterRoutes = new Hono<AppEnv>()
newsletterRoutes.use('*', noStore)

// ---------------------------------------------------------------------------------------------
// The list: Mailchimp when configured, else D1

function usesMailchimp(env: Env): boolean {
  return Boolean(env.MAILCHIMP_API_KEY && env.MAILCHIMP_LIST_URL)
}

function asStatus(value: unknown): NewsletterStatus {
  return value === 'subscribed' || value === 'pending' ? value : 'unsubscribed'
}

async function mailchimp(env: Env, email: string, body?: Record<string, unknown>): Promise<NewsletterStatus> {
  const digest = await crypto.subtle.digest('MD5', new TextEncoder().encode(email.toLowerCase()))
  const hash = toHex(new Uint8Array(digest))
  const url = `${(env.MAILCHIMP_LIST_URL as string).replace(/\/+$/, '')}/members/${hash}`
  let res: Response
  try {
    res = await fetchOutbound('Mailchimp', url, {
      method: body ? 'PUT' : 'GET',
      headers: { authorization: `apikey ${env.MAILCHIMP_API_KEY}`, 'content-type': 'application/json' },
      body: body ? JSON.stringify({ email_address: email, ...body }) : undefined,
    })
  } catch (err) {
    if (!(err instanceof OutboundError)) throw err
    return fail(502, 'The newsletter service is unreachable. Please try again later.')
  }
  if (!body && res.status === 404) return 'unsubscribed'
  if (!res.ok) fail(502, `The newsletter service answered ${res.status}.`)
  return asStatus(((await res.json()) as { status?: unknown }).status)
}

async function readStatus(env: Env, email: string): Promise<NewsletterStatus> {
  if (usesMailchimp(env)) return mailchimp(env, email)
  const row = await env.DB.prepare('SELECT status FROM newsletter_subscribers WHERE email = ?')
    .bind(email)
    .first<{ status: string }>()
  return asStatus(row?.status)
}

/**
 * Moves an address to `to` when its current status is one of `from` (a missing address counts as
 * 'unsubscribed'); returns the status afterwards.
 */
async function transition(
  env: Env,
  email: string,
  from: NewsletterStatus[],
  to: NewsletterStatus,
): Promise<NewsletterStatus> {
  if (usesMailchimp(env)) {
    if (to === 'pending') {
      // New members start pending; an existing one keeps its status unless it had left.
      const now = await mailchimp(env, email, { status_if_new: 'pending' })
      return from.includes(now) && now !== to ? mailchimp(env, email, { status: to }) : now
    }
    const now = await mailchimp(env, email)
    return from.includes(now) ? mailchimp(env, email, { status: to, status_if_new: to }) : now
  }
  const stamp = magentoDate(Date.now())
  const allowed = from.map((s) => `'${s}'`).join(', ')
  // A missing address is 'unsubscribed': only a move from there may insert it.
  const statement = from.includes('unsubscribed')
    ? `INSERT INTO newsletter_subscribers (email, status, created_at, updated_at) VALUES (?1, ?2, ?3, ?3)
       ON CONFLICT(email) DO UPDATE SET status = ?2, updated_at = ?3
         WHERE newsletter_subscribers.status IN (${allowed})
       RETURNING status`
    : `UPDATE newsletter_subscribers SET status = ?2, updated_at = ?3
       WHERE email = ?1 AND status IN (${allowed}) RETURNING status`
  const row = await env.DB.prepare(statement).bind(email, to, stamp).first<{ status: string }>()
  return row ? asStatus(row.status) : readStatus(env, email)
}

// ---------------------------------------------------------------------------------------------
// Signed links (confirm links expire; leave links never do)

type LinkAction = 'confirm' | 'unsubscribe'

/** A mailed link for `action` on `email`. */
function newsletterLink(
  c: { env: Env; var: AppEnv['Variables'] },
  action: LinkAction,
  email: string,
  now = Date.now(),
): Promise<string> {
  return signLink(
    c.env,
    c.var.config,
    {
      path: `/api/ext/mailchimp-subscribe/${action}`,
      typ: `newsletter-${action}`,
      email,
      ttlSeconds: action === 'confirm' ? CONFIRM_LINK_TTL_SECONDS : undefined,
    },
    now,
  )
}

const signedNewsletterLink = (action: LinkAction) =>
  signedLink(`newsletter-${action}`, MSG_BAD_LINK, action === 'confirm' ? CONFIRM_LINK_TTL_SECONDS : null)
const page = linkPage
const linkedEmail = (c: Context<AppEnv>) => linkOf(c).email

// ---------------------------------------------------------------------------------------------
// Endpoints

/** The signed-in customer whose own address is `email`, else null. */
async function ownerOf(c: Context<AppEnv>, email: string) {
  const customer = await optionalCustomer(c)
  return customer && customer.email.toLowerCase() === email.toLowerCase() ? customer : null
}

newsletterRoutes.get('/subscribe', query(EmailBodySchema), async (c) => {
  const { email } = c.req.valid('query')
  if (!(await ownerOf(c, email))) return ok(c, 'unsubscribed')
  return ok(c, await readStatus(c.env, email))
})

newsletterRoutes.post('/subscribe', jsonBody(EmailBodySchema), async (c) => {
  const { email } = c.req.valid('json')
  const now = Date.now()
  const owner = await ownerOf(c, email)
  await limitClientAddress(c)
  // The per-address limit keeps strangers from flooding an inbox with confirmation mails; the
  // signed-in owner is not held to it (so strangers cannot use it up for them either).
  await reserveOrReject(
    c.env.DB,
    [
      { key: `newsletter:ip:${clientAddress(c)}`, limit: SUBSCRIBE_LIMIT_PER_IP },
      ...(owner
        ? []
        : [
            {
              key: `newsletter:addr:${email.toLowerCase()}`,
              limit: SUBSCRIBE_LIMIT_PER_ADDRESS,
              windowMs: DAY_MS,
            },
          ]),
    ],
    now,
    SUBSCRIBE_RATE_LIMITED,
  )
  const status = await transition(c.env, email, ['unsubscribed', 'pending'], 'pending')
  if (status === 'pending' && !usesMailchimp(c.env)) {
    const [confirm, leave] = await Promise.all([
      newsletterLink(c, 'confirm', email, now),
      newsletterLink(c, 'unsubscribe', email, now),
    ])
    const store = c.var.config.STORE_NAME
    deliverMailLater(
      c,
      {
        kind: 'newsletter-confirm',
        from: c.var.config.SUPPORT_EMAIL,
        to: email,
        subject: `${store}: please confirm your newsletter subscription`,
        text: `Hello,\n\nSomeone, perhaps you, asked to receive the ${store} newsletter at this address. To confirm, open this link within 7 days:\n${confirm}\n\nIf you did not ask for it, ignore this mail: you will not be subscribed.\n\nYou can leave the newsletter at any time with this link:\n${leave}`,
      },
      now,
    )
  }
  // Anyone but the address's signed-in owner gets the same answer, whatever the address's status.
  return ok(c, owner ? status : 'pending')
})

newsletterRoutes.delete('/subscribe', jsonBody(EmailBodySchema), async (c) => {
  const { email } = c.req.valid('json')
  if (!(await ownerOf(c, email))) fail(403, MSG_NOT_YOUR_ADDRESS)
  return ok(c, await transition(c.env, email, ['subscribed', 'pending'], 'unsubscribed'))
})

newsletterRoutes.get('/confirm', signedNewsletterLink('confirm'), async (c) => {
  const email = linkedEmail(c)
  if (wantsPage(c)) {
    return page(
      c,
      200,
      'Confirm your subscription',
      `Receive our newsletter at ${email}?`,
      'Confirm my subscription',
    )
  }
  return ok(c, { action: 'confirm', email })
})

newsletterRoutes.post('/confirm', signedNewsletterLink('confirm'), async (c) => {
  const email = linkedEmail(c)
  const status = await transition(c.env, email, ['pending'], 'subscribed')
  if (wantsPage(c)) {
    return status === 'subscribed'
      ? page(c, 200, 'Subscription confirmed', `The newsletter will come to ${email}. Thank you!`)
      : page(c, 400, 'Nothing to confirm', `${email} has no subscription waiting for confirmation.`)
  }
  if (status !== 'subscribed') fail(400, `${email} has no subscription waiting for confirmation.`)
  return ok(c, status)
})

newsletterRoutes.get('/unsubscribe', signedNewsletterLink('unsubscribe'), async (c) => {
  const email = linkedEmail(c)
  if (wantsPage(c)) {
    return page(c, 200, 'Leave the newsletter', `Stop sending the newsletter to ${email}?`, 'Unsubscribe')
  }
  return ok(c, { action: 'unsubscribe', email })
})

newsletterRoutes.post('/unsubscribe', signedNewsletterLink('unsubscribe'), async (c) => {
  const email = linkedEmail(c)
  const status = await transition(c.env, email, ['subscribed', 'pending'], 'unsubscribed')
  if (wantsPage(c)) return page(c, 200, 'Unsubscribed', `${email} will not receive the newsletter any more.`)
  return ok(c, status)
})
