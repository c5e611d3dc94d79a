/**
 * The local courier stand-in: Shiprocket's external API as the shop calls it (same paths, fields,
 * units, bearer-token login and error shapes), its tracking webhook (the token in `x-api-key`, the
 * documented body), and a clearly labelled TEST page that moves parcels through their states
 * (picked up, in transit, out for delivery, delivered, undelivered/NDR, RTO; for reverse pickups:
 * picked up, QC failed, delivered to the shop). State lives in memory.
 *
 * Length: the API, the TEST page and the clock-free state machine in one module, which the Node
 * server and the worker tests both load, so neither runs a copy of the other.
 *
 * Written against Web APIs only: the Node server (server.ts) and the worker tests load this same
 * module. The worker never imports it; production differs only in the base URL and credentials.
 */

import type { DeliverWebhook } from '../stand-in-server.ts'

interface CourierSandboxOptions {
  origin: string
  /** The shop's origin; webhooks go to <shop>/api/fulfilment/courier/events. */
  shopOrigin: string
  email: string
  password: string
  webhookToken: string
  deliver?: DeliverWebhook
}

/** The test credentials `npm start` gives the shop when no courier keys are set. */
export const COURIER_SANDBOX_SECRETS = {
  email: 'api-user@courier-sandbox.test',
  password: 'sandbox-courier-password',
  webhookToken: 'sandbox-courier-webhook-token',
}

/** The shop's courier settings for a stand-in at `origin`. */
export function courierSandboxVars(origin: string): Record<string, string> {
  return {
    SHIPROCKET_API_BASE: `${origin}/v1/external`,
    SHIPROCKET_EMAIL: COURIER_SANDBOX_SECRETS.email,
    SHIPROCKET_PASSWORD: COURIER_SANDBOX_SECRETS.password,
    SHIPROCKET_WEBHOOK_TOKEN: COURIER_SANDBOX_SECRETS.webhookToken,
  }
}

const STATUS_NAMES: Record<number, string> = {
  1: 'AWB Assigned',
  3: 'Pickup Scheduled',
  6: 'Shipped',
  7: 'Delivered',
  8: 'Canceled',
  9: 'RTO Initiated',
  10: 'RTO Delivered',
  17: 'Out For Delivery',
  18: 'In Transit',
  21: 'Undelivered',
  42: 'Picked Up',
  47: 'QC Failed',
}

/** The moves the TEST page offers, per kind of parcel. */
const FORWARD_MOVES = [42, 18, 17, 21, 7, 9, 10] as const
const RETURN_MOVES = [42, 47, 18, 7] as const

