/** Customers: one found by e-mail, with their account state, store credit, orders and ledger. */
import { baseCurrency } from '@shared/config/store'
import type { Context } from 'hono'
import type { AdminEnv } from '../env'
import { Field, MoneyInput, money, PostForm, statusLabel, when } from './components'
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

export function customersPage(c: Context<AdminEnv>, email: string, found: CustomerView | null) {
  const back = `/admin/customers?email=${encodeURIComponent(email)}`
  const who = found?.customer
  return renderAdmin(
    c,
    'Customers',
    <>
      <search>
        <form className="inline" method="get">
          <Field label="E-mail" type="email" name="email" defaultValue={email} required />
          <button type="submit">Look up</button>
        </form>
      </search>
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
