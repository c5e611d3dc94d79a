/** Orders: the filtered, paged list (with its CSV link) and one order with its moves and history. */
import { documentMoneyRows } from '@shared/components/order/money-rows'
import { orderDateTime } from '@shared/components/order/order-text'
import { ORDER_STATUS_LABELS, type OrderStatus } from '@shared/config/order-status'
import type { Context } from 'hono'
import type { Key, ReactNode } from 'react'
import { PAYMENT_STATE_LABELS } from '../../api/mail/order-words'
import type { AdminEnv } from '../env'
import { type OrderFilter, type OrderListRow, PAGE_SIZE } from '../order-list'
import type { OrderDetail } from '../orders'
import { Choice, Field, MoneyInput, money, PostForm, statusLabel, Table, TextArea, when } from './components'
import { renderAdmin } from './frame'
import { OrderAddresses, OrderDocuments, OrderItems } from './order-documents'

export function ordersPage(
  c: Context<AdminEnv>,
  f: OrderFilter,
  list: { rows: OrderListRow[]; total: number },
) {
  const pages = Math.max(1, Math.ceil(list.total / PAGE_SIZE))
  const qs = (page: number) => {
    const p = new URLSearchParams()
    for (const [k, v] of Object.entries({ ...f, page })) if (v !== undefined && v !== '') p.set(k, String(v))
    return p.toString()
  }
  return renderAdmin(
    c,
    'Orders',
    <>
      <search>
        <form className="inline" method="get" action="/admin/orders">
          <Field label="Search" name="q" defaultValue={f.q ?? ''} placeholder="number, e-mail, phone, SKU" />
          <Choice
            label="Status"
            name="status"
            defaultValue={f.status ?? ''}
            options={[['', 'Any status'], ...Object.entries(ORDER_STATUS_LABELS)]}
          />
          <Choice
            label="Payment"
            name="payment"
            defaultValue={f.payment ?? ''}
            options={[['', 'Any payment'], ...Object.entries(PAYMENT_STATE_LABELS)]}
          />
          <Field label="From" type="date" name="from" defaultValue={f.from ?? ''} />
          <Field label="To" type="date" name="to" defaultValue={f.to ?? ''} />
          <button type="submit">Filter</button>
        </form>
      </search>
      <p>
        {list.total} orders · <a href={`/admin/api/orders.csv?${qs(1)}`}>Download CSV</a>
      </p>
      <Table
        rows={list.rows}
        rowKey={(r) => r.increment_id}
        columns={[
          { header: 'Number', cell: (r) => <a href={`/admin/orders/${r.increment_id}`}>{r.increment_id}</a> },
          { header: 'Placed', cell: (r) => when(r.created_at) },
          { header: 'E-mail', cell: (r) => r.customer_email },
          { header: 'Status', cell: (r) => statusLabel(r.status) },
          { header: 'Payment', cell: (r) => r.payment_state },
          { header: 'Total', cell: (r) => money(r.grand_total_minor, r.currency) },
        ]}
      />
      <nav aria-label="Pages">
        <p>
          Page {f.page} of {pages}
          {f.page > 1 ? (
            <>
              {' · '}
              <a href={`/admin/orders?${qs(f.page - 1)}`}>Previous</a>
            </>
          ) : null}
          {f.page < pages ? (
            <>
              {' · '}
              <a href={`/admin/orders?${qs(f.page + 1)}`}>Next</a>
            </>
          ) : null}
        </p>
      </nav>
    </>,
  )
}

const CARD_STATUS: Record<string, string> = { issued: 'not redeemed', redeemed: 'redeemed', void: 'void' }

/**
 * The order's money: its rows as the shopper saw them (store credit spent included), what was paid
 * and refunded, what a refund may give back now and what is held for redeemed gift cards, its gift
 * cards, every payment a provider reported and every refund.
 */
