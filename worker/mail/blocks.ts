/**
 * The operator's own words in an order mail (its subject, opening text and closing note, edited in
 * the back office): what they may hold and how they become text and HTML.
 *
 * - Plain text, with placeholders the shop fills ({order}, {total}, …) and one piece of markup,
 *   **bold**. Paragraphs are separated by a blank line; a single line break stays a line break.
 * - Everything else is text: it is escaped when the HTML part is written, so an edited block can
 *   never add a tag, an attribute or a link of its own.
 * - A subject is one line. Control characters other than line breaks are refused.
 */
import { isControl } from '../api/mail/order-lines'
import { esc } from './html'

/** The placeholders an edited block may hold, each with what it becomes. */
export const PLACEHOLDERS = {
  order: 'the order number',
  total: "the order's total",
  paid: 'the amount paid',
  refunded: 'the amount refunded so far',
  deadline: 'when a cash-on-delivery order must be confirmed by (IST)',
  shop: "the shop's name",
} as const

export type PlaceholderValues = Record<keyof typeof PLACEHOLDERS, string>

/** The placeholders a mail's words may hold, each with what it becomes. */
export type PlaceholderList = Readonly<Record<string, string>>

/** The editable fields of an order mail; null or absent keeps the shop's default words. */
export interface MailTemplateText {
  subject?: string | null
  intro?: string | null
  note?: string | null
}

export type TemplateField = keyof MailTemplateText

/** Longest text of each field (characters). */
export const TEMPLATE_LIMITS: Record<TemplateField, number> = { subject: 150, intro: 1500, note: 1000 }

const FIELD_NAMES: Record<TemplateField, string> = {
  subject: 'The subject',
  intro: 'The opening text',
  note: 'The closing note',
}

/** Line breaks written one way (\n), outer blank space trimmed. */
export function normaliseBlock(value: string): string {
  return value.replace(/\r\n?/g, '\n').trim()
}

/** Why an edited field cannot be used (a sentence), or null when it can. */
export function templateTextProblem(
  field: TemplateField,
  value: string,
  allowed: PlaceholderList = PLACEHOLDERS,
): string | null {
  const name = FIELD_NAMES[field]
  if (value.length > TEMPLATE_LIMITS[field])
    return `${name} is longer than ${TEMPLATE_LIMITS[field]} characters.`
  if (field === 'subject' && value.includes('\n')) return `${name} must be one line.`
  // C0/C1 control characters (a line break aside) and the Unicode line and paragraph separators.
  if ([...value].some((ch) => ch !== '\n' && isControl(ch)))
    return `${name} holds an invisible control character; please type it again.`
  for (const [, used = ''] of value.matchAll(/\{([^{}\s]{0,40})\}/g))
    if (!Object.hasOwn(allowed, used))
      return `${name} uses {${used}}, which the shop cannot fill. Use ${Object.keys(allowed)
        .map((p) => `{${p}}`)
        .join(', ')}.`
  return null
}

/** The text with each known placeholder replaced by its value (unknown ones are left as typed). */
export function fillPlaceholders(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{([a-z]+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? (values[name] as string) : whole,
  )
}

/** The paragraphs of a block (split on blank lines). */
export function paragraphs(text: string): string[] {
  return normaliseBlock(text)
    .split(/\n[ \t]*\n+/)
    .map((p) => p.trim())
    .filter((p) => p !== '')
}

/** A paragraph as plain text: the bold markers are dropped. */
export function blockText(paragraph: string): string {
  return paragraph.replace(/\*\*(.+?)\*\*/gs, '$1')
}

/** A paragraph as HTML: escaped, then **bold** as <strong> and line breaks as <br>. */
export function blockHtml(paragraph: string): string {
  return esc(paragraph)
    .replace(/\*\*(.+?)\*\*/gs, '<strong>$1</strong>')
    .replace(/\n/g, '<br>')
}
