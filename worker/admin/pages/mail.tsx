/**
 * Order and account mails: the list of mails (subject, edited by whom and when) and one mail's
 * page: the words to edit, the placeholders they may use, a reset to the defaults, and the preview
 * of the mail as the shopper gets it (HTML part, then text part).
 */
import type { Context } from 'hono'
import type { OrderMailEvent } from '../../api/mail/order-words'
import { ACCOUNT_MAILS, type AccountMailKind } from '../../mail/account-mail'
import { type PlaceholderList, TEMPLATE_LIMITS } from '../../mail/blocks'
import { PREVIEW_CSS } from '../../mail/preview'
import type { MailTemplateKey, StoredMailTemplate } from '../../mail/templates'
import type { AdminEnv } from '../env'
import { Confirm, Field, PostForm, Table, TextArea, when } from './components'
import { renderAdmin } from './frame'

/** Each mail event as the operator knows it. */
const EVENT_NAMES: Record<OrderMailEvent, string> = {
  placed: 'Order received',
  paid: 'Payment received',
  payment_failed: 'Payment failed',
  shipped: 'Shipped',
  out_for_delivery: 'Out for delivery',
  delivered: 'Delivered',
  undelivered: 'Delivery failed',
  rto: 'Coming back to us (RTO)',
  returned: 'Back with us',
  cod_collected: 'Cash collected on delivery',
  canceled: 'Canceled',
  expired: 'Expired',
  refunded: 'Refunded',
  return_requested: 'Return booked',
  return_picked_up: 'Return picked up',
  return_received: 'Return inspected',
  return_rejected: 'Return not accepted',
  exchange_shipped: 'Exchange shipped',
}

/** A mail as the operator knows it. */
const mailName = (key: MailTemplateKey) =>
  key in ACCOUNT_MAILS ? ACCOUNT_MAILS[key as AccountMailKind].title : EVENT_NAMES[key as OrderMailEvent]

const editedBy = (t: StoredMailTemplate | null) =>
  t ? `Edited by ${t.updated_by}, ${when(t.updated_at)}` : 'Default words'

interface MailRow {
  event: MailTemplateKey
  subject: string
  edited: StoredMailTemplate | null
}

const MailTable = ({ rows }: { rows: MailRow[] }) => (
  <Table
    rows={rows}
    rowKey={(r) => r.event}
    columns={[
      { header: 'Mail', cell: (r) => <a href={`/admin/mail/${r.event}`}>{mailName(r.event)}</a> },
      { header: 'Subject', cell: (r) => r.subject },
      { header: 'Words', cell: (r) => editedBy(r.edited) },
    ]}
  />
)

export function mailListPage(c: Context<AdminEnv>, rows: MailRow[], accountRows: MailRow[]) {
  return renderAdmin(
    c,
    'Order mails',
    <>
      <p>
        The mails a shopper gets about an order. Each has the shop's own words until you edit them; the
        order's items, money, addresses and links are always filled in by the shop.
      </p>
      <MailTable rows={rows} />
      <h2>Account mails</h2>
      <p>
        The password reset, an e-gift card to its recipient and back in stock. The reset link, the gift card's
        code and the product's link are always written by the shop, never by the words.
      </p>
      <MailTable rows={accountRows} />
    </>,
  )
}

/** The mail's own paragraphs the operator writes: the stored field, its label and its height. */
const PARAGRAPHS = [
  ['intro', "Opening text (empty: the shop's default sentence for this mail)", 5],
  ['note', 'Closing note (empty: none)', 3],
] as const

export function mailEditPage(
  c: Context<AdminEnv>,
  p: {
    event: MailTemplateKey
    stored: StoredMailTemplate | null
    defaultSubject: string
    /** The placeholders this mail's words may hold. */
    placeholders: PlaceholderList
    preview: { subject: string; body: string; text: string }
    /** The order previewed, or null for the sample order. */
    order: string | null
    /** An order number asked for that does not exist. */
    missing: string | null
  },
) {
  const back = `/admin/mail/${p.event}`
  return renderAdmin(
    c,
    `Mail: ${mailName(p.event)}`,
    <>
      <p>
        <a href="/admin/mail">All mails</a> · {editedBy(p.stored)}
      </p>
      <PostForm needs="content" action={`/admin/api/mail/${p.event}`} back={back} label="Save">
        <Field
          label="Subject (empty: the default)"
          name="subject"
          defaultValue={p.stored?.subject ?? ''}
          placeholder={p.defaultSubject}
          maxLength={TEMPLATE_LIMITS.subject}
          size={60}
        />
        {PARAGRAPHS.map(([name, label, rows]) => (
          <TextArea
            key={name}
            label={label}
            name={name}
            defaultValue={p.stored?.[name] ?? ''}
            maxLength={TEMPLATE_LIMITS[name]}
            rows={rows}
          />
        ))}
      </PostForm>
      <details>
        <summary>What the words may hold</summary>
        <p>
          Plain text. A blank line starts a new paragraph; **two stars** on each side make words bold.
          Anything else, tags included, is shown as typed. These are filled in for each mail:
        </p>
        <ul>
          {Object.entries(p.placeholders).map(([name, what]) => (
            <li key={name}>
              <code>{`{${name}}`}</code>: {what}
            </li>
          ))}
        </ul>
      </details>
      {p.stored ? (
        <Confirm
          needs="content"
          summary="Reset to the default words"
          explanation="The subject, opening text and closing note go back to the shop's own words."
          action={`/admin/api/mail/${p.event}/reset`}
          back={back}
          label="Reset this mail"
        />
      ) : null}
      <section className="card" aria-label="Preview">
        {p.event in ACCOUNT_MAILS ? (
          <h2>Preview with sample fillings</h2>
        ) : (
          <>
            <h2>{p.order ? `Preview with order ${p.order}` : 'Preview with a sample order'}</h2>
            {p.missing ? (
              <p role="alert">{`There is no order ${p.missing}; the sample order is shown.`}</p>
            ) : null}
            <form method="get" action={back} className="inline">
              <Field label="Order number" name="order" defaultValue={p.order ?? ''} inputMode="numeric" />
              <button type="submit">Preview with this order</button>
            </form>
          </>
        )}
        <p>
          <strong>Subject:</strong> {p.preview.subject}
        </p>
        {/* The mail's classes (its inline styles, which this page's policy does not allow). */}
        <style nonce={c.var.nonce} dangerouslySetInnerHTML={{ __html: PREVIEW_CSS }} />
        {/* The rendered mail: every text in it was escaped when it was written. */}
        <div className="mail-preview" dangerouslySetInnerHTML={{ __html: p.preview.body }} />
        <details>
          <summary>Text part</summary>
          <pre>{p.preview.text}</pre>
        </details>
      </section>
    </>,
  )
}
