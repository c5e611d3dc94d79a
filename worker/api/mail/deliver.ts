/**
 * Mail delivery: a real provider when MAIL_PROVIDER_URL and MAIL_PROVIDER_KEY are set (JSON POST
 * `{from, to, reply_to, subject, text, html?, headers?}` with `Authorization: Bearer <key>`, with a time-out),
 * otherwise the D1 `mail_outbox` with status 'queued' until a provider is configured. Every mail
 * is recorded first, then sent; one the provider refused or did not answer stays there as
 * 'failed' and the scheduled drain tries it again (./outbox.ts), or 'dead' once it cannot be.
 */
import { magentoDate } from '../user/repo'
import { mailIdempotencyKey, mailProvider, SEND_CLAIM_MS, sendMailCall, settlement } from './outbox'

interface OutgoingMail {
  kind: string
  from: string
  to: string
  replyTo?: string
  subject: string
  text: string
  /** The HTML part (order mails); the text part is sent with it for clients that show text. */
  html?: string
}

/** What became of a mail: sent, kept for a provider ('queued'), or not taken ('failed'). */
type MailStatus = 'queued' | 'sent' | 'failed'

/** Sends (or queues) a mail and records it in the outbox; never throws for provider failures. */
export async function deliverMail(env: Env, mail: OutgoingMail, now: number): Promise<MailStatus> {
  const [status = 'queued'] = await deliverMails(env, [mail], now)
  return status
}

/**
 * Several mails of one event, delivered together: their outbox rows are written in one batch,
 * sent at once, and their outcomes recorded in one batch (two round trips to the database for any
 * number of mails, one without a provider).
 */
export async function deliverMails(env: Env, mails: OutgoingMail[], now: number): Promise<MailStatus[]> {
  if (mails.length === 0) return []
  const provider = mailProvider(env)
  const createdAt = magentoDate(now)
  // Recorded before the call (claimed as 'sending'), so a send cut short is retried, not lost.
  const inserted = await env.DB.batch(
    mails.map((mail) =>
      env.DB.prepare(
        `INSERT INTO mail_outbox (kind, from_address, source_address, target_address, subject, body, html,
           status, attempts, next_attempt_at, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      ).bind(
        mail.kind,
        mail.from,
        mail.replyTo ?? mail.from,
        mail.to,
        mail.subject,
        mail.text,
        mail.html ?? null,
        provider ? 'sending' : 'queued',
        provider ? 1 : 0,
        provider ? now + SEND_CLAIM_MS : 0,
        createdAt,
      ),
    ),
  )
  const ids = inserted.map((r) => (r.results[0] as { id: number } | undefined)?.id)
  if (!provider) return mails.map(() => 'queued')
  const settled = await Promise.all(
    mails.map(async (mail, i) => {
      const id = ids[i]
      if (id === undefined) return null
      const outcome = await sendMailCall(provider, mailIdempotencyKey(env, id, createdAt), mail)
      return settlement(env.DB, 'mail_outbox', id, 1, outcome, now)
    }),
  )
  const statements = settled.flatMap((s) => (s ? [s.statement] : []))
  if (statements.length > 0) await env.DB.batch(statements)
  return settled.map((s) => (s === null ? 'queued' : s.status === 'sent' ? 'sent' : 'failed'))
}

/**
 * Sends (or queues) a mail after the answer has gone out (waitUntil), so how long an answer takes
 * never depends on whether a mail was sent (account-existence oracles) or on the provider.
 */
export function deliverMailLater(
  c: { env: Env; executionCtx: Pick<ExecutionContext, 'waitUntil'> },
  mail: OutgoingMail,
  now: number,
): void {
  runAfterAnswer(c, () => deliverMail(c.env, mail, now), `mail ${mail.kind}`)
}

/**
 * How long work that follows an answer waits before it starts: long enough for the answer to
 * have left the isolate, so the work's D1 writes never share its time (an answer must not take
 * longer because a mail was due); short enough that nobody waits for the mail.
 */
const AFTER_ANSWER_DELAY_MS = 100

/** Runs `work` after the answer has gone out (waitUntil); a failure is logged, never thrown. */
export function runAfterAnswer(
  c: { executionCtx: Pick<ExecutionContext, 'waitUntil'> },
  work: () => Promise<unknown>,
  label: string,
): void {
  c.executionCtx.waitUntil(
    new Promise((resolve) => setTimeout(resolve, AFTER_ANSWER_DELAY_MS))
      .then(work)
      .catch((err) => console.error(JSON.stringify({ msg: `${label} failed`, err: String(err) }))),
  )
}
