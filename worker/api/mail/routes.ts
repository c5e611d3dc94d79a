/**
 * /api/ext/mail-service/*:
 *   GET  /get-token   → a single-use mail token (valid 10 minutes; only its hash is stored)
 *   POST /send-email  {sourceAddress, targetAddress, subject, emailText, token} → 'sent' | 'queued'
 * Whitelisted recipients: the store's SUPPORT_EMAIL, and — only with the caller's own access
 * token — the signed-in customer's own address (a copy to self). Anything else → 403, so the
 * endpoint can never be used to mail arbitrary people. Delivery: mail/deliver.ts.
 */

import { EmailSchema } from '@shared/schemas/user'
import { Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../platform/env'
import { fail, jsonBody, noStore, ok } from '../../platform/http'
import { randomToken, sha256Hex } from '../auth/crypto'
import { optionalCustomer } from '../auth/guard'
import { reservePerIp } from '../auth/rate-limit'
import { deliverMail } from './deliver'

const MAIL_TOKEN_TTL_MS = 10 * 60 * 1000
const SEND_LIMIT_PER_IP = 10
const TOKEN_LIMIT_PER_IP = 30

const SendEmailBodySchema = z.object({
  sourceAddress: EmailSchema,
  targetAddress: EmailSchema,
  subject: z.string({ error: 'subject is required' }).trim().min(1, 'subject is required').max(200),
  emailText: z.string({ error: 'emailText is required' }).trim().min(1, 'emailText is required').max(20_000),
  token: z.string({ error: 'token is required' }).min(1, 'token is required').max(200),
})

export const mailRoutes = new Hono<AppEnv>()
mailRoutes.use('*', noStore)

mailRoutes.get('/get-token', async (c) => {
  const now = Date.now()
  await reservePerIp(
    c,
    'mailtoken',
    TOKEN_LIMIT_PER_IP,
    now,
    'Too many mail requests. Please try again later.',
  )
  const token = randomToken()
  await c.env.DB.prepare('INSERT INTO mail_tokens (token_hash, expires_at) VALUES (?, ?)')
    .bind(await sha256Hex(token), now + MAIL_TOKEN_TTL_MS)
    .run()
  // Expired tokens are swept opportunistically.
  c.executionCtx.waitUntil(
    c.env.DB.prepare('DELETE FROM mail_tokens WHERE expires_at < ?')
      .bind(now - MAIL_TOKEN_TTL_MS)
      .run(),
  )
  return ok(c, token)
})

mailRoutes.post('/send-email', jsonBody(SendEmailBodySchema), async (c) => {
  const body = c.req.valid('json')
  const now = Date.now()
  const target = body.targetAddress.toLowerCase()
  const customer = await optionalCustomer(c)
  const allowed =
    target === c.var.config.SUPPORT_EMAIL.toLowerCase() || target === customer?.email.toLowerCase()
  if (!allowed) fail(403, `Mail to ${body.targetAddress} is not allowed (recipient not whitelisted).`)
  await reservePerIp(
    c,
    'mailsend',
    SEND_LIMIT_PER_IP,
    now,
    'Too many mails from this address. Please try again later.',
  )
  // Single use: the token is consumed by the statement that checks it.
  const used = await c.env.DB.prepare(
    'UPDATE mail_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?',
  )
    .bind(now, await sha256Hex(body.token), now)
    .run()
  if (used.meta.changes !== 1)
    fail(401, 'The mail token is missing, expired or already used. Request a new one.')
  const status = await deliverMail(
    c.env,
    {
      kind: 'contact',
      from: c.var.config.SUPPORT_EMAIL,
      replyTo: body.sourceAddress,
      to: body.targetAddress,
      subject: body.subject,
      text: body.emailText,
    },
    now,
  )
  if (status === 'failed')
    fail(502, 'The mail provider did not accept the message. It is kept in the outbox.')
  return ok(c, status)
})
