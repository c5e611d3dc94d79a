/** The reports: the dashboard's figures and the field data (Core Web Vitals of real visits). */
import { baseCurrency } from '@shared/config/store'
import type { Context } from 'hono'
import type { VitalsRow } from '../../vitals/store'
import type { Dashboard } from '../dashboard'
import type { AdminEnv } from '../env'
import { money, Table } from './components'
import { renderAdmin } from './frame'

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
        <div className="card">
          <h2>COD to confirm</h2>
          <p>
            <a href="/admin/orders?status=pending">{d.codToConfirm.toLocaleString('en-IN')}</a>
          </p>
        </div>
        <div className="card" data-testid="cart-reminders">
          <h2>Cart reminders (30 days)</h2>
          <p>
            {d.reminders.reminders.toLocaleString('en-IN')} sent for{' '}
            {d.reminders.carts.toLocaleString('en-IN')} carts · {d.reminders.clicked.toLocaleString('en-IN')}{' '}
            links followed · {d.reminders.ordered.toLocaleString('en-IN')} carts ordered
          </p>
        </div>
      </div>
      <div className="card">
        <h2>Low stock</h2>
        {d.lowStock.length ? (
          <ul>
            {d.lowStock.map((s) => (
              <li key={s.sku}>
                <a href={`/admin/products?q=${encodeURIComponent(s.product_sku)}`}>{s.name}</a>
                {s.sku !== s.product_sku ? ` (${s.sku})` : ''}: {s.qty} left
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
        <Table
          rows={data.rows}
          rowKey={(r) => `${r.day}-${r.page}-${r.metric}`}
          columns={[
            { header: 'Day', cell: (r) => r.day },
            { header: 'Page type', cell: (r) => r.page },
            { header: 'Metric', cell: (r) => r.metric },
            { header: 'p75', cell: (r) => shown(r.metric, r.p75) },
            { header: 'Assessment', cell: (r) => verdict(r.metric, r.p75) },
            { header: 'Samples', cell: (r) => r.samples },
          ]}
        />
      ) : (
        <p>No visit has reported yet.</p>
      )}
    </>,
  )
}
