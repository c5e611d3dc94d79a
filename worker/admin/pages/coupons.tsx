/** Coupons: every coupon with its rule, limits and use (enable, disable), and a new coupon. */
import { baseCurrency, shopTimeZone } from '@shared/config/store'
import type { Context } from 'hono'
import type { AdminEnv } from '../env'
import { Choice, Field, MoneyInput, money, PostForm, Table, when } from './components'
import { renderAdmin } from './frame'

export function couponsPage(c: Context<AdminEnv>, coupons: Record<string, unknown>[]) {
  const back = '/admin/coupons'
  const units = (amount: unknown) => money(Math.round(Number(amount) * 100), baseCurrency())
  return renderAdmin(
    c,
    'Coupons',
    <>
      <Table
        rows={coupons}
        rowKey={(k) => String(k.code)}
        columns={[
          { header: 'Code', cell: (k) => String(k.code) },
          {
            header: 'Rule',
            cell: (k) => (
              <>
                {k.kind === 'percent' ? `${k.amount}%` : units(k.amount)} from {units(k.min_subtotal)};{' '}
                {k.starts_at ? when(String(k.starts_at)) : '…'} –{' '}
                {k.expires_at ? when(String(k.expires_at)) : '…'}
              </>
            ),
          },
          {
            header: 'Limits',
            cell: (k) => (
              <>
                {k.first_order_only ? 'first order; ' : ''}
                {k.per_customer_limit ? `${k.per_customer_limit} per shopper; ` : ''}
                {k.total_limit ? `${k.total_limit} in all` : ''}
              </>
            ),
          },
          { header: 'Used', cell: (k) => String(k.used) },
          { header: 'Active', cell: (k) => (k.is_active ? 'yes' : 'no') },
          {
            header: <span className="skip">Change</span>,
            cell: (k) => (
              <PostForm
                action={`/admin/api/coupons/${String(k.code)}`}
                back={back}
                label={k.is_active ? 'Disable' : 'Enable'}
              >
                <input type="hidden" name="is_active" value={k.is_active ? 'false' : 'true'} />
              </PostForm>
            ),
          },
        ]}
      />
      <section className="card">
        <h2>New coupon</h2>
        <PostForm action="/admin/api/coupons" back={back} label="Create coupon">
          <Field label="Code" name="code" required />
          <Choice label="Kind" name="kind" options={['percent', 'fixed']} />
          <MoneyInput label="Amount" name="amount" required />
          <MoneyInput label="Minimum subtotal" name="min_subtotal" defaultValue="0" />
          <Field label={`Starts (${shopTimeZone()})`} type="date" name="starts_at" />
          <Field label={`Expires after (${shopTimeZone()})`} type="date" name="expires_at" />
          <Field label="Label" name="label" required />
          <Field label="First order only" type="checkbox" name="first_order_only" value="true" />
          <Field label="Per shopper" name="per_customer_limit" inputMode="numeric" />
          <Field label="In all" name="total_limit" inputMode="numeric" />
        </PostForm>
      </section>
    </>,
  )
}
