/**
 * Mail delivery: a real provider when MAIL_PROVIDER_URL and MAIL_PROVIDER_KEY are set (JSON POST
 * `{from, to, reply_to, subject, text}` with `Authorization: Bearer <key>`), otherwise the D1
 * `mail_outbox` with status 'queued' for an operator to read. Every mail is recorded either way.
 */
import { magentoDate } from '../user/repo'

export interface OutgoingMail {
  kind: string
  from: string
  to: string
  replyTo?: string
  subject: string
  text: string
}

export type MailStatus = 'queued' | 'sent' | 'failed'

/** Sends (or queues) a mail and records it in the outbox; never throws for provider failures. */
export async function deliverMail(env: Env, mail: OutgoingMail, now: number): Promise<MailStatus> {
  let status: MailStatus = 'queued'
  let providerResponse: string | null = null
  if (env.MAIL_PROVIDER_URL && env.MAIL_PROVIDER_KEY) {
    try {
      const res = await fetch(env.MAIL_PROVIDER_URL, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${env.MAIL_PROVIDER_KEY}` },
        body: JSON.stringify({
          from: mail.from,
          to: mail.to,
          reply_to: mail.replyTo,
          subject: mail.subject,
          text: mail.text,
        }),
      })
      status = res.ok ? 'sent' : 'failed'
      providerResponse = `${res.status} ${(await res.text()).slice(0, 500)}`
    } catch (err) {
      status = 'failed'
      providerResponse = String(err).slice(0, 500)
    }
  }
  await env.DB.prepare(
    `INSERT INTO mail_outbox (kind, source_address, target_address, subject, body, status, provider_response, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  )
    .bind(
      mail.kind,
      mail.replyTo ?? mail.from,
      mail.to,
      mail.subject,
      mail.text,
      status,
      providerResponse,
      magentoDate(now),
    )
    .run()
  return status
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
export const AFTER_ANSWER_DELAY_MS = 100

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