interface SbOrder {
  id: number
  channelOrderId: string
  isReturn: boolean
  paymentMethod: string
  subTotal: number
  shipmentId: number
  awb: string | null
  courierName: string | null
  statusId: number
  ndr: { reason: string; attempts: number; raisedAt: string } | null
  scans: {
    date: string
    status: string
    activity: string
    location: string
    'sr-status': number
    'sr-status-label': string
  }[]
  body: Record<string, unknown>
  canceled: boolean
  /** The pickup manifest the shipment is in (a shipment goes into one manifest only). */
  manifestId: number | null
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** "23 05 2023 11:43:52" in India's time, as the webhook's current_timestamp reads. */
function istStamp(ms: number): string {
  const d = new Date(ms + 330 * 60_000).toISOString()
  return `${d.slice(8, 10)} ${d.slice(5, 7)} ${d.slice(0, 4)} ${d.slice(11, 19)}`
}

export function createCourierSandbox(opts: CourierSandboxOptions) {
  const orders: SbOrder[] = []
  const tokens = new Set<string>()
  // Ids and AWBs go on from the clock (ms), not from 0: a restarted stand-in never hands out an AWB
  // the shop's kept state already holds (the courier never reuses one; the shop's AWBs are unique).
  let seq = Date.now()
  let down = false
  /** API paths whose next call answers 503 without acting (a step failing once). */
  const failOnce = new Set<string>()
  let clock = Date.now()
  const now = () => (clock += 1000)

  const deliver =
    opts.deliver ??
    ((url: string, init: { method: 'POST'; headers: Record<string, string>; body: string }) =>
      fetch(url, init))

  const byShipment = (id: unknown) => orders.find((o) => String(o.shipmentId) === String(id))
  const byAwb = (awb: string) => orders.find((o) => o.awb === awb)

  /** Manifests generated: their id → the AWBs on them (the document lists them). */
  const manifests = new Map<number, string[]>()
  const manifestUrl = (id: number) => `${opts.origin}/manifests/MANIFEST-${id}.pdf`

  /** A manifest for booked forward shipments, each at most once (a second ask is refused). */
  function generateManifest(ids: unknown[]): Response {
    const list = ids.map(byShipment)
    if (list.length === 0 || list.some((o) => !o?.awb || o.isReturn || o.canceled))
      return json(
        { message: 'Invalid shipment ids: only shipments with an AWB can be manifested', status_code: 422 },
        422,
      )
    if (list.some((o) => o?.manifestId))
      return json({ message: 'Manifest already generated for these shipments.', status_code: 400 }, 400)
    const id = manifests.size + 1
    manifests.set(
      id,
      list.map((o) => o?.awb as string),
    )
    for (const o of list) if (o) o.manifestId = id
    return json({ status: 1, manifest_url: manifestUrl(id) })
  }

  /** The manifest holding these orders, printed again. */
  function printManifest(orderIds: unknown[]): Response {
    const found = orderIds.map((id) => orders.find((o) => o.id === Number(id)))
    const id = found[0]?.manifestId
    if (!id || found.some((o) => o?.manifestId !== id))
      return json({ message: 'Manifest not generated for these orders.', status_code: 400 }, 400)
    return json({ manifest_url: manifestUrl(id) })
  }

  /** The manifest document: a PDF-ish page naming the AWBs handed over. */
  function manifestDocument(id: number): Response {
    const awbs = manifests.get(id)
    if (!awbs) return new Response('Not found', { status: 404 })
    const lines = [`TEST courier manifest ${id} - not a real courier`, ...awbs.map((a) => `AWB ${a}`)]
    return new Response(`%PDF-1.4\n% ${lines.join('\n% ')}\n%%EOF\n`, {
      headers: { 'content-type': 'application/pdf' },
    })
  }

  function webhookBody(o: SbOrder) {
    const at = now()
    return {
      awb: o.awb,
      courier_name: o.courierName,
      current_status: STATUS_NAMES[o.statusId] ?? String(o.statusId),
      current_status_id: o.statusId,
      shipment_status: STATUS_NAMES[o.statusId] ?? String(o.statusId),
      shipment_status_id: o.statusId,
      current_timestamp: istStamp(at),
      order_id: o.channelOrderId,
      sr_order_id: o.id,
      etd: istStamp(at + 3 * 86_400_000),
      scans: o.scans,
      is_return: o.isReturn ? 1 : 0,
      channel_id: 1,
    }
  }

  /** Moves a parcel to `statusId` (as the courier's own scans would) and sends the webhook. */
  async function advance(awb: string, statusId: number, extra: { sendWebhook?: boolean } = {}) {
    const o = byAwb(awb)
    if (!o) return false
    o.statusId = statusId
    if (statusId === 21) {
      const attempts = (o.ndr?.attempts ?? 0) + 1
      o.ndr = { reason: 'Customer not available', attempts, raisedAt: istStamp(now()) }
    }
    o.scans.push({
      date: istStamp(now()),
      status: STATUS_NAMES[statusId] ?? String(statusId),
      // A failed delivery's scan says why, as the courier's do: the shop shows it as the NDR's reason.
      activity: statusId === 21 && o.ndr ? o.ndr.reason : (STATUS_NAMES[statusId] ?? String(statusId)),
      location: statusId === 7 ? 'Destination' : 'Hub',
      'sr-status': statusId,
      'sr-status-label': STATUS_NAMES[statusId] ?? String(statusId),
    })
    if (extra.sendWebhook !== false) await sendWebhook(awb)
    return true
  }

  /** POSTs the tracking webhook for a parcel as it is now. */
  function sendWebhook(awb: string) {
    const o = byAwb(awb)
    if (!o) return Promise.resolve()
    return deliver(`${opts.shopOrigin}/api/fulfilment/courier/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': opts.webhookToken },
      body: JSON.stringify(webhookBody(o)),
    })
  }

  function createOrder(body: Record<string, unknown>, isReturn: boolean): Response {
    const ref = String(body.order_id ?? '')
    if (!ref || ref.length > 50)
      return json({ message: 'The order id field is required.', errors: { order_id: ['invalid'] } }, 422)
    if (orders.some((o) => o.channelOrderId === ref))
      return json(
        {
          message: 'Order Id already exists',
          errors: { order_id: ['The order id has already been taken.'] },
        },
        422,
      )
    const items = Array.isArray(body.order_items) ? (body.order_items as Record<string, unknown>[]) : []
    if (items.length === 0)
      return json({ message: 'Order items are required', errors: { order_items: ['required'] } }, 422)
    const subTotal = Number(body.sub_total)
    if (!Number.isFinite(subTotal) || subTotal <= 0) return json({ message: 'sub_total is required' }, 422)
    const o: SbOrder = {
      id: 1_000_000 + ++seq,
      channelOrderId: ref,
      isReturn,
      paymentMethod: String(body.payment_method ?? ''),
      subTotal,
      shipmentId: 2_000_000 + seq,
      awb: null,
      courierName: null,
      statusId: 0,
      ndr: null,
      scans: [],
      body,
      canceled: false,
      manifestId: null,
    }
    orders.push(o)
    return json({
      order_id: o.id,
      shipment_id: o.shipmentId,
      status: isReturn ? 'RETURN PENDING' : 'NEW',
      status_code: isReturn ? 21 : 1,
      onboarding_completed_now: 0,
      awb_code: '',
      courier_company_id: '',
      courier_name: '',
    })
  }

  function serviceability(url: URL): Response {
    const pin = url.searchParams.get('delivery_postcode') ?? ''
    const weight = Number(url.searchParams.get('weight'))
    if (
      !/^[1-9]\d{5}$/.test(pin) ||
      !/^[1-9]\d{5}$/.test(url.searchParams.get('pickup_postcode') ?? '') ||
      !(weight > 0)
    )
      return json({ message: 'Invalid data', status_code: 422 }, 422)
    // Test rule: PINs starting 9 are not served; those ending 0 have no cash on delivery; days grow
    // with the distance between the first digits.
    if (pin.startsWith('9')) return json({ status: 404, message: 'Delivery postcode not serviceable' })
    const cod = !pin.endsWith('0')
    const far = Math.abs(Number(pin[0]) - Number((url.searchParams.get('pickup_postcode') ?? '5')[0]))
    // etd as the courier writes it ("Dec 03, 2026"): today in India plus the days.
    const etd = (days: number) => {
      const d = new Date(Date.now() + 330 * 60_000 + days * 86_400_000)
      const [, day, mon, year] = d.toUTCString().split(' ')
      return `${mon} ${day}, ${year}`
    }
    const companies = [
      {
        courier_company_id: 10,
        courier_name: 'Sandbox Surface',
        rate: 60 + far * 10,
        estimated_delivery_days: String(3 + far),
        cod: cod ? 1 : 0,
        blocked: 0,
        etd: etd(3 + far),
      },
      {
        courier_company_id: 11,
        courier_name: 'Sandbox Air',
        rate: 120 + far * 15,
        estimated_delivery_days: String(2 + Math.ceil(far / 2)),
        cod: 0,
        blocked: 0,
        etd: etd(2 + Math.ceil(far / 2)),
      },
    ]
    return json({
      status: 200,
      data: { available_courier_companies: companies, recommended_courier_company_id: 10 },
    })
  }

  function testPage(): Response {
    const rows = orders
      .filter((o) => o.awb)
      .map((o) => {
        const moves = (o.isReturn ? RETURN_MOVES : FORWARD_MOVES)
          .map(
            (code) =>
              `<button name="status" value="${code}">${escapeHtml(STATUS_NAMES[code] ?? String(code))}</button>`,
          )
          .join(' ')
        return `<tr><td>${escapeHtml(o.channelOrderId)}</td><td>${escapeHtml(o.awb ?? '')}</td><td>${o.isReturn ? 'reverse' : 'forward'}</td>
          <td>${escapeHtml(STATUS_NAMES[o.statusId] ?? String(o.statusId))}</td>
          <td><form method="post" action="/test/advance"><input type="hidden" name="awb" value="${escapeHtml(o.awb ?? '')}">${moves}</form></td></tr>`
      })
      .join('')
    return new Response(
      `<!doctype html><meta charset="utf-8"><title>TEST courier</title>
      <h1>TEST courier — not a real courier</h1>
      <p>Parcels booked by the shop. Each button moves the parcel and calls the shop's tracking webhook.</p>
      <table border="1" cellpadding="4"><tr><th>Reference</th><th>AWB</th><th>Kind</th><th>Status</th><th>Move to</th></tr>${rows}</table>`,
      { headers: { 'content-type': 'text/html; charset=utf-8' } },
    )
  }

  async function handle(req: Request): Promise<Response> {
    const url = new URL(req.url)
    const path = url.pathname
    if (path === '/test' && req.method === 'GET') return testPage()
    if (path === '/test/advance' && req.method === 'POST') {
      const form = await req.formData()
      await advance(String(form.get('awb') ?? ''), Number(form.get('status')))
      return new Response(null, { status: 303, headers: { location: '/test' } })
    }
    const doc = path.match(/^\/manifests\/MANIFEST-(\d{1,9})\.pdf$/)
    if (doc && req.method === 'GET') return manifestDocument(Number(doc[1]))
    if (down) return json({ message: 'Service Unavailable' }, 503)
    const api = path.replace(/^\/v1\/external/, '')
    if (failOnce.delete(api)) return json({ message: 'Service Unavailable' }, 503)
    const body =
      req.method === 'POST' ? ((await req.json().catch(() => ({}))) as Record<string, unknown>) : {}
    if (api === '/auth/login' && req.method === 'POST') {
      if (body.email !== opts.email || body.password !== opts.password)
        return json({ message: 'Invalid email and password combination', status_code: 400 }, 400)
      const token = `sb-token-${crypto.randomUUID()}`
      tokens.add(token)
      return json({ token, email: opts.email, id: 1 })
    }
    const auth = req.headers.get('authorization') ?? ''
    if (!tokens.has(auth.replace(/^Bearer /, '')))
      return json({ message: 'Unauthenticated.', status_code: 401 }, 401)

    if (api === '/courier/serviceability/' || api === '/courier/serviceability') return serviceability(url)
    if (api === '/orders' && req.method === 'GET') {
      const q = url.searchParams.get('search') ?? ''
      const data = orders
        .filter((o) => o.channelOrderId === q)
        .map((o) => ({
          id: o.id,
          channel_order_id: o.channelOrderId,
          status: o.canceled ? 'CANCELED' : 'NEW',
          shipments: [{ id: o.shipmentId, awb: o.awb ?? '', courier: o.courierName ?? '' }],
        }))
      return json({ data })
    }
    if (api === '/orders/create/adhoc') return createOrder(body, false)
    if (api === '/orders/create/return') return createOrder(body, true)
    if (api === '/courier/assign/awb') {
      const o = byShipment(body.shipment_id)
      if (!o) return json({ message: 'Shipment not found', status_code: 404 })
      if (!o.awb) {
        o.awb = `SB${o.isReturn ? 'R' : 'F'}${String(o.shipmentId).padStart(10, '0')}`
        o.courierName = 'Sandbox Surface'
        o.statusId = 1
      }
      return json({
        awb_assign_status: 1,
        response: {
          data: {
            awb_code: o.awb,
            courier_name: o.courierName,
            courier_company_id: 10,
            shipment_id: o.shipmentId,
          },
        },
      })
    }
    const ids = Array.isArray(body.shipment_id) ? body.shipment_id : []
    if (api === '/courier/generate/label') {
      const o = byShipment(ids[0])
      if (!o?.awb) return json({ message: 'AWB not assigned', status_code: 400 })
      return json({ label_created: 1, label_url: `${opts.origin}/labels/${o.shipmentId}.pdf`, response: '' })
    }
    if (api === '/courier/generate/pickup') {
      const o = byShipment(ids[0])
      if (!o?.awb) return json({ message: 'AWB not assigned', status_code: 400 })
      o.statusId = 3
      return json({
        pickup_status: 1,
        response: { pickup_scheduled_date: '2026-12-01 10:00:00', pickup_token_number: `PT${o.shipmentId}` },
      })
    }
    if (api === '/manifests/generate' && req.method === 'POST') return generateManifest(ids)
    if (api === '/manifests/print' && req.method === 'POST')
      return printManifest(Array.isArray(body.order_ids) ? body.order_ids : [])
    const track = api.match(/^\/courier\/track\/awb\/([^/]+)$/)
    if (track) {
      const o = byAwb(decodeURIComponent(track[1] as string))
      if (!o) return json({ tracking_data: { track_status: 0, error: 'Awb not found' } })
      return json({
        tracking_data: {
          track_status: 1,
          shipment_status: o.statusId,
          shipment_track: [{ awb_code: o.awb, current_status: STATUS_NAMES[o.statusId] ?? '' }],
          shipment_track_activities: [...o.scans].reverse(),
          etd: istStamp(clock + 3 * 86_400_000),
        },
      })
    }
    if (api === '/orders/cancel') {
      for (const id of Array.isArray(body.ids) ? body.ids : []) {
        const o = orders.find((x) => x.id === Number(id))
        if (o && o.statusId <= 3) {
          o.canceled = true
          o.statusId = 8
        }
      }
      return json({ message: 'Order cancelled successfully.' })
    }
    if (api === '/ndr/all') {
      const data = orders
        .filter((o) => o.ndr && o.statusId === 21)
        .map((o) => ({
          awb: o.awb,
          reason: o.ndr?.reason,
          attempts: o.ndr?.attempts,
          ndr_raised_at: o.ndr?.raisedAt,
        }))
      return json({ data })
    }
    const ndr = api.match(/^\/ndr\/([^/]+)\/action$/)
    if (ndr) {
      const o = byAwb(decodeURIComponent(ndr[1] as string))
      if (o?.statusId !== 21 || !o) return json({ message: 'No NDR for this AWB' }, 422)
      if (body.action === 're-attempt') await advance(o.awb as string, 17, { sendWebhook: false })
      else if (body.action === 'return') await advance(o.awb as string, 9, { sendWebhook: false })
      else return json({ message: 'action must be re-attempt or return' }, 422)
      return json({ status: 'Data Updated Sucessfully' }, 202)
    }
    return json({ message: `No route ${req.method} ${path}` }, 404)
  }

  return {
    fetch: handle,
    advance,
    sendWebhook,
    webhookBody: (awb: string) => {
      const o = byAwb(awb)
      return o ? webhookBody(o) : null
    },
    /** Makes every API call answer 503 (the courier down), or brings it back. */
    setDown(value: boolean) {
      down = value
    },
    /** Makes the next call to an API path (e.g. '/courier/assign/awb') answer 503 without acting. */
    failNext(apiPath: string) {
      failOnce.add(apiPath)
    },
    /** Orders the stand-in holds for our reference (tests count them). */
    ordersFor: (ref: string) => orders.filter((o) => o.channelOrderId === ref),
    /** Parcels not yet delivered, returned or canceled (the server's clock moves them on). */
    moving: () => orders.filter((o) => o.awb && ![7, 8, 10, 47].includes(o.statusId)),
  }
}