function OrderMoney({ d }: { d: OrderDetail }) {
  const o = d.order
  const m = (minor: number) => money(minor, o.currency)
  return (
    <div className="card">
      <h2>Money</h2>
      <table>
        <tbody>
          {documentMoneyRows(d.doc).map((r) => (
            <tr key={r.code} data-row={r.code}>
              <th scope="row">{r.title}</th>
              <td>{r.minor < 0 ? `−${m(-r.minor)}` : m(r.minor)}</td>
            </tr>
          ))}
          <tr>
            <th scope="row">Paid through the provider</th>
            <td>{m(o.paid_minor)}</td>
          </tr>
          <tr>
            <th scope="row">Refunded</th>
            <td>{m(o.refunded_minor)}</td>
          </tr>
          <tr data-row="refundable">
            <th scope="row">Refundable now</th>
            <td>
              {m(d.room.max)}
              {d.room.redeemedMinor > 0
                ? ` (${m(d.room.redeemedMinor)} paid for redeemed gift card${d.room.redeemed.length > 1 ? 's' : ''} ${d.room.redeemed.join(', ')} is not refundable)`
                : ''}
            </td>
          </tr>
        </tbody>
      </table>
      <Listed
        title="Gift cards"
        items={d.hold.cards}
        itemKey={(g) => g.id}
        item={(g) => (
          <>
            …{g.code_last4}: {money(g.paid_minor, o.currency)} paid, {CARD_STATUS[g.status] ?? g.status}
            {g.clawed_minor > 0 ? `, ${money(g.clawed_minor, o.currency)} taken back by refunds` : ''}
          </>
        )}
      />
      <Listed
        title="Payments"
        items={d.payments}
        itemKey={(p) => `${p.provider}:${p.provider_payment_id}`}
        item={(p) => (
          <>
            {p.provider} {p.provider_payment_id}: {money(p.amount_minor, p.currency)} —{' '}
            {p.status.replace('_', ' ')}
            {p.refund_id ? ` (refund ${p.refund_id})` : ''}
          </>
        )}
      />
      <Listed
        title="Refunds"
        items={d.refunds}
        // Refunds are append-only: a refund is its place in the list.
        itemKey={(_, i) => i}
        item={(r) => (
          <>
            {when(r.created_at)}: {money(r.amount_minor, r.currency)} through {r.provider}
            {r.provider_refund_id ? ` (${r.provider_refund_id})` : ''} — {r.status}, by {r.actor}: {r.reason}
          </>
        )}
      />
    </div>
  )
}

/** A titled list of an order's records (gift cards, payments, refunds); nothing when there are none. */
function Listed<T>(props: {
  title: string
  items: readonly T[]
  itemKey: (item: T, index: number) => Key
  item: (item: T) => ReactNode
}) {
  if (!props.items.length) return null
  return (
    <>
      <h3>{props.title}</h3>
      <ul>
        {props.items.map((x, i) => (
          <li key={props.itemKey(x, i)}>{props.item(x)}</li>
        ))}
      </ul>
    </>
  )
}

/** Who did something to an order, in words: an operator by e-mail, else the shopper, a provider or the shop. */
function actorInWords(actor: string): string {
  if (actor === 'shopper') return 'the shopper'
  if (actor === 'system' || actor === 'scheduler') return 'the shop'
  const provider = /^provider:(\w+)/.exec(actor)?.[1]
  if (provider) return provider === 'razorpay' ? 'Razorpay' : provider === 'paypal' ? 'PayPal' : provider
  return actor
}

/** The words of an event's detail fields; fields not listed (provider ids, codes) are not shown. */
const DETAIL_WORDS: Record<string, string> = {
  reason: 'reason',
  carrier: 'carrier',
  tracking_number: 'tracking number',
  held_back: 'held back',
  flag: 'note',
}

/** One event of an order's history, in words (never raw JSON or a payment id). */
function eventInWords(
  e: { kind: string; from_status: string | null; to_status: string | null; detail: string },
  currency: string,
): string {
  let d: Record<string, unknown> = {}
  try {
    d = JSON.parse(e.detail || '{}') ?? {}
  } catch {}
  const extra = Object.entries(DETAIL_WORDS)
    .filter(([k]) => typeof d[k] === 'string' && d[k] !== '')
    .map(([k, w]) => `${w}: ${d[k]}`)
  const tail = extra.length ? ` (${extra.join('; ')})` : ''
  switch (e.kind) {
    case 'status':
      return `${e.from_status ? `${statusLabel(e.from_status)} → ` : ''}${statusLabel(e.to_status ?? '')}${tail}`
    case 'refund':
      return `Refunded ${money(Number(d.amountMinor ?? 0), String(d.currency ?? currency))}${d.provider && d.provider !== 'manual' ? ` through ${actorInWords(`provider:${d.provider}`)}` : ''}${tail}`
    case 'note':
      return `Note: ${String(d.text ?? '')}`
    case 'mail':
      return `Mail ${String(d.mail ?? '').replace(/^order-/, '')} not sent${tail}`
    case 'payment':
      return `Payment${d.amountMinor !== undefined ? ` of ${money(Number(d.amountMinor), String(d.currency ?? currency))}` : ''}${tail}`
    default:
      return `${e.kind.replace(/_/g, ' ')}${tail}`
  }
}

