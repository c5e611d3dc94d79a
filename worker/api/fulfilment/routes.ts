/**
 * /api/fulfilment:
 *   POST /courier/events            the courier's tracking webhook (token in x-api-key; see
 *                                   worker/fulfilment/events.ts). The path names no courier: the
 *                                   courier refuses webhook URLs that contain its own name.
 *   POST /orders/:number            {accessKey?} → the order's parcels (courier, AWB, timeline),
 *                                   its returns, and what may still be returned or exchanged
 *   POST /orders/:number/returns    {accessKey?, resolution, reason, items[]} → a return or a size
 *                                   exchange, its reverse pickup booked
 * The order routes open an order like its payment routes do (customer, access key in the body,
 * or the signed order link), so nobody reads or returns another's order.
 */
import { Hono } from 'hono'
import { z } from 'zod'
import { MAX_COURIER_EVENT_BYTES, receiveCourierEvent } from '../../fulfilment/events'
import { MAX_RETURN_LINES, requestReturn, returnableLines, returnDeadline } from '../../fulfilment/returns'
import { PARCEL_STATE_LABELS, type ParcelState } from '../../fulfilment/states'
import type { AppEnv } from '../../platform/env'
import { jsonBody, limitBody, noStore, ok } from '../../platform/http'
import { openOrder } from '../payment/access'

export const fulfilmentRoutes = new Hono<AppEnv>()
fulfilmentRoutes.use('*', noStore)

fulfilmentRoutes.post('/courier/events', limitBody(MAX_COURIER_EVENT_BYTES), async (c) => {
  const raw = await c.req.text()
  const answer = await receiveCourierEvent(
    { env: c.env, config: c.var.config, executionCtx: c.executionCtx },
    raw,
    c.req.header('x-api-key') ?? null,
    Date.now(),
  )
  const messages: Record<number, string> = {
    401: 'The webhook token is missing or wrong.',
    400: 'The event names no AWB and status.',
    503: 'The courier could not be asked about this parcel; send the event again later.',
  }
  return ok(
    c,
    { outcome: answer.outcome, message: messages[answer.status] ?? null },
    undefined,
    answer.status,
  )
})

const AccessSchema = z.object({
  accessKey: z.string().max(200, 'accessKey must be at most 200 characters').optional(),
})
const NumberParam = (n: string) => n.slice(0, 40)

fulfilmentRoutes.post('/orders/:number', jsonBody(AccessSchema, { maxBytes: 4096 }), async (c) => {
  const order = await openOrder(c, NumberParam(c.req.param('number')), c.req.valid('json').accessKey)
  const db = c.env.DB
  const [shipments, returns, items] = await db.batch([
    db
      .prepare(
        `SELECT id, kind, ref, return_id, courier_name, awb, state, etd, pickup_date, scans, ndr_reason, updated_at
         FROM shipments WHERE client_order_id = ? ORDER BY id`,
      )
      .bind(order.client_order_id),
    db
      .prepare(
        'SELECT id, number, status, resolution, reason, refund_minor, credit_minor, difference_minor, created_at FROM returns WHERE client_order_id = ? ORDER BY id',
      )
      .bind(order.client_order_id),
    db
      .prepare(
        `SELECT ri.return_id, ri.sku, ri.qty, ri.exchange_sku, ri.decision FROM return_items ri
         JOIN returns r ON r.id = ri.return_id WHERE r.client_order_id = ? ORDER BY ri.id`,
      )
      .bind(order.client_order_id),
  ])
  const deadline = await returnDeadline(db, order)
  const now = Date.now()
  return ok(c, {
    orderNumber: order.increment_id,
    status: order.status,
    shipments: ((shipments?.results ?? []) as Record<string, unknown>[]).map((s) => ({
      ...s,
      stateLabel: PARCEL_STATE_LABELS[s.state as ParcelState] ?? s.state,
      scans: JSON.parse(String(s.scans ?? '[]')),
    })),
    returns: ((returns?.results ?? []) as { id: number }[]).map((r) => ({
      ...r,
      items: ((items?.results ?? []) as { return_id: number }[]).filter((i) => i.return_id === r.id),
    })),
    returnable:
      deadline !== null && now <= deadline
        ? { until: new Date(deadline).toISOString(), lines: await returnableLines(db, order) }
        : null,
  })
})

const ReturnSchema = z.object({
  accessKey: z.string().max(200).optional(),
  resolution: z.enum(['refund', 'store_credit', 'exchange'], {
    error: 'resolution must be refund, store_credit or exchange',
  }),
  reason: z
    .string({ error: 'reason is required' })
    .trim()
    .min(3, 'reason must say why, in a few words')
    .max(500, 'reason must be at most 500 characters'),
  items: z
    .array(
      z.object({
        order_item_id: z.number().int().positive(),
        qty: z.number().int().min(1, 'qty must be at least 1').max(100),
        exchange_sku: z.string().max(64).optional(),
      }),
    )
    .min(1, 'choose at least one piece')
    .max(MAX_RETURN_LINES),
})

fulfilmentRoutes.post(
  '/orders/:number/returns',
  jsonBody(ReturnSchema, { what: 'return', maxBytes: 16 * 1024 }),
  async (c) => {
    const body = c.req.valid('json')
    const order = await openOrder(c, NumberParam(c.req.param('number')), body.accessKey)
    const result = await requestReturn(
      { env: c.env, config: c.var.config, executionCtx: c.executionCtx },
      order,
      body,
      Date.now(),
    )
    return ok(c, result)
  },
)
