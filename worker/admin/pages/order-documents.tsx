/**
 * What a packer, a courier and the accounts need of one order: the delivery address first (the
 * parcel goes there), the billing address and the buyer's GSTIN beside it, the lines with their
 * prices, discount and tax, the store credit, the order's tax documents, and a packing slip that
 * lists pieces without prices.
 */
import { stateFromPincode, stateFromRegion } from '@shared/domain/gst-states'
import type { Context } from 'hono'
import type { OrderDocument, OrderDocumentAddress } from '../../api/order/document'
import type { AdminEnv } from '../env'
import type { OrderDetail, OrderDocumentRow } from '../orders'
import { money, PostForm, Table, when } from './components'
import { renderAdmin } from './frame'

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '')
const deliveryOf = (doc: OrderDocument) =>
  doc.extension_attributes?.shipping_assignments?.[0]?.shipping?.address ?? null

/** An address as a courier reads it: name, phone, street lines, city, state with its code, PIN, country. */
function Address({ a, testId }: { a: OrderDocumentAddress; testId: string }) {
  const street = Array.isArray(a.street) ? a.street.map(str).filter(Boolean) : [str(a.street)].filter(Boolean)
  const country = str(a.country_id).toUpperCase()
  const state = country === 'IN' ? (stateFromRegion(a.region) ?? stateFromPincode(a.postcode)) : null
  return (
    <address data-testid={testId}>
      <strong>{[str(a.firstname), str(a.lastname)].filter(Boolean).join(' ')}</strong>
      {a.company ? <div>{a.company}</div> : null}
      {a.telephone ? <div>{`Phone ${a.telephone}`}</div> : null}
      {street.map((l) => (
        <div key={l}>{l}</div>
      ))}
      <div>{str(a.city)}</div>
      <div>{state ? `${state.name} (state code ${state.code})` : str(a.region)}</div>
      <div>{a.postcode ? `PIN ${a.postcode}` : null}</div>
      <div>{country}</div>
    </address>
  )
}

/** The delivery address as the shipping address, first; the billing address and GSTIN beside it. */
export function OrderAddresses({ d }: { d: OrderDetail }) {
  const doc = d.doc
  const delivery = deliveryOf(doc)
  const billing = doc.billing_address ?? {}
  const gstin = doc.extension_attributes?.gst?.buyer_gstin ?? (str(billing.vat_id) || null)
  return (
    <div className="card figures">
      <section>
        <h2>Ship to</h2>
        {delivery ? <Address a={delivery} testId="ship-to" /> : <p>Nothing to ship (digital items only).</p>}
      </section>
      <section>
        <h2>Bill to</h2>
        <Address a={billing} testId="bill-to" />
        {gstin ? <p data-testid="buyer-gstin">{`GSTIN ${gstin}`}</p> : <p>No GSTIN (unregistered buyer)</p>}
      </section>
    </div>
  )
}

/** The lines with their HSN code, prices, discount and the tax each includes. */
export function OrderItems({ d }: { d: OrderDetail }) {
  const doc = d.doc
  const cur = d.order.currency
  const major = (x: number | undefined) => money(Math.round((x ?? 0) * 100), cur)
  const items = doc.items ?? []
  return (
    <div className="card">
      <h2>Items</h2>
      <Table
        rows={items}
        // The order's lines never change order: a line is its SKU at its place.
        rowKey={(it, i) => `${it.sku}-${i}`}
        columns={[
          {
            header: 'Item',
            cell: (it) => (
              <>
                {`${it.name ?? it.sku} (${it.sku})`}
                {it.options?.length ? (
                  <div>{it.options.map((o) => `${o.label}: ${o.value}`).join('; ')}</div>
                ) : null}
              </>
            ),
          },
          { header: 'HSN', cell: (it) => it.hsn_code ?? '—' },
          { header: 'Qty', cell: (it) => it.qty_ordered ?? 1 },
          { header: 'Unit price', cell: (it) => major(it.price_incl_tax) },
          { header: 'Discount', cell: (it) => major(it.discount_amount) },
          { header: 'Tax included', cell: (it) => `${major(it.tax_amount)} (${it.tax_percent ?? 0}%)` },
          { header: 'Line total', cell: (it) => money(it.row_total_minor ?? 0, cur) },
        ]}
      />
    </div>
  )
}

/** The order's invoice and credit notes, the packing slip, and issuing an invoice that is missing. */
export function OrderDocuments({
  d,
  documents,
  invoiceable,
}: {
  d: OrderDetail
  documents: readonly OrderDocumentRow[]
  invoiceable: boolean
}) {
  const base = `/admin/orders/${d.order.increment_id}`
  const hasInvoice = documents.some((x) => x.kind === 'invoice')
  return (
    <div className="card">
      <h2>Documents</h2>
      <ul>
        <li>
          <a href={`${base}/packing-slip`}>Packing slip (print)</a>
        </li>
        {documents.map((x) => (
          <li key={x.id}>
            <a href={`${base}/documents/${x.id}`}>
              {`${x.kind === 'invoice' ? 'Tax invoice' : 'Credit note'} ${x.number}`}
            </a>
            {` of ${x.issued_on}, ${money(x.total_minor, 'INR')}`}
          </li>
        ))}
      </ul>
      {!hasInvoice && invoiceable ? (
        <PostForm
          needs="orders"
          action={`/admin/api/orders/${d.order.increment_id}/invoice`}
          back={base}
          label="Issue the tax invoice"
        />
      ) : null}
      {!hasInvoice && !invoiceable ? (
        <p>No tax invoice yet: it is issued when the order is paid (cash on delivery: when it ships).</p>
      ) : null}
    </div>
  )
}

/** The packing slip: the delivery address first, then every piece to pack, without prices. */
export function packingSlipPage(c: Context<AdminEnv>, d: OrderDetail) {
  const doc = d.doc
  const delivery = deliveryOf(doc)
  // One row per line; a bundle's or grouped product's pieces are in its options ('1 × Jhumka B').
  const pieces = doc.items ?? []
  return renderAdmin(
    c,
    `Packing slip — order ${d.order.increment_id}`,
    <div className="slip">
      <p>{`Order ${d.order.increment_id}, placed ${when(d.order.created_at)}`}</p>
      <section className="card">
        <h2>Deliver to</h2>
        {delivery ? <Address a={delivery} testId="slip-ship-to" /> : <p>Nothing to ship.</p>}
      </section>
      <section className="card">
        <h2>Pack</h2>
        <table>
          <thead>
            <tr>
              <th>Qty</th>
              <th>Item</th>
              <th>SKU</th>
              <th>Size, colour and options</th>
              <th>Packed</th>
            </tr>
          </thead>
          <tbody>
            {pieces.map((it, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the order's lines never change order
              <tr key={`${it.sku}-${i}`} data-testid="slip-line">
                <td>{it.qty_ordered ?? 1}</td>
                <td>
                  {it.name ?? it.sku}
                  {it.product_type === 'virtual' || it.product_type === 'downloadable'
                    ? ' (digital: not packed)'
                    : ''}
                </td>
                <td>{it.sku}</td>
                <td>{(it.options ?? []).map((o) => `${o.label}: ${o.value}`).join('; ') || '—'}</td>
                <td />
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="card">
        <h2>Billing address</h2>
        <Address a={doc.billing_address ?? {}} testId="slip-bill-to" />
      </section>
    </div>,
  )
}
