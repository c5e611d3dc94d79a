/**
 * The order mails in the back office: every mail event with its subject and whether its words were
 * edited (/admin/mail); one event's page (/admin/mail/{event}) with its subject, opening text and
 * closing note to edit, a reset to the shop's default words, and a preview rendered exactly as the
 * shopper's mail, with a real order (?order=<number>) or a sample one. The account mails (password
 * reset, e-gift card, back in stock) are edited the same way, previewed with sample fillings
 * (/admin/mail/password_reset, …). Saving and resetting need
 * the `content` permission and are audited (../mail/templates.ts); reading is every operator's.
 */
import { Hono } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { z } from 'zod'
import { orderMailParts } from '../api/mail/notify'
import { withoutTypedText } from '../api/mail/order-lines'
import { type OrderMailEvent, SUBJECTS } from '../api/mail/order-words'
import { findOrderByAnyId } from '../api/order/repo'
import {
  ACCOUNT_MAIL_KINDS,
  ACCOUNT_MAILS,
  type AccountMailKind,
  renderAccountMail,
  sampleAccountInput,
} from '../mail/account-mail'
import {
  normaliseBlock,
  PLACEHOLDERS,
  TEMPLATE_LIMITS,
  type TemplateField,
  templateTextProblem,
} from '../mail/blocks'
import { renderOrderMail } from '../mail/order-mail'
import { previewBody } from '../mail/preview'
import { sampleMailInput } from '../mail/sample'
import {
  type MailTemplateKey,
  mailTemplate,
  mailTemplates,
  resetMailTemplate,
  saveMailTemplate,
} from '../mail/templates'
import { fail } from '../platform/http'
import type { AdminEnv } from './env'
import { answer, readInput } from './input'
import { mailEditPage, mailListPage } from './pages/mail'
import { allow } from './request'

const EVENTS = Object.keys(SUBJECTS) as OrderMailEvent[]

const isAccountMail = (key: MailTemplateKey): key is AccountMailKind =>
  ACCOUNT_MAIL_KINDS.includes(key as AccountMailKind)

/** The mail of the path (an order event or an account mail), or a 404 in words. */
function eventOf(value: string | undefined): MailTemplateKey {
  const key = value as MailTemplateKey
  if (!EVENTS.includes(key as OrderMailEvent) && !isAccountMail(key)) fail(404, 'There is no such mail.')
  return key
}

/** The placeholders a mail's words may hold. */
const placeholdersOf = (key: MailTemplateKey) =>
  isAccountMail(key) ? ACCOUNT_MAILS[key].placeholders : PLACEHOLDERS

const block = (field: TemplateField) =>
  z
    .string()
    .max(TEMPLATE_LIMITS[field] * 2, `is longer than ${TEMPLATE_LIMITS[field]} characters`)
    .transform(normaliseBlock)
    .optional()

const TemplateSchema = z.object({ subject: block('subject'), intro: block('intro'), note: block('note') })

export const mailTemplatePages = new Hono<AdminEnv>()

mailTemplatePages.get('/mail', async (c) => {
  const edited = await mailTemplates(c.env.DB)
  return mailListPage(
    c,
    EVENTS.map((event) => ({
      event,
      subject: edited.get(event)?.subject || SUBJECTS[event]('{order}'),
      edited: edited.get(event) ?? null,
    })),
    ACCOUNT_MAIL_KINDS.map((event) => ({
      event,
      subject: edited.get(event)?.subject || defaultAccountSubject(event),
      edited: edited.get(event) ?? null,
    })),
  )
})

/** An account mail's default subject with its placeholders shown as such. */
const defaultAccountSubject = (kind: AccountMailKind) =>
  ACCOUNT_MAILS[kind].subject(
    Object.fromEntries(Object.keys(ACCOUNT_MAILS[kind].placeholders).map((p) => [p, `{${p}}`])),
  )

mailTemplatePages.get('/mail/:event', async (c) => {
  const event = eventOf(c.req.param('event'))
  const config = c.var.config
  const shop = { name: config.STORE_NAME, origin: config.PUBLIC_ORIGIN, supportEmail: config.SUPPORT_EMAIL }
  const stored = await mailTemplate(c.env.DB, event)
  if (isAccountMail(event)) {
    const mail = renderAccountMail(event, sampleAccountInput(event, shop.origin), shop, stored)
    return mailEditPage(c, {
      event,
      stored,
      defaultSubject: defaultAccountSubject(event),
      placeholders: ACCOUNT_MAILS[event].placeholders,
      preview: { subject: mail.subject, body: previewBody(mail.html), text: mail.text },
      order: null,
      missing: null,
    })
  }
  const wanted = (c.req.query('order') ?? '').trim().slice(0, 40)
  const order = /^[0-9]{1,18}$/.test(wanted) ? await findOrderByAnyId(c.env.DB, wanted) : null
  let input = sampleMailInput(event, shop)
  if (order) {
    const { confirmed, lines, ...parts } = await orderMailParts(c.env.DB, config, order, input.detail)
    // The shopper's own link is signed; the preview links to the order page without its key.
    input = {
      ...parts,
      event,
      lines: confirmed ? lines : withoutTypedText(lines),
      withheld: !confirmed,
      orderLink: `${shop.origin}/order/${order.increment_id}`,
      codLink: null,
    }
  }
  const mail = renderOrderMail({ ...input, custom: stored })
  return mailEditPage(c, {
    event,
    stored,
    defaultSubject: SUBJECTS[event]('{order}'),
    placeholders: PLACEHOLDERS,
    preview: { subject: mail.subject, body: previewBody(mail.html), text: mail.text },
    order: order?.increment_id ?? null,
    missing: wanted !== '' && !order ? wanted : null,
  })
})

export const mailTemplateApi = new Hono<AdminEnv>()

mailTemplateApi.post('/mail/:event', allow('content'), async (c) => {
  const event = eventOf(c.req.param('event'))
  const words = await readInput(c, TemplateSchema, 'mail')
  const fields: Record<string, string> = {}
  for (const field of ['subject', 'intro', 'note'] as const) {
    const problem = templateTextProblem(field, words[field] ?? '', placeholdersOf(event))
    if (problem) fields[field] = problem
  }
  const first = Object.values(fields)[0]
  if (first) throw new HTTPException(400, { message: first, cause: { fields } })
  const saved = { subject: words.subject ?? '', intro: words.intro ?? '', note: words.note ?? '' }
  await saveMailTemplate(c.env.DB, event, saved, c.var.operator.email, Date.now())
  return answer(c, { event, ...saved }, `/admin/mail/${event}`)
})

mailTemplateApi.post('/mail/:event/reset', allow('content'), async (c) => {
  const event = eventOf(c.req.param('event'))
  await resetMailTemplate(c.env.DB, event, c.var.operator.email, Date.now())
  return answer(c, { event, reset: true }, `/admin/mail/${event}`)
})
