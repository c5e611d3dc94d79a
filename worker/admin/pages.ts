/**
 * The back office's pages: plain server-rendered HTML (every value escaped by hono/html), forms
 * that post with the operator's CSRF token and work without script, a layout that fits a phone and
 * is usable with the keyboard (skip link, labels, visible focus). Nothing here is part of the shop's
 * pages or bundles.
 */
import { ORDER_STATUS_LABELS, type OrderStatus } from '@shared/config/order-status'
import { formatPrice } from '@shared/domain/currency'
import type { Context } from 'hono'
import { html, raw } from 'hono/html'
import type { HtmlEscapedString } from 'hono/utils/html'
import type { AuditRow } from './audit'
import type { Dashboard } from './dashboard'
import type { AdminEnv } from './env'
import { type OrderDetail, type OrderFilter, type OrderListRow, PAGE_SIZE } from './orders'
import type { PendingReview } from './reviews'

type Html = HtmlEscapedString | Promise<HtmlEscapedString>

const CSS = `
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,sans-serif;color:#1d1d1f;background:#f6f6f7}
a{color:#0b57d0}:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:8px}
header{background:#1d1d1f;color:#fff;padding:8px 16px;display:flex;flex-wrap:wrap;gap:12px;align-items:center}
header a{color:#fff}nav ul{display:flex;flex-wrap:wrap;gap:12px;list-style:none;margin:0;padding:0}
main{padding:16px;max-width:1100px;margin:auto}table{border-collapse:collapse;width:100%;background:#fff}
th,td{text-align:left;padding:6px 8px;border-bottom:1px solid #ddd;vertical-align:top}
.scroll{overflow-x:auto}form.inline{display:inline-flex;flex-wrap:wrap;gap:6px;align-items:end;margin:4px 0}
label{display:flex;flex-direction:column;font-size:13px}input,select,textarea,button{font:inherit;padding:6px;min-height:40px}
button{cursor:pointer;background:#0b57d0;color:#fff;border:0;border-radius:4px;padding:6px 12px}
button.danger{background:#b3261e}.card{background:#fff;padding:12px;margin:12px 0;border-radius:6px}
.figures{display:grid;grid-template-columns:repeat(auto-fit,minmax(160px,1fr));gap:12px}
.who{margin-left:auto;font-size:13px}`

/** The page frame: head (noindex, the admin stylesheet with this request's nonce), header, main. */
function layout(c: Context<AdminEnv>, title: string, body: Html): Html {
  const op = c.var.operator
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex,nofollow"><title>${title} — Back office</title>
<style nonce="${c.var.nonce}">${raw(CSS)}</style></head>
<body><a class="skip" href="#main">Skip to content</a>
<header><strong>Back office</strong>${
    op
      ? html`<nav aria-label="Back office"><ul>
<li><a href="/admin">Dashboard</a></li><li><a href="/admin/orders">Orders</a></li>
<li><a href="/admin/reviews">Reviews</a></li><li><a href="/admin/audit">Audit log</a></li></ul></nav>
<span class="who">${op.email} (${op.role})${
          op.via === 'session'
            ? html` <form class="inline" method="post" action="/admin/logout"><input type="hidden" name="_csrf" value="${c.var.csrf}"><button>Sign out</button></form>`
            : ''
        }</span>`
      : ''
  }</header>
<main id="main"><h1>${title}</h1>${body}</main></body></html>`
}

const money = (minor: number | null, currency: string) =>
  formatPrice((minor ?? 0) / 100, currency, { convert: false })
const statusLabel = (s: string) => ORDER_STATUS_LABELS[s as OrderStatus] ?? s
const csrfField = (c: Context<AdminEnv>) => html`<input type="hidden" name="_csrf" value="${c.var.csrf}">`

export function loginPage(message?: string): Html {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex,nofollow"><title>Operator sign-in — Back office</title></head>
<body><main id="main"><h1>Operator sign-in</h1>${message ? html`<p role="alert">${message}</p>` : ''}
<form method="post" action="/admin/login">
<label>E-mail <input type="email" name="email" autocomplete="username" required></label>
<label>Password <input type="password" name="password" autocomplete="current-password" required></label>
<button>Sign in</button></form></main></body></html>`
}

