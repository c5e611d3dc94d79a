/**
 * The order page's parcels and returns: each parcel with its courier, AWB and tracking timeline
 * (the courier's scans as last read back), the order's returns and exchanges with their state, and
 * — while the return window is open — the form to return pieces or exchange them for another size.
 * Requests carry what opened the order (customer token, guest access key in the body, order link in
 * a header), like the rest of the order page.
 */
import { useCallback, useEffect, useState } from 'react'
import { formatPageAmount } from '../page-price'
import { type OrderAccess, orderCall } from './payment'

interface Scan {
  date: string
  status: string
  activity: string
  location: string
}
interface ParcelView {
  id: number
  kind: 'forward' | 'return'
  ref: string
  courier_name: string | null
  awb: string | null
  state: string
  stateLabel: string
  etd: string | null
  scans: Scan[]
}
interface ReturnView {
  id: number
  number: number
  status: string
  resolution: 'refund' | 'store_credit' | 'exchange'
  refund_minor: number
  credit_minor: number
  items: { sku: string; qty: number; exchange_sku: string | null; decision: string }[]
}
interface LineView {
  order_item_id: number
  sku: string
  name: string
  returnable: number
  unit_minor: number
  rule: 'none' | 'exchange_only' | 'store_credit_only' | 'any'
  sizes: { sku: string; label: string }[]
}
interface FulfilmentView {
  shipments: ParcelView[]
  returns: ReturnView[]
  returnable: { until: string; lines: LineView[] } | null
}

const RETURN_STATUS: Record<string, string> = {
  requested: 'Asked for — booking the pickup',
  pickup_booked: 'Pickup booked',
  picked_up: 'On its way back to us',
  received: 'Arrived — being inspected',
  exchange_shipping: 'Inspected — your new size is on its way',
  closed: 'Completed',
  qc_failed: 'Not accepted at pickup',
  refund_failed: 'Inspected — refund being retried',
  canceled: 'Canceled',
}
const RESOLUTIONS = { refund: 'Refund', store_credit: 'Store credit', exchange: 'Exchange for another size' }

