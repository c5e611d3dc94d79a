/**
 * What the order page and the confirmation show about an order (POST /api/payment/order): its
 * status, payment state and money in minor units of its charge currency, the lines with their
 * pictures, the shipping address (only to whoever may open the order) and each shipment.
 */
import { documentMoneyRows } from '@shared/components/order/money-rows'
import { orderPaymentName } from '@shared/components/order/order-text'
import { ORDER_STATUS_LABELS, type OrderStatus, PAYABLE_STATUSES } from '@shared/config/order-status'
import { madeToOrderNote } from '@shared/domain/made-to-order'
import { documentsOf } from '../../documents/issue'
import { parseOrderDocument } from '../order/document'
import { withLineImages } from '../order/line-images'
import type { OrderRow } from '../order/repo'
import { prepaidAmountMinor, switchesToPrepaid } from './payment-link'
import { providerOf } from './start'

/**
 * The carrier and tracking number of each time each of the given orders was shipped (newest
 * last), by order id; one query whatever the number of orders.
 */
export async function shipmentsByOrder(db: D1Database, orderIds: readonly string[]) {
  const byOrder = new Map<string, { carrier: string; trackingNumber: string; shippedAt: string }[]>()
  if (!orderIds.length) return byOrder
  const { results } = await db
    .prepare(
      "SELECT client_order_id, detail, created_at FROM order_events WHERE client_order_id IN (SELECT value FROM json_each(?)) AND kind = 'status' AND to_status = 'shipped' ORDER BY id",
    )
    .bind(JSON.stringify(orderIds))
    .all<{ client_order_id: string; detail: string; created_at: string }>()
  for (const r of results) {
    const detail = JSON.parse(r.detail) as { carrier?: unknown; tracking_number?: unknown }
    const list = byOrder.get(r.client_order_id) ?? []
    list.push({
      carrier: typeof detail.carrier === 'string' ? detail.carrier : '',
      trackingNumber: typeof detail.tracking_number === 'string' ? detail.tracking_number : '',
      shippedAt: r.created_at,
    })
    byOrder.set(r.client_order_id, list)
  }
  return byOrder
}

/** What an order page and the confirmation show about an order. */
export async function orderView(db: D1Database, row: OrderRow) {
  const doc = parseOrderDocument(row.doc)
  const status = row.status as OrderStatus
  const address = doc.extension_attributes?.shipping_assignments?.[0]?.shipping?.address ?? null
  const prepaidSwitch = await switchesToPrepaid(db, row)
  return {
    orderNumber: row.increment_id,
    status,
    statusLabel: ORDER_STATUS_LABELS[status] ?? status,
    paymentState: row.payment_state,
    payable:
      (PAYABLE_STATUSES as readonly string[]).includes(status) &&
      (row.expires_at === null || row.expires_at > Date.now()) &&
      (row.grand_total_minor ?? 0) > 0,
    /** A COD order not yet handed to the courier: the page offers paying online instead. */
    prepaidSwitch,
    /** What paying by link asks (the total less any prepaid discount); null when it cannot switch. */
    prepaidAmountMinor: prepaidSwitch ? await prepaidAmountMinor(db, row, Date.now()) : null,
    provider: providerOf(row),
    currency: row.currency,
    grandTotalMinor: row.grand_total_minor,
    /** The order's money row by row (items, discount, shipping, store credit, to pay). */
    moneyRows: documentMoneyRows(doc),
    paidMinor: row.paid_minor,
    refundedMinor: row.refunded_minor,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    paymentMethod: doc.payment?.method ?? null,
    /** How it was paid, in words: what the provider reported once paid, else the method chosen. */
    paymentName: doc.payment ? orderPaymentName(doc.payment) : null,
    // Where it goes: the shopper's own address, shown only to whoever may open the order.
    shippingAddress: address
      ? Object.fromEntries(
          ['firstname', 'lastname', 'street', 'city', 'region', 'postcode', 'country_id', 'telephone'].map(
            (k) => [k, address[k] ?? null],
          ),
        )
      : null,
    items: await withLineImages(
      db,
      row.client_order_id,
      (doc.items ?? []).map((it) => ({
        name: it.name ?? it.sku ?? '',
        sku: it.sku ?? '',
        qty: it.qty_ordered ?? 1,
        rowTotal: it.row_total_incl_tax ?? null,
        options: Array.isArray(it.options) ? it.options : [],
        madeToOrder: typeof it.ships_by === 'string' ? madeToOrderNote(it.ships_by) : null,
      })),
    ),
    shipments: (await shipmentsByOrder(db, [row.client_order_id])).get(row.client_order_id) ?? [],
    // Its tax invoice and credit notes, fetched one by one through /api/documents/get.
    documents: (await documentsOf(db, row.client_order_id)).map((d) => ({
      kind: d.kind,
      number: d.number,
      issuedOn: d.issued_on,
    })),
  }
}
