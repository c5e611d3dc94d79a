/**
 * /api/ext/mailchimp-subscribe/* (contract §1.5, transactions spec §4 newsletter):
 *   GET    /subscribe?email=  → 'subscribed' | 'unsubscribed'
 *   POST   /subscribe {email} → 'subscribed'
 *   DELETE /subscribe {email} → 'unsubscribed'
 * Mailchimp (MAILCHIMP_API_KEY + MAILCHIMP_LIST_URL = https://<dc>.api.mailchimp.com/3.0/lists/<id>)
 * when configured, otherwise the D1 `newsletter_subscribers` list.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { EmailSchema } from '../../../shared/schemas/user'
import type { AppEnv } from '../../env'
import { fail, noStore, ok, readBody, readQuery } from '../auth/http'
import { magentoDate } from '../user/repo'

type Status = 'subscribed' | 'unsubscribed'
const EmailBodySchema = z.object({ email: EmailSchema })

export const newsletterRoutes = new Hono<AppEnv>()
newsletterRoutes.use('*', noStore)

async function mailchimp(env: Env, email: string, method: 'GET' | 'PUT', status?: Status): Promise<Status> {
  const digest = await crypto.subtle.digest('MD5', new TextEncoder().encode(email.toLowerCase()))
  const hash = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
  const url = `${(env.MAILCHIMP_LIST_URL as string).replace(/\/+$/, '')}/members/${hash}`
  let res: Response
  try {
    res = await fetch(url, {
      method,
      headers: { authorization: `apikey ${env.MAILCHIMP_API_KEY}`, 'content-type': 'application/json' },
      body:
        method === 'PUT'
          ? JSON.stringify({ email_address: email, status_if_new: status, status })
          : undefined,
    })
  } catch {
    return fail(502, 'The newsletter service is unreachable. Please try again later.')
  }
  if (method === 'GET' && res.status === 404) return 'unsubscribed'
  if (!res.ok) fail(502, `The newsletter service answered ${res.status}.`)
  const body = (await res.json()) as { status?: string }
  return body.status === 'subscribed' ? 'subscribed' : 'unsubscribed'
}

async function setStatus(env: Env, email: string, status: Status): Promise<Status> {
  if (env.MAILCHIMP_API_KEY && env.MAILCHIMP_LIST_URL) return mailchimp(env, email, 'PUT', status)
  const stamp = magentoDate(Date.now())
  await env.DB.prepare(
    `INSERT INTO newsletter_subscribers (email, status, created_at, updated_at) VALUES (?1, ?2, ?3, ?3)
     ON CONFLICT(email) DO UPDATE SET status = ?2, updated_at = ?3`,
  )
    .bind(email, status, stamp)
    .run()
  return status
}

newsletterRoutes.get('/subscribe', async (c) => {
  const { email } = readQuery(c, EmailBodySchema)
  if (c.env.MAILCHIMP_API_KEY && c.env.MAILCHIMP_LIST_URL) return ok(c, await mailchimp(c.env, email, 'GET'))
  const row = await c.env.DB.prepare('SELECT status FROM newsletter_subscribers WHERE email = ?')
    .bind(email)
    .first<{ status: Status }>()
  return ok(c, row?.status ?? 'unsubscribed')
})

newsletterRoutes.post('/subscribe', async (c) => {
  const { email } = await readBody(c, EmailBodySchema)
  return ok(c, await setStatus(c.env, email, 'subscribed'))
})

newsletterRoutes.delete('/subscribe', async (c) => {
  const { email } = await readBody(c, EmailBodySchema)
  return ok(c, await setStatus(c.env, email, 'unsubscribed'))
})