function Parcel({ p }: { p: ParcelView }) {
  const what = p.kind === 'return' ? 'Return pickup' : p.ref.includes('-X') ? 'Exchange parcel' : 'Parcel'
  return (
    <section className="order-parcel" data-testid="order-parcel" data-ref={p.ref} data-state={p.state}>
      <h3>
        {what}: {p.stateLabel}
      </h3>
      {p.awb ? (
        <p>
          {p.courier_name ?? 'Courier'}, tracking number <strong data-testid="parcel-awb">{p.awb}</strong>
        </p>
      ) : null}
      {p.scans.length ? (
        <ol className="order-parcel__timeline" data-testid="parcel-timeline">
          {p.scans.map((s) => (
            <li key={`${s.date}:${s.status}`}>
              {s.date} — {s.status}
              {s.location ? `, ${s.location}` : ''}
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  )
}

/** A line picked for the return: how many go back, and the size an exchange asks for. */
interface PickedLine {
  qty: number
  size: string
}

function ReturnForm({
  access,
  lines,
  until,
  currency,
  onDone,
}: {
  access: OrderAccess
  lines: LineView[]
  until: string
  currency: string
  onDone: () => void
}) {
  const open = lines.filter((l) => l.returnable > 0 && l.rule !== 'none')
  const [resolution, setResolution] = useState<keyof typeof RESOLUTIONS>('exchange')
  const [picked, setPicked] = useState<Record<number, PickedLine>>({})
  /** Changes how many of a picked line go back, or the size it is exchanged for. */
  const repick = (id: number, change: Partial<PickedLine>) =>
    setPicked((prev) => ({ ...prev, [id]: { ...(prev[id] as PickedLine), ...change } }))
  const [reason, setReason] = useState('')
  const [message, setMessage] = useState<string | null>(null)
  if (open.length === 0) return null
  const allowed = (l: LineView) =>
    l.rule === 'any' ||
    (l.rule === 'exchange_only' && resolution === 'exchange') ||
    (l.rule === 'store_credit_only' && resolution !== 'refund')
  const submit = async () => {
    setMessage(null)
    const items = Object.entries(picked).map(([id, v]) => ({
      order_item_id: Number(id),
      qty: v.qty,
      ...(resolution === 'exchange' ? { exchange_sku: v.size } : {}),
    }))
    const res = await orderCall<unknown>(`fulfilment/orders/${access.orderNumber}/returns`, access, {
      resolution,
      reason,
      items,
    })
    if (res.code === 200) onDone()
    else setMessage(String(res.result))
  }
  return (
    <form
      className="order-return"
      data-testid="return-form"
      onSubmit={(e) => {
        e.preventDefault()
        void submit()
      }}
    >
      <h3>Return or exchange</h3>
      <p>You can ask until {new Date(until).toLocaleDateString('en-IN', { timeZone: 'Asia/Kolkata' })}.</p>
      <fieldset>
        <legend>What would you like?</legend>
        {(Object.keys(RESOLUTIONS) as (keyof typeof RESOLUTIONS)[]).map((r) => (
          <label key={r}>
            <input
              type="radio"
              name="resolution"
              value={r}
              checked={resolution === r}
              onChange={() => setResolution(r)}
            />{' '}
            {RESOLUTIONS[r]}
          </label>
        ))}
      </fieldset>
      {open.map((l) => (
        <div key={l.order_item_id} data-testid="return-line" data-sku={l.sku}>
          <label>
            <input
              type="checkbox"
              disabled={!allowed(l)}
              checked={picked[l.order_item_id] !== undefined}
              onChange={() => {
                // Toggled from what is shown, not from the box (see CheckboxField).
                const next = { ...picked }
                if (picked[l.order_item_id] === undefined)
                  next[l.order_item_id] = { qty: 1, size: l.sizes[0]?.sku ?? '' }
                else delete next[l.order_item_id]
                setPicked(next)
              }}
            />{' '}
            {l.name} ({formatPageAmount(l.unit_minor / 100, currency)})
          </label>
          {picked[l.order_item_id] && l.returnable > 1 ? (
            <select
              aria-label={`How many of ${l.name}`}
              value={picked[l.order_item_id]?.qty}
              onChange={(e) => repick(l.order_item_id, { qty: Number(e.target.value) })}
            >
              {Array.from({ length: l.returnable }, (_, i) => i + 1).map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          ) : null}
          {picked[l.order_item_id] && resolution === 'exchange' ? (
            l.sizes.length ? (
              <select
                aria-label={`New size of ${l.name}`}
                data-testid="exchange-size"
                value={picked[l.order_item_id]?.size}
                onChange={(e) => repick(l.order_item_id, { size: e.target.value })}
              >
                {l.sizes.map((s) => (
                  <option key={s.sku} value={s.sku}>
                    {s.label}
                  </option>
                ))}
              </select>
            ) : (
              <span> No other size is in stock.</span>
            )
          ) : null}
          {l.rule !== 'any' ? (
            <small> {l.rule === 'exchange_only' ? 'Exchange only' : 'Store credit only'}</small>
          ) : null}
        </div>
      ))}
      <label>
        Why?{' '}
        <input
          name="reason"
          required
          minLength={3}
          maxLength={500}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
      </label>
      <button type="submit" disabled={Object.keys(picked).length === 0}>
        Book the pickup
      </button>
      {message ? <p role="alert">{message}</p> : null}
    </form>
  )
}

export function OrderFulfilment({ access, currency }: { access: OrderAccess; currency: string }) {
  const [view, setView] = useState<FulfilmentView | null>(null)
  const load = useCallback(async () => {
    const res = await orderCall<FulfilmentView>(`fulfilment/orders/${access.orderNumber}`, access)
    if (res.code === 200 && typeof res.result === 'object') setView(res.result)
  }, [access])
  useEffect(() => {
    void load()
  }, [load])
  if (!view) return null
  return (
    <div className="order-fulfilment" data-testid="order-fulfilment">
      {view.shipments.map((p) => (
        <Parcel key={p.id} p={p} />
      ))}
      {view.returns.map((r) => (
        <section key={r.id} data-testid="order-return" data-status={r.status}>
          <h3>
            Return R{r.number} ({RESOLUTIONS[r.resolution]}): {RETURN_STATUS[r.status] ?? r.status}
          </h3>
          <ul>
            {r.items.map((i) => (
              <li key={`${i.sku}:${i.exchange_sku}`}>
                {i.qty} × {i.sku}
                {i.exchange_sku ? ` → ${i.exchange_sku}` : ''}
                {i.decision !== 'pending' ? ` (${i.decision})` : ''}
              </li>
            ))}
          </ul>
          {r.refund_minor > 0 ? <p>Refunded {formatPageAmount(r.refund_minor / 100, currency)}</p> : null}
          {r.credit_minor > 0 ? <p>Store credit {formatPageAmount(r.credit_minor / 100, currency)}</p> : null}
        </section>
      ))}
      {view.returnable ? (
        <ReturnForm
          access={access}
          lines={view.returnable.lines}
          until={view.returnable.until}
          currency={currency}
          onDone={() => void load()}
        />
      ) : null}
    </div>
  )
}
