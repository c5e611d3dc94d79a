/**
 * What a return's parcels move: the reverse pickup (picked up → the return is on its way;
 * delivered to us → it waits for inspection; refused at the courier's quality check → the
 * return is rejected and any size held for an exchange goes back on sale) and an exchange's
 * replacement (shipped, delivered → the exchange is complete). Every step is an order event and
 * a mail to the shopper.
 */
import { runAfterAnswer } from '../api/mail/deliver'
import { notifyOrder } from '../api/mail/notify'
import { orderEventStatement } from '../api/order/lifecycle'
import { magentoDate } from '../api/user/repo'
import type { AppConfig } from '../platform/env'
import type { ShipmentRow } from './book'
import type { ParcelState } from './states'

type Answering = { env: Env; executionCtx: Pick<ExecutionContext, 'waitUntil'>; config: AppConfig }

/** Puts back the stock held for a return's exchange sizes, once (exchange_held goes to 0). */
export function releaseExchangeHolds(
  db: D1Database,
  returnId: number,
  onlyRejected = false,
): D1PreparedStatement[] {
  const which = `return_id = ?1 AND exchange_held = 1${onlyRejected ? " AND decision = 'rejected'" : ''}`
  return [
    db
      .prepare(
        `UPDATE inventory SET qty = qty + (SELECT SUM(qty) FROM return_items WHERE ${which} AND exchange_sku = inventory.sku)
         WHERE sku IN (SELECT exchange_sku FROM return_items WHERE ${which})`,
      )
      .bind(returnId),
    db.prepare(`UPDATE return_items SET exchange_held = 0 WHERE ${which}`).bind(returnId),
  ]
}

/** Moves a return's status from one of `from`; true when it moved. */
async function moveReturn(
  db: D1Database,
  id: number,
  from: string[],
  to: string,
  now: number,
  extra: D1PreparedStatement[] = [],
) {
  const [moved] = await db.batch([
    db
      .prepare(
        `UPDATE returns SET status = ?, updated_at = ? WHERE id = ? AND status IN (${from.map(() => '?').join(', ')})`,
      )
      .bind(to, magentoDate(now), id, ...from),
    ...extra,
  ])
  return moved?.meta.changes === 1
}

export async function onReturnParcel(x: Answering, s: ShipmentRow, state: ParcelState, now: number) {
  const db = x.env.DB
  const returnId = s.return_id as number
  const ret = await db
    .prepare('SELECT number FROM returns WHERE id = ?')
    .bind(returnId)
    .first<{ number: number }>()
  const label = `return R${ret?.number ?? '?'}`
  const event = (text: string) =>
    orderEventStatement(
      db,
      s.client_order_id,
      { kind: 'note', actor: 'provider:courier', detail: { text, awb: s.awb } },
      now,
    )
  const mail = (kind: Parameters<typeof notifyOrder>[2]) =>
    runAfterAnswer(
      x,
      () =>
        notifyOrder(x.env, x.config, kind, s.client_order_id, now, {
          carrier: s.courier_name ?? '',
          tracking_number: s.awb ?? '',
        }),
      `order ${kind} mail`,
    )
  if (s.kind === 'return') {
    if (
      state === 'shipped' &&
      (await moveReturn(db, returnId, ['requested', 'pickup_booked'], 'picked_up', now, [
        event(`${label}: picked up by the courier`),
      ]))
    )
      mail('return_picked_up')
    if (state === 'delivered')
      await moveReturn(db, returnId, ['requested', 'pickup_booked', 'picked_up'], 'received', now, [
        event(`${label}: arrived, to be inspected`),
      ])
    if (
      state === 'qc_failed' &&
      (await moveReturn(db, returnId, ['requested', 'pickup_booked', 'picked_up'], 'qc_failed', now, [
        event(`${label}: refused at the courier's quality check`),
        ...releaseExchangeHolds(db, returnId),
      ]))
    )
      mail('return_rejected')
    return
  }
  // The replacement of an exchange.
  if (state === 'shipped') {
    await event(`${label}: replacement shipped`).run()
    mail('exchange_shipped')
  }
  if (state === 'delivered')
    await moveReturn(db, returnId, ['exchange_shipping'], 'closed', now, [
      event(`${label}: replacement delivered`),
    ])
}
