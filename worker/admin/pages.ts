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
<li><a href="/admin/reviews">Reviews</a></li><li><a href="/admin/products">Catalogue</a></li>
<li><a href="/admin/customers">Customers</a></li><li><a href="/admin/coupons">Coupons</a></li><li><a href="/admin/content">Content</a></li>
<li><a href="/admin/operations">Operations</a></li><li><a href="/admin/audit">Audit log</a></li></ul></nav>
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

/** A form posting to the admin API with the CSRF token, returning to `back`. */
function postForm(c: Context<AdminEnv>, action: string, back: string, fields: Html, label: string): Html {
  return html`<form class="inline" method="post" action="${action}">${csrfField(c)}<input type="hidden" name="return_to" value="${back}">${fields}<button>${label}</button></form>`
}

interface ProductHit {
  id: number
  sku: string
  name: string
  status: number
  visibility: number
  price: number
  final_price: number | null
  stock: { sku: string; qty: number; is_in_stock: number }[]
}

export function productsPage(c: Context<AdminEnv>, q: string, hits: ProductHit[]): Html {
  const back = `/admin/products?q=${encodeURIComponent(q)}`
  return layout(
    c,
    'Catalogue',
    html`<form class="inline" method="get" role="search"><label>SKU or name <input name="q" value="${q}" required></label><button>Search</button></form>
${hits.map(
  (p) => html`<section class="card" aria-labelledby="p-${p.id}"><h2 id="p-${p.id}">${p.name} (${p.sku})</h2>
<p>Price ${money(Math.round(p.price * 100), 'INR')} · charged now ${money(Math.round((p.final_price ?? p.price) * 100), 'INR')} · status ${p.status === 1 ? 'enabled' : 'disabled'} · visibility ${p.visibility}</p>
${postForm(
  c,
  `/admin/api/products/${p.id}/form`,
  back,
  html`<label>Price <input name="price" inputmode="decimal" value="${p.price}"></label>
<label>Special price <input name="special_price" inputmode="decimal" placeholder="none"></label>
<label>From <input type="date" name="special_from_date"></label><label>To <input type="date" name="special_to_date"></label>
<label>Status <select name="status"><option value="1"${p.status === 1 ? raw(' selected') : ''}>enabled</option><option value="2"${p.status === 2 ? raw(' selected') : ''}>disabled</option></select></label>
<label>Visibility <select name="visibility">${[1, 2, 3, 4].map((v) => html`<option value="${v}"${p.visibility === v ? raw(' selected') : ''}>${v}</option>`)}</select></label>`,
  'Save product',
)}
<div class="scroll"><table><thead><tr><th>SKU</th><th>Stock</th></tr></thead><tbody>${p.stock.map(
    (s) =>
      html`<tr><td>${s.sku}</td><td>${postForm(
        c,
        `/admin/api/stock/${encodeURIComponent(s.sku)}`,
        back,
        html`<label>Units of ${s.sku} <input name="qty" inputmode="numeric" value="${s.qty}"></label><input type="hidden" name="is_in_stock" value="false"><label>In stock <input type="checkbox" name="is_in_stock" value="true"${s.is_in_stock ? raw(' checked') : ''}></label>`,
        'Set stock',
      )}</td></tr>`,
  )}</tbody></table></div></section>`,
)}`,
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

export function customersPage(c: Context<AdminEnv>, email: string, found: CustomerView | null): Html {
  const back = `/admin/customers?email=${encodeURIComponent(email)}`
  return layout(
    c,
    'Customers',
    html`<form class="inline" method="get" role="search"><label>E-mail <input type="email" name="email" value="${email}" required></label><button>Look up</button></form>
${
  found
    ? html`<section class="card"><h2>${found.customer.firstname} ${found.customer.lastname} — ${found.customer.email}</h2>
<p>Store credit: ${money(found.customer.credit_minor, 'INR')} · account ${found.customer.disabled_at ? `disabled since ${found.customer.disabled_at}` : 'active'}</p>
${postForm(
  c,
  `/admin/api/customers/${found.customer.id}/disabled`,
  back,
  html`<input type="hidden" name="disabled" value="${found.customer.disabled_at ? 'false' : 'true'}">`,
  found.customer.disabled_at ? 'Enable account' : 'Disable account',
)}
${postForm(
  c,
  `/admin/api/customers/${found.customer.id}/credit`,
  back,
  html`<label>Amount in paise (negative revokes) <input name="amount_minor" inputmode="numeric" required></label><label>Why <input name="comment" required></label>`,
  'Change credit',
)}
<h3>Orders</h3><ul>${(found.orders as { increment_id: string; status: string }[]).map(
        (o) =>
          html`<li><a href="/admin/orders/${o.increment_id}">${o.increment_id}</a> ${statusLabel(o.status)}</li>`,
      )}</ul>
<h3>Credit ledger</h3><ul>${(
        found.ledger as {
          amount_minor: number
          balance_after_minor: number
          comment: string
          created_at: string
        }[]
      ).map(
        (l) =>
          html`<li>${l.created_at}: ${money(l.amount_minor, 'INR')} → ${money(l.balance_after_minor, 'INR')} ${l.comment}</li>`,
      )}</ul></section>`
    : ''
}`,
  )
}

export function couponsPage(c: Context<AdminEnv>, coupons: Record<string, unknown>[]): Html {
  const back = '/admin/coupons'
  return layout(
    c,
    'Coupons',
    html`<div class="scroll"><table><thead><tr><th>Code</th><th>Rule</th><th>Limits</th><th>Used</th><th>Active</th><th></th></tr></thead><tbody>
${coupons.map(
  (
    k,
  ) => html`<tr><td>${String(k.code)}</td><td>${k.kind === 'percent' ? `${k.amount}%` : money(Number(k.amount) * 100, 'INR')} from ${money(Number(k.min_subtotal) * 100, 'INR')}; ${String(k.starts_at ?? '…')} – ${String(k.expires_at ?? '…')}</td>
<td>${k.first_order_only ? 'first order; ' : ''}${k.per_customer_limit ? `${k.per_customer_limit} per shopper; ` : ''}${k.total_limit ? `${k.total_limit} in all` : ''}</td><td>${String(k.used)}</td><td>${k.is_active ? 'yes' : 'no'}</td>
<td>${postForm(c, `/admin/api/coupons/${String(k.code)}`, back, html`<input type="hidden" name="is_active" value="${k.is_active ? 'false' : 'true'}">`, k.is_active ? 'Disable' : 'Enable')}</td></tr>`,
)}</tbody></table></div>
<section class="card"><h2>New coupon</h2>${postForm(
      c,
      '/admin/api/coupons',
      back,
      html`<label>Code <input name="code" required></label><label>Kind <select name="kind"><option>percent</option><option>fixed</option></select></label>
<label>Amount <input name="amount" inputmode="decimal" required></label><label>Minimum subtotal <input name="min_subtotal" inputmode="decimal" value="0"></label>
<label>Starts <input type="date" name="starts_at"></label><label>Expires <input type="date" name="expires_at"></label>
<label>Label <input name="label" required></label><label>First order only <input type="checkbox" name="first_order_only" value="true"></label>
<label>Per shopper <input name="per_customer_limit" inputmode="numeric"></label><label>In all <input name="total_limit" inputmode="numeric"></label>`,
      'Create coupon',
    )}</section>`,
  )
}

export function contentPage(
  c: Context<AdminEnv>,
  pages: Record<string, unknown>[],
  blocks: Record<string, unknown>[],
): Html {
  const list = (kind: string, rows: Record<string, unknown>[]) =>
    html`<ul>${rows.map((r) => html`<li><a href="/admin/content/${kind}/${String(r.id)}">${String(r.title ?? r.identifier)}</a> (${String(r.identifier)})${r.is_active ? '' : ' — hidden'}</li>`)}</ul>`
  return layout(
    c,
    'Content',
    html`<section class="card"><h2>Pages</h2>${list('page', pages)}</section><section class="card"><h2>Blocks</h2>${list('block', blocks)}</section>`,
  )
}

export function contentEditPage(
  c: Context<AdminEnv>,
  kind: 'page' | 'block',
  item: { id: number; identifier: string; title: string; content: string; is_active: boolean },
  preview: string,
): Html {
  const back = `/admin/content/${kind}/${item.id}`
  return layout(
    c,
    `Edit ${kind} ${item.identifier}`,
    html`${postForm(
      c,
      `/admin/api/content/${kind}/${item.id}`,
      back,
      html`<label>Title <input name="title" value="${item.title}" required></label>
<label>Content (HTML) <textarea name="content" rows="14" cols="60">${item.content}</textarea></label>
<input type="hidden" name="is_active" value="false"><label>Published <input type="checkbox" name="is_active" value="true"${item.is_active ? raw(' checked') : ''}></label>`,
      'Publish',
    )}
<section class="card" aria-label="Preview"><h2>Preview (as the shop shows it)</h2>${raw(preview)}</section>`,
  )
}

interface OpsView {
  outbox: Record<string, { counts: Record<string, number>; failed: unknown[] }>
}

export function operationsPage(c: Context<AdminEnv>, view: OpsView): Html {
  const back = '/admin/operations'
  return layout(
    c,
    'Operations',
    html`${Object.entries(view.outbox).map(
      ([name, box]) => html`<section class="card"><h2>${name} outbox</h2><p>${
        Object.entries(box.counts)
          .map(([s, n]) => `${s}: ${n}`)
          .join(' · ') || 'empty'
      }</p>
<ul>${(
        box.failed as {
          id: number
          subject?: string
          event_name?: string
          status: string
          provider_response: string | null
        }[]
      ).map(
        (r) =>
          html`<li>#${r.id} ${r.subject ?? r.event_name ?? ''} — ${r.status} (${r.provider_response ?? ''})${postForm(
            c,
            `/admin/api/outbox/${name}/${r.id}/retry`,
            back,
            html``,
            'Retry',
          )}</li>`,
      )}</ul></section>`,
    )}
<section class="card"><h2>Purge cached pages</h2>${postForm(c, '/admin/api/cache/purge', back, html`<label>Tags (comma-separated, e.g. home, P-SKU, C12) <input name="tags" required></label>`, 'Purge')}</section>
<section class="card"><h2>URL redirect</h2>${postForm(
      c,
      '/admin/api/urls/form',
      back,
      html`<label>Old path <input name="path" required></label><label>Redirect to <input name="to" required placeholder="/c/sale"></label>`,
      'Save redirect',
    )}</section>`,
  )
}
