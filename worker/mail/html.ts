/**
 * The HTML part of the shop's mails: a single 600 px column of tables with inline CSS (what mail
 * clients render alike; no stylesheet, no script, no web font), in the label's ivory and ink.
 * Every piece of text is escaped here, whoever wrote it; a link is written only for an absolute
 * http(s) URL. The pieces return HTML strings; `mailDocument` wraps them in the page.
 */

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** Text as HTML text or attribute value. */
export function esc(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ESCAPES[ch] as string)
}

/** An absolute http(s) URL as an attribute value, or null for anything else. */
function href(url: string): string | null {
  return /^https?:\/\/[^\s"'<>]+$/i.test(url) ? esc(url) : null
}

const SANS = 'font-family:Helvetica,Arial,sans-serif'
/** The inline styles, one per kind of element (a fixed set: the back office's preview allows them). */
export const STYLES = {
  body: 'margin:0;padding:0;background:#f4efe6',
  outer: 'background:#f4efe6',
  outerCell: 'padding:24px 12px',
  column: 'max-width:600px;width:100%;background:#ffffff;border-collapse:collapse',
  masthead: `padding:28px 32px 20px;border-bottom:1px solid #e6dccb;font-family:Georgia,'Times New Roman',serif;font-size:22px;letter-spacing:3px;text-transform:uppercase;text-align:center;color:#2b211b`,
  content: `padding:24px 32px;${SANS};font-size:15px;line-height:1.55;color:#2b211b`,
  p: 'margin:0 0 14px',
  h2: `margin:22px 0 10px;font-family:Georgia,'Times New Roman',serif;font-size:18px;font-weight:normal;color:#2b211b`,
  table: 'width:100%;border-collapse:collapse',
  cell: 'padding:10px 0;border-bottom:1px solid #efe8dc;vertical-align:top',
  picture: 'padding:10px 12px 10px 0;border-bottom:1px solid #efe8dc;vertical-align:top;width:76px',
  img: 'display:block;border:0;width:76px;height:76px;background:#f4efe6',
  amount:
    'padding:10px 0;border-bottom:1px solid #efe8dc;vertical-align:top;text-align:right;white-space:nowrap',
  option: 'font-size:13px;color:#6b5d52',
  label: 'padding:4px 12px 4px 0;color:#6b5d52;vertical-align:top',
  value: 'padding:4px 0;vertical-align:top',
  sum: 'padding:4px 0;text-align:right;white-space:nowrap',
  total:
    'padding:8px 0 4px;border-top:1px solid #2b211b;font-weight:bold;text-align:right;white-space:nowrap',
  totalLabel: 'padding:8px 0 4px;border-top:1px solid #2b211b;font-weight:bold',
  address: 'margin:0 0 14px;font-style:normal',
  buttonCell: 'padding:6px 0 14px',
  button: `display:inline-block;padding:12px 22px;background:#2b211b;color:#ffffff;${SANS};font-size:15px;text-decoration:none;border-radius:2px`,
  secondary: `display:inline-block;padding:11px 21px;border:1px solid #2b211b;color:#2b211b;${SANS};font-size:15px;text-decoration:none;border-radius:2px`,
  muted: 'margin:0 0 14px;color:#6b5d52;font-size:13px',
  footer: `padding:18px 32px 28px;border-top:1px solid #e6dccb;${SANS};font-size:12px;line-height:1.5;color:#6b5d52;text-align:center`,
  link: 'color:#2b211b',
  preheader: 'display:none;max-height:0;overflow:hidden;opacity:0',
} as const

/** A paragraph of text (escaped), or of HTML made by this module's callers from escaped parts. */
export const paragraph = (text: string, style: string = STYLES.p) => `<p style="${style}">${esc(text)}</p>`
export const paragraphHtml = (html: string) => `<p style="${STYLES.p}">${html}</p>`
export const heading = (text: string) => `<h2 style="${STYLES.h2}">${esc(text)}</h2>`

/** A button-like link; nothing when the URL is not an absolute http(s) one. */
export function button(url: string, label: string, kind: 'primary' | 'secondary' = 'primary'): string {
  const h = href(url)
  if (!h) return ''
  const style = kind === 'primary' ? STYLES.button : STYLES.secondary
  return `<table role="presentation" cellpadding="0" cellspacing="0"><tr><td style="${STYLES.buttonCell}"><a href="${h}" style="${style}">${esc(label)}</a></td></tr></table>`
}

/** Label–value rows (carrier, tracking number, customer…). */
export function facts(rows: readonly (readonly [string, string])[]): string {
  if (!rows.length) return ''
  const tr = rows
    .map(
      ([k, v]) =>
        `<tr><td style="${STYLES.label}">${esc(k)}</td><td style="${STYLES.value}">${esc(v)}</td></tr>`,
    )
    .join('')
  return `<table role="presentation" style="${STYLES.table}">${tr}</table>`
}

interface HtmlLine {
  qty: number
  name: string
  /** The line's amount, formatted, or null. */
  amount: string | null
  chosen: readonly { label: string; value: string }[]
  /** Absolute URL of the picture, or null. */
  picture: string | null
}

/** The order's lines: picture, quantity × name with what was chosen, amount. */
export function lineTable(lines: readonly HtmlLine[]): string {
  const rows = lines.map((l) => {
    const src = l.picture ? href(l.picture) : null
    const picture = src
      ? `<img src="${src}" width="76" height="76" alt="${esc(l.name)}" style="${STYLES.img}">`
      : ''
    const chosen = l.chosen
      .map((o) => `<br><span style="${STYLES.option}">${esc(o.label)}: ${esc(o.value)}</span>`)
      .join('')
    return `<tr><td style="${STYLES.picture}">${picture}</td><td style="${STYLES.cell}">${l.qty} × ${esc(l.name)}${chosen}</td><td style="${STYLES.amount}">${esc(l.amount ?? '')}</td></tr>`
  })
  return `<table role="presentation" style="${STYLES.table}">${rows.join('')}</table>`
}

/** The money rows, the last one (the total, or what is left to pay) ruled off and bold. */
export function moneyTable(rows: readonly { title: string; amount: string }[]): string {
  const tr = rows.map((r, i) => {
    const last = i === rows.length - 1
    return `<tr><td style="${last ? STYLES.totalLabel : STYLES.value}">${esc(r.title)}</td><td style="${last ? STYLES.total : STYLES.sum}">${esc(r.amount)}</td></tr>`
  })
  return `<table role="presentation" style="${STYLES.table}">${tr.join('')}</table>`
}

/** An address, one line each. */
export const addressBlock = (lines: readonly string[]) =>
  `<p style="${STYLES.address}">${lines.map(esc).join('<br>')}</p>`

/** A link in running text; the label alone when the URL is not an absolute http(s) one. */
export function textLink(url: string, label: string): string {
  const h = href(url)
  return h ? `<a href="${h}" style="${STYLES.link}">${esc(label)}</a>` : esc(label)
}

/** A mail address as a mailto link. */
export const mailto = (address: string) =>
  `<a href="mailto:${esc(address)}" style="${STYLES.link}">${esc(address)}</a>`

/** The whole HTML document of a mail: masthead, the body pieces, the footer. */
export function mailDocument(m: {
  title: string
  /** The line a mail client shows beside the subject. */
  preheader: string
  shop: string
  body: readonly string[]
  footer: string
}): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(m.title)}</title></head><body style="${STYLES.body}"><div style="${STYLES.preheader}">${esc(m.preheader)}</div><table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="${STYLES.outer}"><tr><td align="center" style="${STYLES.outerCell}"><table role="presentation" width="600" cellpadding="0" cellspacing="0" style="${STYLES.column}"><tr><td style="${STYLES.masthead}">${esc(m.shop)}</td></tr><tr><td style="${STYLES.content}">${m.body.join('')}</td></tr><tr><td style="${STYLES.footer}">${m.footer}</td></tr></table></td></tr></table></body></html>`
}
