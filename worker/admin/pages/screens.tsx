/**
 * The back office's other screens: dashboard, audit log, reviews, catalogue, customers, coupons,
 * operations and operators.
 */
import { baseCurrency } from '@shared/config/store'
import type { Context } from 'hono'
import type { ReactNode } from 'react'
import type { VitalsRow } from '../../vitals/store'
import type { AuditRow } from '../audit'
import type { Dashboard } from '../dashboard'
import type { AdminEnv } from '../env'
import type { OperatorRow } from '../operators'
import type { PendingReview } from '../reviews'
import { ROLES } from '../roles'
import { Field, money, PostForm, renderAdmin, statusLabel } from './frame'

export function dashboardPage(c: Context<AdminEnv>, d: Dashboard) {
  return renderAdmin(
    c,
    'Dashboard',
    <>
      <div className="figures">
        <div className="card">
          <h2>Orders today</h2>
          <p>{d.ordersToday}</p>
        </div>
        <div className="card">
          <h2>Revenue today</h2>
          {d.revenueToday.length ? (
            d.revenueToday.map((r) => <p key={r.currency}>{money(r.minor, r.currency)}</p>)
          ) : (
            <p>{money(0, baseCurrency())}</p>
          )}
        </div>
        <div className="card">
          <h2>Pending payments</h2>
          <p>
            <a href="/admin/orders?status=pending_payment">{d.pendingPayments}</a>
          </p>
        </div>
      </div>
      <div className="card">
        <h2>Low stock</h2>
        {d.lowStock.length ? (
          <ul>
            {d.lowStock.map((s) => (
              <li key={s.sku}>
                {s.sku}: {s.qty}
              </li>
            ))}
          </ul>
        ) : (
          <p>Nothing is low.</p>
        )}
      </div>
    </>,
  )
}

export function auditPage(c: Context<AdminEnv>, rows: AuditRow[]) {
  return renderAdmin(
    c,
    'Audit log',
    <div className="scroll">
      <table>
        <thead>
          <tr>
            <th>When</th>
            <th>Who</th>
            <th>What</th>
            <th>Record</th>
            <th>Before</th>
            <th>After</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id}>
              <td>{r.created_at}</td>
              <td>{r.actor}</td>
              <td>{r.action}</td>
              <td>{r.target}</td>
              <td>{r.before ?? ''}</td>
              <td>{r.after ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>,
  )
}

/**
 * Deleting a review takes two steps without script: "Delete…" opens the real button, which says
 * what it removes. The route behind it checks the operator's role and CSRF token like the other
 * moderation buttons and recomputes the product's rating.
 */
function DeleteReview(props: { review: PendingReview }) {
  const r = props.review
  return (
    <details>
      <summary aria-label={`Delete review ${r.title}…`}>Delete…</summary>
      <p>This removes the review for good and recomputes the product's rating.</p>
      <PostForm
        action={`/admin/api/reviews/${r.id}/delete`}
        back="/admin/reviews"
        label="Delete for good"
        buttonLabel={`Delete review ${r.title} for good`}
        danger
      />
    </details>
  )
}

function ReviewCard(props: { review: PendingReview; children?: ReactNode }) {
  const r = props.review
  return (
    <article className="card" aria-labelledby={`review-${r.id}`}>
      <h3 id={`review-${r.id}`}>{r.title}</h3>
      <p>
        {r.nickname} on {r.product_name ?? r.sku ?? `product ${r.product_id}`} · {r.created_at}
      </p>
      <p>{r.detail}</p>
      {props.children}
      <DeleteReview review={r} />
    </article>
  )
}

export function reviewsPage(c: Context<AdminEnv>, reviews: PendingReview[], published: PendingReview[]) {
  return renderAdmin(
    c,
    'Reviews to moderate',
    <>
      <section aria-labelledby="reviews-waiting">
        <h2 id="reviews-waiting">Waiting</h2>
        {reviews.length ? (
          reviews.map((r) => (
            <ReviewCard key={r.id} review={r}>
              <PostForm
                action={`/admin/api/reviews/${r.id}/approve`}
                back="/admin/reviews"
                label="Approve"
                buttonLabel={`Approve review ${r.title}`}
              />
              <PostForm
                action={`/admin/api/reviews/${r.id}/reject`}
                back="/admin/reviews"
                label="Reject"
                buttonLabel={`Reject review ${r.title}`}
                danger
              />
            </ReviewCard>
          ))
        ) : (
          <p>No review is waiting.</p>
        )}
      </section>
      <section aria-labelledby="reviews-published">
        <h2 id="reviews-published">Published (newest first)</h2>
        {published.length ? (
          published.map((r) => <ReviewCard key={r.id} review={r} />)
        ) : (
          <p>No review is published.</p>
        )}
      </section>
    </>,
  )
}

