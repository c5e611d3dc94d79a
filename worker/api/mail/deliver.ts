/**
 * Mail delivery: a real provider when MAIL_PROVIDER_URL and MAIL_PROVIDER_KEY are set (JSON POST
 * `{from, to, reply_to, subject, text}` with `Authorization: Bearer <key>`, with a time-out),
 * otherwise the D1 `mail_outbox` with status 'queued' for an operator to read. Every mail is
 * recorded either way; one the provider refused or did not answer stays there as 'failed'.
 */
import { type Delivery, deliver } from '../../platform/fetch'
import { magentoDate } from '../user/repo'

interface OutgoingMail {
  kind: string
  from: string
  to: string
  replyTo?: string
  subject: string
  text: string
}

type MailStatus = 'queued' | 'sent' | 'failed'

/** Sends (or queues) a mail and records it in the outbox; never throws for provider failures. */
export async function deliverMail(env: Env, mail: OutgoingMail, now: number): Promise<MailStatus> {
  const provider =
    env.MAIL_PROVIDER_URL && env.MAIL_PROVIDER_KEY
      ? {
          service: 'Mail provider',
          url: env.MAIL_PROVIDER_URL,
          init: {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${env.MAIL_PROVIDER_KEY}` },
            body: JSON.stringify({
              from: mail.from,
              to: mail.to,
              reply_to: mail.replyTo,
              subject: mail.subject,
              text: mail.text,
            }),
          },
        }
      : null
  const { outcome } = await deliver(provider, ({ outcome, providerResponse }) =>
    env.DB.prepare(
      `INSERT INTO mail_outbox (kind, source_address, target_address, subject, body, status, provider_response, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    )
      .bind(
        mail.kind,
        mail.replyTo ?? mail.from,
        mail.to,
        mail.subject,
        mail.text,
        mailStatus(outcome),
        providerResponse,
        magentoDate(now),
      )
      .run(),
  )
  return mailStatus(outcome)
}

/** The outbox status of a mail: 'queued' when no provider is configured. */
const mailStatus = (outcome: Delivery['outcome']): MailStatus => (outcome === 'kept' ? 'queued' : outcome)

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
