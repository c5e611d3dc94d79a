/**
 * Fulfilment: what waits for the operator after the sale — confirmed orders to book with the
 * courier, bookings the courier has not taken yet, failed deliveries (NDR) to act on, parcels
 * coming back undelivered (RTO) to receive, returns to inspect piece by piece, and cash on
 * delivery to mark collected or remitted.
 */
import { baseCurrency } from '@shared/config/store'
import type { Context } from 'hono'
import type { AdminEnv } from '../env'
import type { fulfilmentWork } from '../fulfilment'
import type { todaysManifests } from '../manifests'
import { Choice, Field, money, PostForm, Table, when } from './components'
import { renderAdmin } from './frame'

type Work = Awaited<ReturnType<typeof fulfilmentWork>> & {
  toShip: Record<string, unknown>[]
  manifests: Awaited<ReturnType<typeof todaysManifests>>
}
type Row = Record<string, unknown>

const back = '/admin/fulfilment'
const s = (v: unknown) => (v === null || v === undefined ? '' : String(v))

export function fulfilmentPage(c: Context<AdminEnv>, work: Work) {
  const inr = (minor: unknown) => money(Number(minor ?? 0), baseCurrency())
  return renderAdmin(
    c,
    'Fulfilment',
    <>
      <section className="card" data-testid="to-ship">
        <h2>Ready to ship</h2>
        <Table
          rows={work.toShip}
          rowKey={(r) => s(r.increment_id)}
          columns={[
            {
              header: 'Order',
              cell: (r) => <a href={`/admin/orders/${s(r.increment_id)}`}>{s(r.increment_id)}</a>,
            },
            { header: 'Total', cell: (r) => inr(r.grand_total_minor) },
            { header: 'Payment', cell: (r) => s(r.payment_method) },
            {
              header: <span className="skip">Book</span>,
              cell: (r) => (
                <PostForm
                  needs="orders"
                  action={`/admin/api/orders/${s(r.increment_id)}/ready-to-ship`}
                  back={back}
                  label="Ready to ship"
                />
              ),
            },
          ]}
        />
      </section>
      <section className="card" data-testid="bookings">
        <h2>Bookings waiting for the courier</h2>
        <Table
          rows={work.booking as Row[]}
          rowKey={(r) => s(r.id)}
          columns={[
            { header: 'Parcel', cell: (r) => s(r.ref) },
            { header: 'Step', cell: (r) => s(r.step) },
            { header: 'State', cell: (r) => `${s(r.status)} after ${s(r.attempts)} calls` },
            { header: 'Courier said', cell: (r) => s(r.provider_response) },
          ]}
        />
      </section>
      <section className="card" data-testid="manifests">
        <h2>Pickup manifests for {work.manifests.day}</h2>
        <p>
          {work.manifests.waiting.length === 0
            ? 'No parcel booked for pickup is waiting for a manifest.'
            : `Waiting for a manifest: ${work.manifests.waiting.map((p) => `${p.ref} (${p.awb})`).join(', ')}`}
        </p>
        <PostForm
          needs="orders"
          action="/admin/api/manifests"
          back={back}
          label="Manifest for today's pickups"
        />
        <Table
          rows={work.manifests.manifests as unknown as Row[]}
          rowKey={(r) => s(r.id)}
          columns={[
            { header: 'Manifest', cell: (r) => `M${s(r.id)} at ${when(s(r.created_at))}` },
            {
              header: 'Parcels',
              cell: (r) => (r.parcels as Row[]).map((p) => `${s(p.ref)} (${s(p.awb)})`).join(', '),
            },
            {
              header: 'Document',
              cell: (r) =>
                r.manifest_url ? (
                  <a href={s(r.manifest_url)} target="_blank" rel="noopener noreferrer">
                    Manifest PDF
                  </a>
                ) : (
                  'The courier has not answered yet'
                ),
            },
            {
              header: <span className="skip">Print</span>,
              cell: (r) => (
                <PostForm
                  needs="orders"
                  action={`/admin/api/manifests/${s(r.id)}/print`}
                  back={back}
                  label={r.manifest_url ? 'Print again' : 'Ask the courier again'}
                />
              ),
            },
          ]}
        />
      </section>
      <section className="card" data-testid="ndr">
        <h2>Failed deliveries (NDR)</h2>
        <Table
          rows={work.ndr as Row[]}
          rowKey={(r) => s(r.id)}
          columns={[
            { header: 'Order', cell: (r) => s(r.increment_id) },
            { header: 'AWB', cell: (r) => s(r.awb) },
            { header: 'Reason', cell: (r) => `${s(r.ndr_reason)} (attempt ${s(r.ndr_attempts)})` },
            { header: 'Since', cell: (r) => when(s(r.updated_at)) },
            {
              header: <span className="skip">Act</span>,
              cell: (r) =>
                r.ndr_action ? (
                  `Asked: ${s(r.ndr_action)}`
                ) : (
                  <>
                    <PostForm
                      needs="orders"
                      action={`/admin/api/shipments/${s(r.id)}/ndr`}
                      back={back}
                      label="Re-attempt"
                    >
                      <input type="hidden" name="action" value="re-attempt" />
                      <Field label="Note for the courier" name="comments" />
                    </PostForm>
                    <PostForm
                      needs="orders"
                      action={`/admin/api/shipments/${s(r.id)}/ndr`}
                      back={back}
                      label="Return to us"
                      danger
                    >
                      <input type="hidden" name="action" value="return" />
                    </PostForm>
                  </>
                ),
            },
          ]}
        />
      </section>
      <section className="card" data-testid="rto">
        <h2>Coming back undelivered (RTO)</h2>
        <Table
          rows={work.rto as Row[]}
          rowKey={(r) => s(r.id)}
          columns={[
            { header: 'Order', cell: (r) => s(r.increment_id) },
            { header: 'AWB', cell: (r) => s(r.awb) },
            {
              header: 'Parcel',
              cell: (r) => (r.state === 'rto_delivered' ? 'Back with us' : 'On its way back'),
            },
            {
              header: <span className="skip">Receive</span>,
              cell: (r) => (
                <PostForm
                  needs="orders"
                  action={`/admin/api/orders/${s(r.increment_id)}/rto-received`}
                  back={back}
                  label="Received"
                >
                  <Choice
                    label="Stock"
                    name="restock"
                    options={[
                      ['true', 'Back into stock'],
                      ['false', 'Damaged: not restocked'],
                    ]}
                  />
                  <Field label="Inspection note" name="note" />
                </PostForm>
              ),
            },
          ]}
        />
      </section>
      <section className="card" data-testid="returns">
        <h2>Returns and exchanges</h2>
        <Table
          rows={work.returns as Row[]}
          rowKey={(r) => s(r.id)}
          columns={[
            { header: 'Order', cell: (r) => `${s(r.increment_id)} R${s(r.number)}` },
            {
              header: 'State',
              cell: (r) => `${s(r.status).replace(/_/g, ' ')} — ${s(r.resolution).replace('_', ' ')}`,
            },
            { header: 'Reason', cell: (r) => s(r.reason) },
            {
              header: 'Pieces',
              cell: (r) =>
                r.status === 'received' ? (
                  <PostForm
                    needs="money"
                    action={`/admin/api/returns/${s(r.id)}/inspect`}
                    back={back}
                    label="Save inspection"
                  >
                    {(r.items as Row[]).map((i) => (
                      <Choice
                        key={s(i.id)}
                        label={`${s(i.qty)} × ${s(i.sku)}${i.exchange_sku ? ` → ${s(i.exchange_sku)}` : ''}`}
                        name={`decision_${s(i.id)}`}
                        options={['accepted', 'rejected']}
                      />
                    ))}
                    <Field label="Bank/UPI payout reference (cash on delivery)" name="payout_reference" />
                  </PostForm>
                ) : (
                  (r.items as Row[]).map((i) => `${s(i.qty)} × ${s(i.sku)}`).join(', ')
                ),
            },
          ]}
        />
      </section>
      <section className="card" data-testid="cod">
        <h2>Cash on delivery</h2>
        <Table
          rows={work.cod as Row[]}
          rowKey={(r) => s(r.increment_id)}
          columns={[
            { header: 'Order', cell: (r) => s(r.increment_id) },
            { header: 'Total', cell: (r) => inr(r.grand_total_minor) },
            { header: 'Collected', cell: (r) => (r.collected_at ? when(s(r.collected_at)) : 'not yet') },
            {
              header: <span className="skip">Settle</span>,
              cell: (r) =>
                r.collected_at ? (
                  <PostForm
                    needs="money"
                    action={`/admin/api/orders/${s(r.increment_id)}/cod-remitted`}
                    back={back}
                    label="Remitted"
                  >
                    <Field label="UTR" name="utr" required />
                  </PostForm>
                ) : (
                  <PostForm
                    needs="money"
                    action={`/admin/api/orders/${s(r.increment_id)}/cod-collected`}
                    back={back}
                    label="Cash collected"
                  />
                ),
            },
          ]}
        />
      </section>
    </>,
  )
}