interface ProductHit {
  id: number
  sku: string
  name: string
  status: number
  visibility: number
  price: number
  final_price: number | null
  special_price: number | null
  stock: { sku: string; qty: number; is_in_stock: number }[]
}

export function productsPage(c: Context<AdminEnv>, q: string, hits: ProductHit[]) {
  const back = `/admin/products?q=${encodeURIComponent(q)}`
  const minor = (amount: number) => Math.round(amount * 100)
  return renderAdmin(
    c,
    'Catalogue',
    <>
      <search>
        <form className="inline" method="get">
          <Field label="SKU or name" name="q" defaultValue={q} required />
          <button type="submit">Search</button>
        </form>
      </search>
      {hits.map((p) => (
        <section key={p.id} className="card" aria-labelledby={`p-${p.id}`}>
          <h2 id={`p-${p.id}`}>
            {p.name} ({p.sku})
          </h2>
          <p>
            Price {money(minor(p.price), baseCurrency())} · charged now{' '}
            {money(minor(p.final_price ?? p.price), baseCurrency())} · status{' '}
            {p.status === 1 ? 'enabled' : 'disabled'} · visibility {p.visibility}
          </p>
          <PostForm action={`/admin/api/products/${p.id}/form`} back={back} label="Save product">
            <Field label="Price" name="price" inputMode="decimal" defaultValue={p.price} />
            <Field
              label="Special price"
              name="special_price"
              inputMode="decimal"
              placeholder="none"
              defaultValue={p.special_price ?? undefined}
            />
            <label>
              <input type="checkbox" name="remove_special_price" /> Remove the special price
            </label>
            <Field label="From" type="date" name="special_from_date" />
            <Field label="To" type="date" name="special_to_date" />
            <label>
              Status{' '}
              <select name="status" defaultValue={String(p.status)}>
                <option value="1">enabled</option>
                <option value="2">disabled</option>
              </select>
            </label>
            <label>
              Visibility{' '}
              <select name="visibility" defaultValue={String(p.visibility)}>
                {[1, 2, 3, 4].map((v) => (
                  <option key={v} value={v}>
                    {v}
                  </option>
                ))}
              </select>
            </label>
          </PostForm>
          <div className="scroll">
            <table>
              <thead>
                <tr>
                  <th>SKU</th>
                  <th>Stock</th>
                </tr>
              </thead>
              <tbody>
                {p.stock.map((s) => (
                  <tr key={s.sku}>
                    <td>{s.sku}</td>
                    <td>
                      <PostForm
                        action={`/admin/api/stock/${encodeURIComponent(s.sku)}`}
                        back={back}
                        label="Set stock"
                      >
                        <label>
                          Units of {s.sku} <input name="qty" inputMode="numeric" defaultValue={s.qty} />
                        </label>
                        <input type="hidden" name="is_in_stock" value="false" />
                        <label>
                          In stock{' '}
                          <input
                            type="checkbox"
                            name="is_in_stock"
                            value="true"
                            defaultChecked={!!s.is_in_stock}
                          />
                        </label>
                      </PostForm>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      ))}
    </>,
  )
}

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
            {who.disabled_at ? `disabled since ${who.disabled_at}` : 'active'}
          </p>
          <PostForm
            action={`/admin/api/customers/${who.id}/disabled`}
            back={back}
            label={who.disabled_at ? 'Enable account' : 'Disable account'}
          >
            <input type="hidden" name="disabled" value={who.disabled_at ? 'false' : 'true'} />
          </PostForm>
          <PostForm action={`/admin/api/customers/${who.id}/credit`} back={back} label="Change credit">
            <label>
              Amount in minor units, e.g. paise or cents (negative revokes){' '}
              <input name="amount_minor" inputMode="numeric" required />
            </label>
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
                {l.created_at}: {money(l.amount_minor, baseCurrency())} →{' '}
                {money(l.balance_after_minor, baseCurrency())} {l.comment}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>,
  )
}

export function couponsPage(c: Context<AdminEnv>, coupons: Record<string, unknown>[]) {
  const back = '/admin/coupons'
  const units = (amount: unknown) => money(Math.round(Number(amount) * 100), baseCurrency())
  return renderAdmin(
    c,
    'Coupons',
    <>
      <div className="scroll">
        <table>
          <thead>
            <tr>
              <th>Code</th>
              <th>Rule</th>
              <th>Limits</th>
              <th>Used</th>
              <th>Active</th>
              <th>
                <span className="skip">Change</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {coupons.map((k) => (
              <tr key={String(k.code)}>
                <td>{String(k.code)}</td>
                <td>
                  {k.kind === 'percent' ? `${k.amount}%` : units(k.amount)} from {units(k.min_subtotal)};{' '}
                  {String(k.starts_at ?? '…')} – {String(k.expires_at ?? '…')}
                </td>
                <td>
                  {k.first_order_only ? 'first order; ' : ''}
                  {k.per_customer_limit ? `${k.per_customer_limit} per shopper; ` : ''}
                  {k.total_limit ? `${k.total_limit} in all` : ''}
                </td>
                <td>{String(k.used)}</td>
                <td>{k.is_active ? 'yes' : 'no'}</td>
                <td>
                  <PostForm
                    action={`/admin/api/coupons/${String(k.code)}`}
                    back={back}
                    label={k.is_active ? 'Disable' : 'Enable'}
                  >
                    <input type="hidden" name="is_active" value={k.is_active ? 'false' : 'true'} />
                  </PostForm>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <section className="card">
        <h2>New coupon</h2>
        <PostForm action="/admin/api/coupons" back={back} label="Create coupon">
          <Field label="Code" name="code" required />
          <label>
            Kind{' '}
            <select name="kind">
              <option>percent</option>
              <option>fixed</option>
            </select>
          </label>
          <Field label="Amount" name="amount" inputMode="decimal" required />
          <Field label="Minimum subtotal" name="min_subtotal" inputMode="decimal" defaultValue="0" />
          <Field label="Starts" type="date" name="starts_at" />
          <Field label="Expires" type="date" name="expires_at" />
          <Field label="Label" name="label" required />
          <Field label="First order only" type="checkbox" name="first_order_only" value="true" />
          <Field label="Per shopper" name="per_customer_limit" inputMode="numeric" />
          <Field label="In all" name="total_limit" inputMode="numeric" />
        </PostForm>
      </section>
    </>,
  )
}

interface FailedRow {
  id: number
  subject?: string
  event_name?: string
  status: string
  provider_response: string | null
}

export function operationsPage(
  c: Context<AdminEnv>,
  view: { outbox: Record<string, { box: string; counts: Record<string, number>; failed: unknown[] }> },
) {
  const back = '/admin/operations'
  return renderAdmin(
    c,
    'Operations',
    <>
      {Object.entries(view.outbox).map(([name, box]) => (
        <section key={name} className="card">
          <h2>{name} outbox</h2>
          <p>
            {Object.entries(box.counts)
              .map(([s, n]) => `${s}: ${n}`)
              .join(' · ') || 'empty'}
          </p>
          <ul>
            {(box.failed as FailedRow[]).map((r) => (
              <li key={r.id}>
                #{r.id} {r.subject ?? r.event_name ?? ''} — {r.status} ({r.provider_response ?? ''})
                <PostForm
                  action={`/admin/api/outbox/${box.box}/${r.id}/retry`}
                  back={back}
                  label="Retry"
                  buttonLabel={`Retry ${name} ${r.id}`}
                />
              </li>
            ))}
          </ul>
        </section>
      ))}
      <section className="card">
        <h2>Purge cached pages</h2>
        <PostForm action="/admin/api/cache/purge" back={back} label="Purge">
          <Field label="Tags (comma-separated, e.g. home, P-SKU, C12)" name="tags" required />
        </PostForm>
      </section>
      <section className="card">
        <h2>URL redirect</h2>
        <PostForm action="/admin/api/urls/form" back={back} label="Save redirect">
          <Field label="Old path" name="path" required />
          <Field label="Redirect to" name="to" required placeholder="/c/sale" />
        </PostForm>
      </section>
    </>,
  )
}

export function operatorsPage(c: Context<AdminEnv>, operators: OperatorRow[]) {
  const back = '/admin/operators'
  const me = c.var.operator.email.toLowerCase()
  return renderAdmin(
    c,
    'Operators',
    <>
      <div className="scroll">
        <table>
          <thead>
            <tr>
              <th>E-mail</th>
              <th>Role</th>
              <th>State</th>
              <th>Since</th>
              <th>
                <span className="skip">Change</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {operators.map((o) => (
              <tr key={o.id}>
                <td>{o.email}</td>
                <td>{o.role}</td>
                <td>
                  {o.disabled_at ? `disabled since ${o.disabled_at}` : 'active'}
                  {o.local_sign_in ? '' : ' (Access only)'}
                </td>
                <td>{o.created_at}</td>
                <td>
                  {o.email.toLowerCase() === me ? (
                    'you'
                  ) : (
                    <>
                      <PostForm
                        action={`/admin/api/operators/${o.id}`}
                        back={back}
                        label="Change role"
                        buttonLabel={`Change role of ${o.email}`}
                      >
                        <label>
                          Role of {o.email}{' '}
                          <select name="role" defaultValue={o.role}>
                            {ROLES.map((r) => (
                              <option key={r}>{r}</option>
                            ))}
                          </select>
                        </label>
                      </PostForm>
                      <PostForm
                        action={`/admin/api/operators/${o.id}`}
                        back={back}
                        label={o.disabled_at ? 'Enable' : 'Disable'}
                        buttonLabel={`${o.disabled_at ? 'Enable' : 'Disable'} ${o.email}`}
                        danger={!o.disabled_at}
                      >
                        <input type="hidden" name="disabled" value={o.disabled_at ? 'false' : 'true'} />
                      </PostForm>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <section className="card">
        <h2>New operator</h2>
        <p>
          Behind Cloudflare Access the e-mail is the identity and no password is needed; the password is only
          for the local sign-in.
        </p>
        <PostForm action="/admin/api/operators" back={back} label="Add operator">
          <Field label="E-mail" type="email" name="email" required />
          <label>
            Role{' '}
            <select name="role" defaultValue="staff">
              {ROLES.map((r) => (
                <option key={r}>{r}</option>
              ))}
            </select>
          </label>
          <label>
            Password (12+ characters, optional){' '}
            <input type="password" name="password" autoComplete="new-password" />
          </label>
        </PostForm>
      </section>
    </>,
  )
}

/** Good / needs-improvement limits of each metric (ms; CLS unitless), as Core Web Vitals assess a p75. */
const VITAL_THRESHOLDS: Record<string, [number, number]> = {
  LCP: [2500, 4000],
  INP: [200, 500],
  CLS: [0.1, 0.25],
  TTFB: [800, 1800],
}

export function fieldDataPage(
  c: Context<AdminEnv>,
  data: { source: string; rows: VitalsRow[] } | { source: string; failed: string },
) {
  const verdict = (metric: string, p75: number) => {
    const [good, poor] = VITAL_THRESHOLDS[metric] ?? [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY]
    return p75 <= good ? 'good' : p75 <= poor ? 'needs improvement' : 'poor'
  }
  const shown = (metric: string, p75: number) => (metric === 'CLS' ? p75.toFixed(3) : `${Math.round(p75)} ms`)
  return renderAdmin(
    c,
    'Field data',
    <>
      <p>
        The 75th percentile of what real visits measured (a sample of page views), per page type and day, from{' '}
        {data.source === 'd1' ? 'the local store' : 'Workers Analytics Engine'}.
      </p>
      {'failed' in data ? (
        <p role="alert">Field data cannot be read: {data.failed}.</p>
      ) : data.rows.length ? (
        <div className="scroll">
          <table>
            <thead>
              <tr>
                <th>Day</th>
                <th>Page type</th>
                <th>Metric</th>
                <th>p75</th>
                <th>Assessment</th>
                <th>Samples</th>
              </tr>
            </thead>
            <tbody>
              {data.rows.map((r) => (
                <tr key={`${r.day}-${r.page}-${r.metric}`}>
                  <td>{r.day}</td>
                  <td>{r.page}</td>
                  <td>{r.metric}</td>
                  <td>{shown(r.metric, r.p75)}</td>
                  <td>{verdict(r.metric, r.p75)}</td>
                  <td>{r.samples}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p>No visit has reported yet.</p>
      )}
    </>,
  )
}