export function dashboardPage(c: Context<AdminEnv>, d: Dashboard): Html {
  return layout(
    c,
    'Dashboard',
    html`<div class="figures">
<div class="card"><h2>Orders today</h2><p>${d.ordersToday}</p></div>
<div class="card"><h2>Revenue today</h2>${d.revenueToday.length ? d.revenueToday.map((r) => html`<p>${money(r.minor, r.currency)}</p>`) : html`<p>${money(0, 'INR')}</p>`}</div>
<div class="card"><h2>Pending payments</h2><p><a href="/admin/orders?status=pending_payment">${d.pendingPayments}</a></p></div></div>
<div class="card"><h2>Low stock</h2>${
      d.lowStock.length
        ? html`<ul>${d.lowStock.map((s) => html`<li>${s.sku}: ${s.qty}</li>`)}</ul>`
        : html`<p>Nothing is low.</p>`
    }</div>`,
  )
}

export function ordersPage(
  c: Context<AdminEnv>,
  f: OrderFilter,
  list: { rows: OrderListRow[]; total: number },
): Html {
  const pages = Math.max(1, Math.ceil(list.total / PAGE_SIZE))
  const qs = (page: number) => {
    const p = new URLSearchParams()
    for (const [k, v] of Object.entries({ ...f, page })) if (v !== undefined && v !== '') p.set(k, String(v))
    return p.toString()
  }
  return layout(
    c,
    'Orders',
    html`<form class="inline" method="get" action="/admin/orders" role="search">
<label>Search <input name="q" value="${f.q ?? ''}" placeholder="number, e-mail, phone, SKU"></label>
<label>Status <input name="status" value="${f.status ?? ''}" list="statuses"></label>
<datalist id="statuses">${Object.keys(ORDER_STATUS_LABELS).map((s) => html`<option value="${s}"></option>`)}</datalist>
<label>Payment <input name="payment" value="${f.payment ?? ''}"></label>
<label>From <input type="date" name="from" value="${f.from ?? ''}"></label>
<label>To <input type="date" name="to" value="${f.to ?? ''}"></label>
<button>Filter</button></form>
<p>${list.total} orders · <a href="/admin/api/orders.csv?${qs(1)}">Download CSV</a></p>
<div class="scroll"><table><thead><tr><th>Number</th><th>Placed</th><th>E-mail</th><th>Status</th><th>Payment</th><th>Total</th></tr></thead><tbody>
${list.rows.map(
  (
    r,
  ) => html`<tr><td><a href="/admin/orders/${r.increment_id}">${r.increment_id}</a></td><td>${r.created_at}</td>
<td>${r.customer_email}</td><td>${statusLabel(r.status)}</td><td>${r.payment_state}</td><td>${money(r.grand_total_minor, r.currency)}</td></tr>`,
)}</tbody></table></div>
<nav aria-label="Pages"><p>Page ${f.page} of ${pages}
${f.page > 1 ? html` · <a href="/admin/orders?${qs(f.page - 1)}">Previous</a>` : ''}
${f.page < pages ? html` · <a href="/admin/orders?${qs(f.page + 1)}">Next</a>` : ''}</p></nav>`,
  )
}

interface DocItem {
  sku?: string
  name?: string
  qty_ordered?: number
  row_total_incl_tax?: number
  options?: { label: string; value: string }[]
}

