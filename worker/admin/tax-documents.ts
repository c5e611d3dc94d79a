/**
 * The back office's tax documents: an order's stored invoice and credit notes, its packing slip,
 * issuing an invoice an invoiceable order lacks (an order paid before the seller was configured),
 * and the month's GST reports (GSTR-1 sections and the sales register as CSV). Mounted on the
 * back office after its sign-in, so every route needs an operator; issuing needs the 'orders' role.
 */
import { istMonth } from '@shared/domain/gst'
import { type Context, Hono } from 'hono'
import { z } from 'zod'
import { findOrderByAnyId } from '../api/order/repo'
import { GSTR1_SECTIONS, gstr1Section, tableCsv } from '../documents/gstr1'
import { INVOICEABLE_SQL, invoiceStatements } from '../documents/issue'
import { monthSummary, salesRegister } from '../documents/reports'
import { readSellerConfig } from '../documents/seller'
import { documentFileName, withStyleNonce } from '../documents/stored'
import { describeIssues, fail } from '../platform/http'
import { orderAudit } from './audit'
import type { AdminEnv } from './env'
import { answer } from './input'
import { orderDetail } from './orders'
import { gstReportsPage } from './pages/gst-reports'
import { packingSlipPage } from './pages/order-documents'
import { can } from './roles'

/** The first month GST returns exist for (July 2017) up to next month: anything else is a typo. */
const MonthSchema = z
  .string({ error: 'month is required' })
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'month must be YYYY-MM')
  .refine((m) => m >= '2017-07' && m <= istMonth(Date.now() + 31 * 86_400_000), 'month is out of range')

const ReportQuery = z.object({ month: MonthSchema, section: z.enum(GSTR1_SECTIONS).optional() })

function monthOf(c: Context<AdminEnv>, fallback: string | null) {
  const raw = c.req.query('month') ?? fallback
  const parsed = ReportQuery.safeParse({ month: raw, section: c.req.query('section') || undefined })
  if (!parsed.success) return fail(400, `Invalid report: ${describeIssues(parsed.error)}`)
  return parsed.data
}

const orderNumberOf = (c: Context<AdminEnv>) => {
  const n = c.req.param('number') ?? ''
  return /^[0-9]{1,18}$/.test(n) ? n : fail(400, `Invalid order number: ${n.slice(0, 40)}`)
}

const csv = (c: Context<AdminEnv>, body: string, name: string) =>
  c.body(body, 200, {
    'content-type': 'text/csv; charset=utf-8',
    'content-disposition': `attachment; filename="${name}"`,
  })

export const taxDocumentRoutes = new Hono<AdminEnv>()

taxDocumentRoutes.get('/orders/:number/documents/:id{[0-9]{1,15}}', async (c) => {
  const order = await findOrderByAnyId(c.env.DB, orderNumberOf(c))
  const row = order
    ? await c.env.DB.prepare(
        'SELECT kind, number, html FROM tax_documents WHERE id = ? AND client_order_id = ?',
      )
        .bind(Number(c.req.param('id')), order.client_order_id)
        .first<{ kind: 'invoice' | 'credit_note'; number: string; html: string }>()
    : null
  if (!row) return fail(404, 'This order has no such document.')
  return c.body(withStyleNonce(row.html, c.var.nonce), 200, {
    'content-type': 'text/html; charset=utf-8',
    'content-disposition': `inline; filename="${documentFileName(row.kind, row.number)}"`,
  })
})

taxDocumentRoutes.get('/orders/:number/packing-slip', async (c) =>
  packingSlipPage(c, await orderDetail(c.env.DB, orderNumberOf(c))),
)

taxDocumentRoutes.post('/api/orders/:number/invoice', async (c) => {
  const op = c.var.operator
  if (!can(op.role, 'orders')) return fail(403, `Your role (${op.role}) may not do this (orders).`)
  const number = orderNumberOf(c)
  const order = await findOrderByAnyId(c.env.DB, number)
  if (!order) return fail(404, `Order ${number} does not exist.`)
  const invoiceable = await c.env.DB.prepare(
    `SELECT 1 AS ok FROM orders o WHERE o.client_order_id = ? AND ${INVOICEABLE_SQL}`,
  )
    .bind(order.client_order_id)
    .first()
  if (!invoiceable)
    return fail(
      409,
      `Order ${number} cannot be invoiced yet: it is invoiced once paid (cash on delivery: once shipped).`,
    )
  const now = Date.now()
  const statements = await invoiceStatements(c.env, order, now)
  if (!statements.length)
    return fail(409, 'No invoice can be issued: the seller configuration is incomplete (GST reports).')
  const db = c.env.DB
  await db.batch([
    ...statements,
    // Right after the invoice's lines: they were written (changes() > 0) only if the invoice was.
    orderAudit(db, op.email, 'invoice', order, {}, now, { onlyIf: { sql: 'changes() > 0', binds: [] } }),
  ])
  const issued = await db
    .prepare("SELECT number FROM tax_documents WHERE kind = 'invoice' AND client_order_id = ?")
    .bind(order.client_order_id)
    .first<{ number: string }>()
  return answer(c, { number: issued?.number ?? null }, `/admin/orders/${number}`)
})

taxDocumentRoutes.get('/tax', async (c) => {
  const { month } = monthOf(c, istMonth(Date.now()))
  const seller = readSellerConfig(c.env as never)
  return gstReportsPage(c, await monthSummary(c.env.DB, month), 'problems' in seller ? seller.problems : [])
})

taxDocumentRoutes.get('/api/tax/gstr1.csv', async (c) => {
  const { month, section } = monthOf(c, null)
  if (!section) return fail(400, `Invalid report: section: one of ${GSTR1_SECTIONS.join(', ')}`)
  return csv(
    c,
    tableCsv(await gstr1Section(c.env.DB, c.env, month, section)),
    `gstr1-${month}-${section}.csv`,
  )
})

taxDocumentRoutes.get('/api/tax/register.csv', async (c) => {
  const { month } = monthOf(c, null)
  return csv(c, tableCsv(await salesRegister(c.env.DB, month)), `sales-register-${month}.csv`)
})
