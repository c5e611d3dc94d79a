/**
 * Coupons: every coupon with its rule, limits, use and state in words (active, disabled, expired,
 * not started, used up), each editable, and a new coupon.
 */
import { baseCurrency, shopTimeZone } from '@shared/config/store'
import { storedInstant, zonedDate } from '@shared/domain/shop-clock'
import type { Context } from 'hono'
import type { AdminEnv } from '../env'
import { Choice, Field, MoneyInput, money, PostForm, paise, Table, Unfold, when } from './components'
import { renderAdmin } from './frame'

/** A coupon's state as a shopper would meet it now, in words. */
function couponState(k: Record<string, unknown>, now: number): string {
  const starts = storedInstant(k.starts_at as string | null)
  const expires = storedInstant(k.expires_at as string | null)
  if (!k.is_active) return 'Disabled'
  if (expires !== null && expires < now) return `Expired (ended ${when(k.expires_at as string)})`
  if (starts !== null && starts > now) return `Not started (starts ${when(k.starts_at as string)})`
  if (k.total_limit && Number(k.used) >= Number(k.total_limit)) return 'Used up'
  return 'Active'
}

/** A stored time as the date field of the shop's calendar shows it ('' for none). */
const dayOf = (stored: unknown) => {
  const ms = storedInstant(stored as string | null)
  return ms === null ? '' : zonedDate(ms, shopTimeZone())
}

export function couponsPage(c: Context<AdminEnv>, coupons: Record<string, unknown>[]) {
  const back = '/admin/coupons'
  const now = Date.now()
  const units = (amount: unknown) => money(paise(Number(amount)), baseCurrency())
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
          { header: 'State', cell: (k) => couponState(k, now) },
          {
            header: <span className="skip">Change</span>,
            cell: (k) => (
              <>
                <PostForm
                  needs="money"
                  action={`/admin/api/coupons/${String(k.code)}`}
                  back={back}
                  label={k.is_active ? 'Disable' : 'Enable'}
                  formKey="switch"
                >
                  <input type="hidden" name="is_active" value={k.is_active ? 'false' : 'true'} />
                </PostForm>
                <Unfold
                  needs="money"
                  summary="Edit"
                  action={`/admin/api/coupons/${String(k.code)}`}
                  back={back}
                  label="Save coupon"
                  formKey="edit"
                >
                  {k.kind === 'percent' ? (
                    <Field
                      label="Percent off"
                      name="amount"
                      inputMode="decimal"
                      defaultValue={String(k.amount)}
                    />
                  ) : (
                    <MoneyInput label="Amount off" name="amount" minorValue={paise(Number(k.amount))} />
                  )}
                  <MoneyInput
                    label="Minimum subtotal"
                    name="min_subtotal"
                    minorValue={paise(Number(k.min_subtotal))}
                  />
                  <Field
                    label={`Starts (${shopTimeZone()})`}
                    type="date"
                    name="starts_at"
                    defaultValue={dayOf(k.starts_at)}
                  />
                  <Field
                    label={`Expires after (${shopTimeZone()})`}
                    type="date"
                    name="expires_at"
                    defaultValue={dayOf(k.expires_at)}
                  />
                  <Field label="Label" name="label" defaultValue={String(k.label ?? '')} />
                  <Field
                    label="Per shopper"
                    name="per_customer_limit"
                    inputMode="numeric"
                    defaultValue={k.per_customer_limit ? String(k.per_customer_limit) : ''}
                  />
                  <Field
                    label="In all"
                    name="total_limit"
                    inputMode="numeric"
                    defaultValue={k.total_limit ? String(k.total_limit) : ''}
                  />
                </Unfold>
              </>
            ),
          },
        ]}
      />
      <section className="card">
        <h2>New coupon</h2>
        <PostForm needs="money" action="/admin/api/coupons" back={back} label="Create coupon">
          <Field label="Code" name="code" required />
          <Choice label="Kind" name="kind" options={['percent', 'fixed']} />
          <MoneyInput label="Amount (percent off, or rupees off)" name="amount" required />
          <MoneyInput label="Minimum subtotal (blank: none)" name="min_subtotal" />
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