export function orderPage(c: Context<AdminEnv>, d: OrderDetail): Html {
  const o = d.order
  const items = (d.doc.items ?? []) as DocItem[]
  const address = (d.doc.billing_address ?? {}) as Record<string, unknown>
  const back = `/admin/orders/${o.increment_id}`
  const form = (action: string, fields: Html, label: string, danger = false) =>
    html`<form class="inline" method="post" action="/admin/api/orders/${o.increment_id}/${action}">${csrfField(c)}
<input type="hidden" name="return_to" value="${back}">${fields}<button${danger ? raw(' class="danger"') : ''}>${label}</button></form>`
  const move = (to: string, label: string, fields: Html = html``, danger = false) =>
    d.next.includes(to as OrderStatus)
      ? form('transition', html`<input type="hidden" name="to" value="${to}">${fields}`, label, danger)
      : ''
  return layout(
    c,
    `Order ${o.increment_id}`,
    html`<div class="card"><p>Status: <strong>${statusLabel(o.status)}</strong> · payment ${o.payment_state} ·
${money(o.grand_total_minor, o.currency)} (paid ${money(o.paid_minor, o.currency)}, refunded ${money(o.refunded_minor, o.currency)}) · ${o.customer_email}</p>
${o.status === 'pending' ? move('processing', 'Confirm (cash on delivery)') : ''}
${move('packed', 'Mark packed')}
${move('shipped', 'Mark shipped', html`<label>Carrier <input name="carrier" required></label><label>Tracking number <input name="tracking_number" required></label>`)}
${move('delivered', 'Mark delivered')}
${move('canceled', 'Cancel order', html`<label>Reason <input name="reason" required></label>`, true)}
${o.paid_minor > o.refunded_minor ? form('refund', html`<label>Amount (minor units) <input name="amount_minor" inputmode="numeric" required></label><label>Reason <input name="reason" required></label>`, 'Refund') : ''}
</div>
<div class="card"><h2>Items</h2><ul>${items.map(
      (it) =>
        html`<li>${it.qty_ordered ?? 1} × ${it.name ?? it.sku} (${it.sku})${
          it.options?.length
            ? html`<ul>${it.options.map((op) => html`<li>${op.label}: ${op.value}</li>`)}</ul>`
            : ''
        }</li>`,
    )}</ul></div>
<div class="card"><h2>Address</h2><p>${[address.firstname, address.lastname].filter(Boolean).join(' ')}<br>
${((address.street as string[] | undefined) ?? []).filter(Boolean).join(', ')}<br>${String(address.postcode ?? '')} ${String(address.city ?? '')} ${String(address.country_id ?? '')}<br>
${String(address.telephone ?? '')}</p></div>
<div class="card"><h2>History</h2><div class="scroll"><table><thead><tr><th>When</th><th>What</th><th>Who</th><th>Detail</th></tr></thead><tbody>
${d.events.map(
  (e) =>
    html`<tr><td>${e.created_at}</td><td>${e.kind}${e.to_status ? html` → ${statusLabel(e.to_status)}` : ''}</td><td>${e.actor}</td><td>${e.detail}</td></tr>`,
)}</tbody></table></div>
${form('note', html`<label>Internal note <textarea name="text" required maxlength="2000"></textarea></label>`, 'Add note')}</div>`,
  )
}

export function reviewsPage(c: Context<AdminEnv>, reviews: PendingReview[]): Html {
  return layout(
    c,
    'Reviews to moderate',
    reviews.length
      ? html`${reviews.map(
          (
            r,
          ) => html`<article class="card" aria-labelledby="review-${r.id}"><h2 id="review-${r.id}">${r.title}</h2>
<p>${r.nickname} on ${r.product_name ?? r.sku ?? `product ${r.product_id}`} · ${r.created_at}</p><p>${r.detail}</p>
${(['approve', 'reject'] as const).map(
  (d) => html`<form class="inline" method="post" action="/admin/api/reviews/${r.id}/${d}">${csrfField(c)}
<input type="hidden" name="return_to" value="/admin/reviews"><button${d === 'reject' ? raw(' class="danger"') : ''} aria-label="${d === 'approve' ? 'Approve' : 'Reject'} review ${r.title}">${d === 'approve' ? 'Approve' : 'Reject'}</button></form>`,
)}</article>`,
        )}`
      : html`<p>No review is waiting.</p>`,
  )
}

export function auditPage(c: Context<AdminEnv>, rows: AuditRow[]): Html {
  return layout(
    c,
    'Audit log',
    html`<div class="scroll"><table><thead><tr><th>When</th><th>Who</th><th>What</th><th>Record</th><th>Before</th><th>After</th></tr></thead><tbody>
${rows.map(
  (r) =>
    html`<tr><td>${r.created_at}</td><td>${r.actor}</td><td>${r.action}</td><td>${r.target}</td><td>${r.before ?? ''}</td><td>${r.after ?? ''}</td></tr>`,
)}</tbody></table></div>`,
  )
}
