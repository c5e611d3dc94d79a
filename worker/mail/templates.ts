/**
 * The operator's edited words of each order mail and account mail (`mail_templates`, keyed by the
 * order event or the account mail's kind): read when a mail is
 * rendered, saved and reset from the back office. A save and a reset write their audit row in the
 * same batch as the change (who, which mail, before and after).
 */
import { auditStatement } from '../admin/audit'
import type { OrderMailEvent } from '../api/mail/order-words'
import { magentoDate } from '../api/user/repo'
import type { AccountMailKind } from './account-mail'
import type { MailTemplateText } from './blocks'

/** An order mail's event or an account mail's kind: one row of edited words each. */
export type MailTemplateKey = OrderMailEvent | AccountMailKind

export interface StoredMailTemplate {
  subject: string | null
  intro: string | null
  note: string | null
  updated_by: string
  updated_at: string
}

/** The edited words of an event's mail, or null when it uses the shop's defaults. */
export function mailTemplate(db: D1Database, event: MailTemplateKey): Promise<StoredMailTemplate | null> {
  return db
    .prepare('SELECT subject, intro, note, updated_by, updated_at FROM mail_templates WHERE event = ?')
    .bind(event)
    .first<StoredMailTemplate>()
}

/** Every edited mail, by event. */
export async function mailTemplates(db: D1Database): Promise<Map<string, StoredMailTemplate>> {
  const { results } = await db
    .prepare('SELECT event, subject, intro, note, updated_by, updated_at FROM mail_templates')
    .all<StoredMailTemplate & { event: string }>()
  return new Map(results.map((r) => [r.event, r]))
}

const fieldsOf = (t: MailTemplateText | null) =>
  t ? { subject: t.subject ?? null, intro: t.intro ?? null, note: t.note ?? null } : undefined

/**
 * Saves an event's words (empty fields keep the defaults; all empty is a reset), with its audit row.
 * The words must have passed templateTextProblem.
 */
export async function saveMailTemplate(
  db: D1Database,
  event: MailTemplateKey,
  words: Required<MailTemplateText>,
  actor: string,
  now: number,
): Promise<void> {
  const fields = {
    subject: words.subject || null,
    intro: words.intro || null,
    note: words.note || null,
  }
  if (!fields.subject && !fields.intro && !fields.note) return resetMailTemplate(db, event, actor, now)
  const before = fieldsOf(await mailTemplate(db, event))
  await db.batch([
    db
      .prepare(
        `INSERT INTO mail_templates (event, subject, intro, note, updated_by, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT (event) DO UPDATE SET subject = ?2, intro = ?3, note = ?4, updated_by = ?5, updated_at = ?6`,
      )
      .bind(event, fields.subject, fields.intro, fields.note, actor, magentoDate(now)),
    auditStatement(
      db,
      { actor, action: 'mail-template.save', target: `mail:${event}`, before, after: fields },
      now,
    ),
  ])
}

/** Puts an event's mail back to the shop's default words (audited only when it was edited). */
export async function resetMailTemplate(
  db: D1Database,
  event: MailTemplateKey,
  actor: string,
  now: number,
): Promise<void> {
  const before = fieldsOf(await mailTemplate(db, event))
  await db.batch([
    db.prepare('DELETE FROM mail_templates WHERE event = ?').bind(event),
    auditStatement(db, { actor, action: 'mail-template.reset', target: `mail:${event}`, before }, now, {
      onlyIfChanged: true,
    }),
  ])
}