export function orderPage(c: Context<AdminEnv>, d: OrderDetail) {
  const o = d.order
  const back = `/admin/orders/${o.increment_id}`
  const form = (action: string, label: string, fields: ReactNode, danger = false, formKey?: string) => (
    <PostForm
      needs="orders"
      action={`/admin/api/orders/${o.increment_id}/${action}`}
      back={back}
      label={label}
      danger={danger}
      formKey={formKey}
    >
      {fields}
    </PostForm>
  )
  const move = (to: OrderStatus, label: string, fields: ReactNode = null, danger = false) =>
    d.next.includes(to)
      ? form(
          'transition',
          label,
          <>
            <input type="hidden" name="to" value={to} />
            {fields}
          </>,
          danger,
          to,
        )
      : null
  return renderAdmin(
    c,
    `Order ${o.increment_id}`,
    <>
      <div className="card">
        <p>
          Status: <strong>{statusLabel(o.status)}</strong> · payment{' '}
          {PAYMENT_STATE_LABELS[o.payment_state] ?? o.payment_state} ·{' '}
          {money(o.grand_total_minor, o.currency)} (paid {money(o.paid_minor, o.currency)}, refunded{' '}
          {money(o.refunded_minor, o.currency)}) · {o.customer_email}
        </p>
        {o.status === 'pending' && o.expires_at !== null ? (
          <p>
            To confirm with the shopper by <strong>{orderDateTime(o.expires_at)}</strong>; unconfirmed, it
            then expires and its stock goes back on sale.
          </p>
        ) : null}
        {o.status === 'pending' ? (
          <p data-testid="cod-channels">
            {d.whatsapp.phone
              ? `The shopper can confirm from WhatsApp (+${d.whatsapp.phone}): the confirmation is ${
                  d.whatsapp.messages.find((m) => m.kind === 'cod_confirmation')?.delivery_status ??
                  d.whatsapp.messages.find((m) => m.kind === 'cod_confirmation')?.status ??
                  'not sent'
                }, or from the link in the order mail.`
              : 'The shopper did not opt in to WhatsApp: they can confirm from the link in the order mail, or call them.'}
          </p>
        ) : null}
        {d.whatsapp.messages.length ? (
          <p>
            WhatsApp:{' '}
            {d.whatsapp.messages
              .map((m) => `${m.kind} (${m.delivery_status ?? m.status}, ${orderDateTime(m.created_at)})`)
              .join(' · ')}
          </p>
        ) : null}
        {o.status === 'pending' ? move('processing', 'Confirm (cash on delivery)') : null}
        {move('packed', 'Mark packed')}
        {move(
          'shipped',
          'Mark shipped',
          <>
            <Field label="Carrier" name="carrier" required />
            <Field label="Tracking number" name="tracking_number" required />
          </>,
        )}
        {move('delivered', 'Mark delivered')}
        {move(
          'canceled',
          'Cancel order',
          <Field label="Reason for cancelling" name="reason" required />,
          true,
        )}
        {d.room.max > 0
          ? form(
              'refund',
              'Refund',
              <>
                <MoneyInput label="Amount in rupees (5000 is ₹5,000)" name="amount" required />
                <Field label="Reason for the refund" name="reason" required />
              </>,
            )
          : null}
      </div>
      <OrderAddresses d={d} />
      <OrderItems d={d} />
      <OrderMoney d={d} />
      <OrderDocuments d={d} documents={d.documents} invoiceable={d.invoiceable} />
      <div className="card">
        <h2>History</h2>
        <Table
          rows={d.events}
          // The history is append-only: a row's place in it is part of its key.
          rowKey={(e, i) => `${e.created_at}-${i}`}
          columns={[
            { header: 'When', cell: (e) => when(e.created_at) },
            { header: 'What', cell: (e) => eventInWords(e, o.currency) },
            { header: 'Who', cell: (e) => actorInWords(e.actor) },
          ]}
        />
        {form('note', 'Add note', <TextArea label="Internal note" name="text" required maxLength={2000} />)}
      </div>
    </>,
  )
}
