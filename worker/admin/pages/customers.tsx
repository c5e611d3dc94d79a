/**
 * Customers: the list searched by name, e-mail or phone (guests included), and one found by
 * e-mail, with their account state, store credit, orders and ledger (a guest: their orders).
 */
import { baseCurrency } from '@shared/config/store'
import type { Context } from 'hono'
import type { CustomerRow } from '../customers'
import type { AdminEnv } from '../env'
import { Field, MoneyInput, money, PostForm, statusLabel, Table, when } from './components'
import { renderAdmin } from './frame'

interface CustomerView {
  customer: {
    id: number
    email: string
    firstname: string
    lastname: string
    credit_minor: number
    disabled_at: string | null
  }
  orders: unknown[]
  ledger: unknown[]
}

type GuestOrder = { increment_id: string; status: string; grand_total_minor: number; currency: string }

export function customersPage(
  c: Context<AdminEnv>,
  view: { q: string; list: CustomerRow[]; email: string; found: CustomerView | null; guest: GuestOrder[] },
) {
  const { email, found } = view
  const back = `/admin/customers?email=${encodeURIComponent(email)}`
  const who = found?.customer
  return renderAdmin(
    c,
    'Customers',
    <>
      <search>
        <form className="inline" method="get">
          <Field label="Name, e-mail or phone" name="q" defaultValue={view.q} maxLength={100} />
          <button type="submit">Search</button>
        </form>
      </search>
      {email && !found && view.guest.length === 0 ? (
        <p>No customer or order has the e-mail {email}.</p>
      ) : null}
      {email && !found && view.guest.length ? (
        <section className="card">
          <h2>{email} — guest (no account)</h2>
          <ul>
            {view.guest.map((o) => (
              <li key={o.increment_id}>
                <a href={`/admin/orders/${o.increment_id}`}>{o.increment_id}</a> {statusLabel(o.status)}{' '}
                {money(o.grand_total_minor, o.currency)}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {email ? null : (
        <Table
          rows={view.list}
          rowKey={(r) => `${r.id ?? 'guest'}:${r.email}`}
          columns={[
            {
              header: 'Customer',
              cell: (r) => (
                <a href={`/admin/customers?email=${encodeURIComponent(r.email)}`}>{r.name || r.email}</a>
              ),
            },
            { header: 'E-mail', cell: (r) => r.email },
            { header: 'Account', cell: (r) => (r.id === null ? 'guest' : 'account') },
            { header: 'Orders', cell: (r) => r.orders },
            { header: 'Store credit', cell: (r) => money(r.credit_minor, baseCurrency()) },
          ]}
        />
      )}
      {found && who ? (
        <section className="card">
          <h2>
            {who.firstname} {who.lastname} — {who.email}
          </h2>
          <p>
            Store credit: {money(who.credit_minor, baseCurrency())} · account{' '}
            {who.disabled_at ? `disabled since ${when(who.disabled_at)}` : 'active'}
          </p>
          <PostForm
            needs="customers"
            action={`/admin/api/customers/${who.id}/disabled`}
            back={back}
            label={who.disabled_at ? 'Enable account' : 'Disable account'}
          >
            <input type="hidden" name="disabled" value={who.disabled_at ? 'false' : 'true'} />
          </PostForm>
          <PostForm
            needs="money"
            action={`/admin/api/customers/${who.id}/credit`}
            back={back}
            label="Change credit"
          >
            <MoneyInput label="Amount in rupees (−500 takes ₹500 back)" name="amount" required />
            <Field label="Why" name="comment" required />
          </PostForm>
          <h3>Orders</h3>
          <ul>
            {(found.orders as { increment_id: string; status: string }[]).map((o) => (
              <li key={o.increment_id}>
                <a href={`/admin/orders/${o.increment_id}`}>{o.increment_id}</a> {statusLabel(o.status)}
              </li>
            ))}
          </ul>
          <h3>Credit ledger</h3>
          <ul>
            {(
              found.ledger as {
                amount_minor: number
                balance_after_minor: number
                comment: string
                created_at: string
              }[]
            ).map((l, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the ledger is append-only
              <li key={`${l.created_at}-${i}`}>
                {when(l.created_at)}: {money(l.amount_minor, baseCurrency())} →{' '}
                {money(l.balance_after_minor, baseCurrency())} {l.comment}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>,
  )
}
