/**
 * The courier port over Shiprocket's external API (base URL SHIPROCKET_API_BASE, e.g.
 * https://apiv2.shiprocket.in/v1/external), every call through fetchOutbound.
 *
 * - Auth: POST /auth/login with the API user's e-mail and password gives a bearer token valid ten
 *   days. One token is kept in D1 (courier_tokens) with its expiry and renewed a day before it
 *   runs out, or once when the API answers 401; never a login per call.
 * - Shiprocket reports some errors with HTTP 200 ({"status": 404, "message": …} or a missing
 *   field), so every answer's body is read before it counts as success.
 * - Orders carry no idempotency key: a retry first looks our reference up (GET /orders?search=).
 */
import { fetchOutbound, OutboundError } from '../platform/fetch'
import {
  CourierError,
  type CourierOrder,
  type CourierPort,
  type Ndr,
  type Parcel,
  type Party,
  type Serviceability,
  type Tracking,
} from './port'

const SERVICE = 'Courier (Shiprocket)'
const TOKEN_LIFETIME_MS = 10 * 24 * 60 * 60_000
/** A token is renewed this long before it runs out. */
const TOKEN_RENEW_MARGIN_MS = 24 * 60 * 60_000
/** Courier calls may be slow (label generation); bounded all the same. */
const COURIER_TIMEOUT_MS = 8000

export interface ShiprocketConfig {
  base: string
  email: string
  password: string
  /** The pickup location's nickname in the Shiprocket panel. */
  pickupLocation: string
  pickupPostcode: string
  /** Where reverse pickups come back to. */
  returnTo: Party
  /** How long a shopper's request waits for an answer before the shop answers without it. */
  waitMs: number
}

type Json = Record<string, unknown>

const num = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'string' && v !== '' ? Number(v) : NaN)
const str = (v: unknown) => (v === null || v === undefined ? '' : String(v))

/** A 4xx other than 408/429 is a refusal; no answer, 5xx, 408 and 429 may succeed later. */
const retryableStatus = (s: number) => s >= 500 || s === 408 || s === 429 || s === 401

function orderDate(d: Date): string {
  // "YYYY-MM-DD HH:MM" in India's time (UTC+5:30, no daylight saving).
  return new Date(d.getTime() + 330 * 60_000).toISOString().slice(0, 16).replace('T', ' ')
}

const rupees = (minor: number) => Math.round(minor) / 100

/** Days from today in India to the courier's `etd` ("Dec 03, 2026"); null when it gives none. */
export function etdDays(etd: string, now: number): number | null {
  const at = Date.parse(`${etd} UTC`)
  if (!etd || !Number.isFinite(at)) return null
  const today = new Date(now + 330 * 60_000)
  const days = Math.round(
    (at - Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate())) / 86_400_000,
  )
  return days >= 0 && days <= 60 ? days : null
}

export function shiprocketPort(db: D1Database, cfg: ShiprocketConfig): CourierPort {
  async function login(): Promise<string> {
    const res = await send('POST', '/auth/login', { email: cfg.email, password: cfg.password }, null)
    const token = str(res.token)
    if (!token) throw new CourierError('the courier login gave no token', false)
    await db
      .prepare(
        `INSERT INTO courier_tokens (service, token, expires_at) VALUES ('shiprocket', ?1, ?2)
         ON CONFLICT(service) DO UPDATE SET token = excluded.token, expires_at = excluded.expires_at`,
      )
      .bind(token, Date.now() + TOKEN_LIFETIME_MS)
      .run()
    return token
  }

  async function token(): Promise<string> {
    const row = await db
      .prepare(`SELECT token, expires_at FROM courier_tokens WHERE service = 'shiprocket'`)
      .first<{ token: string; expires_at: number }>()
    if (row && row.expires_at - TOKEN_RENEW_MARGIN_MS > Date.now()) return row.token
    return login()
  }

  async function send(method: string, path: string, body: unknown, bearer: string | null): Promise<Json> {
    let res: Response
    try {
      res = await fetchOutbound(SERVICE, `${cfg.base}${path}`, {
        method,
        timeoutMs: COURIER_TIMEOUT_MS,
        headers: {
          'content-type': 'application/json',
          ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    } catch (err) {
      if (err instanceof OutboundError) throw new CourierError(err.message, true)
      throw err
    }
    const text = await res.text()
    let json: Json = {}
    try {
      json = text ? (JSON.parse(text) as Json) : {}
    } catch {
      throw new CourierError(
        `the courier answered ${res.status} with no JSON`,
        retryableStatus(res.status),
        res.status,
      )
    }
    if (!res.ok) {
      const message = str(json.message) || `HTTP ${res.status}`
      throw new CourierError(
        `the courier refused: ${message}`.slice(0, 300),
        retryableStatus(res.status),
        res.status,
      )
    }
    // Errors reported in a 2xx body.
    const inner = num(json.status_code ?? json.status)
    if (Number.isFinite(inner) && inner >= 400)
      throw new CourierError(`the courier refused: ${str(json.message)}`.slice(0, 300), inner >= 500, inner)
    return json
  }

  async function call(method: string, path: string, body?: unknown): Promise<Json> {
    try {
      return await send(method, path, body, await token())
    } catch (err) {
      // A token the courier no longer takes: log in again, once.
      if (err instanceof CourierError && err.httpStatus === 401)
        return send(method, path, body, await login())
      throw err
    }
  }

  const items = (p: Parcel, qc: boolean) =>
    p.items.map((i) => ({
      name: i.name.slice(0, 200),
      sku: i.sku,
      units: i.units,
      selling_price: rupees(i.sellingPriceMinor),
      ...(i.hsn ? { hsn: i.hsn } : {}),
      ...(qc && i.qc
        ? {
            qc_enable: true,
            qc_size: i.qc.size,
            qc_color: i.qc.color,
            qc_brand: i.qc.brand,
            qc_product_image: i.qc.imageUrl,
          }
        : {}),
    }))
  const dims = (p: Parcel) => ({
    length: p.package.lengthCm,
    breadth: p.package.breadthCm,
    height: p.package.heightCm,
    weight: p.package.weightKg,
  })
  const created = (json: Json): CourierOrder => {
    const courierOrderId = str(json.order_id)
    const shipmentId = str(json.shipment_id)
    if (!courierOrderId || !shipmentId)
      throw new CourierError(`the courier did not create the order: ${str(json.message)}`, false)
    return { courierOrderId, shipmentId, awb: str(json.awb_code) || null }
  }

  return {
    async serviceability(q): Promise<Serviceability> {
      const params = new URLSearchParams({
        pickup_postcode: q.pickupPostcode,
        delivery_postcode: q.deliveryPostcode,
        weight: String(q.weightKg),
        cod: q.cod ? '1' : '0',
      })
      if (q.declaredValueMinor) params.set('declared_value', String(rupees(q.declaredValueMinor)))
      if (q.isReturn) params.set('is_return', '1')
      if (q.qcCheck) params.set('qc_check', '1')
      let json: Json
      try {
        json = await call('GET', `/courier/serviceability/?${params}`)
      } catch (err) {
        // "Not serviceable" arrives as a refusal (404 in the body or the status).
        if (err instanceof CourierError && err.httpStatus === 404)
          return { serviceable: false, cod: false, days: null, rateMinor: null }
        throw err
      }
      const data = (json.data ?? {}) as Json
      const list = (
        Array.isArray(data.available_courier_companies) ? data.available_courier_companies : []
      ) as Json[]
      const usable = list.filter((c) => !num(c.blocked))
      if (usable.length === 0) return { serviceable: false, cod: false, days: null, rateMinor: null }
      const recommended = num(data.recommended_courier_company_id)
      const pick =
        usable.find((c) => num(c.courier_company_id) === recommended) ??
        [...usable].sort((a, b) => num(a.estimated_delivery_days) - num(b.estimated_delivery_days))[0]
      const days = etdDays(str(pick?.etd), Date.now()) ?? num(pick?.estimated_delivery_days)
      const rate = num(pick?.rate)
      return {
        serviceable: true,
        cod: usable.some((c) => num(c.cod) === 1),
        days: Number.isFinite(days) ? days : null,
        rateMinor: Number.isFinite(rate) ? Math.round(rate * 100) : null,
      }
    },

    async findOrder(ref) {
      const json = await call('GET', `/orders?search=${encodeURIComponent(ref)}`)
      const list = (Array.isArray(json.data) ? json.data : []) as Json[]
      const match = list.find((o) => str(o.channel_order_id) === ref)
      if (!match) return null
      const shipments = (Array.isArray(match.shipments) ? match.shipments : [match.shipments]) as Json[]
      const shipment = shipments.find(Boolean) ?? {}
      return {
        courierOrderId: str(match.id),
        shipmentId: str(shipment.id),
        awb: str(shipment.awb) || null,
        courierName: str(shipment.courier) || null,
      }
    },

    async createOrder(p, to) {
      const json = await call('POST', '/orders/create/adhoc', {
        order_id: p.ref,
        order_date: orderDate(p.orderDate),
        pickup_location: cfg.pickupLocation,
        billing_customer_name: to.name,
        billing_last_name: to.lastName,
        billing_address: to.address,
        billing_address_2: to.address2 ?? '',
        billing_city: to.city.slice(0, 30),
        billing_pincode: to.postcode,
        billing_state: to.state,
        billing_country: to.country,
        billing_email: to.email,
        billing_phone: to.phone,
        shipping_is_billing: true,
        order_items: items(p, false),
        payment_method: p.cod ? 'COD' : 'Prepaid',
        sub_total: rupees(p.subTotalMinor),
        ...dims(p),
      })
      return created(json)
    },

    async createReturn(p, from) {
      const r = cfg.returnTo
      const json = await call('POST', '/orders/create/return', {
        order_id: p.ref,
        order_date: orderDate(p.orderDate),
        pickup_customer_name: from.name,
        pickup_last_name: from.lastName,
        pickup_address: from.address,
        pickup_city: from.city.slice(0, 30),
        pickup_state: from.state,
        pickup_country: from.country,
        pickup_pincode: from.postcode,
        pickup_email: from.email,
        pickup_phone: from.phone,
        shipping_customer_name: r.name,
        shipping_address: r.address,
        shipping_city: r.city,
        shipping_country: r.country,
        shipping_pincode: r.postcode,
        shipping_state: r.state,
        shipping_phone: r.phone,
        order_items: items(p, true),
        payment_method: 'Prepaid',
        sub_total: rupees(p.subTotalMinor),
        ...dims(p),
      })
      return created(json)
    },

    async assignAwb(shipmentId, isReturn) {
      const json = await call('POST', '/courier/assign/awb', {
        shipment_id: shipmentId,
        ...(isReturn ? { is_return: 1 } : {}),
      })
      const data = ((json.response as Json | undefined)?.data ?? {}) as Json
      const awb = str(data.awb_code)
      if (num(json.awb_assign_status) !== 1 || !awb)
        throw new CourierError(
          `no AWB was assigned: ${str(json.message) || str(data.awb_assign_error)}`,
          true,
        )
      return { awb, courierName: str(data.courier_name) }
    },

    async label(shipmentId) {
      const json = await call('POST', '/courier/generate/label', { shipment_id: [shipmentId] })
      const url = str(json.label_url)
      if (num(json.label_created) !== 1 || !url) throw new CourierError('no label was generated', true)
      return url
    },

    async pickup(shipmentId) {
      const json = await call('POST', '/courier/generate/pickup', { shipment_id: [shipmentId] })
      if (num(json.pickup_status) !== 1)
        throw new CourierError(`no pickup was booked: ${str(json.message)}`, true)
      const response = (json.response ?? {}) as Json
      return { date: str(response.pickup_scheduled_date) || null }
    },

    async track(awb): Promise<Tracking> {
      const json = await call('GET', `/courier/track/awb/${encodeURIComponent(awb)}`)
      const data = (json.tracking_data ?? {}) as Json
      const statusId = num(data.shipment_status)
      if (!Number.isInteger(statusId)) throw new CourierError(`no tracking for AWB ${awb}`, false, 404)
      const acts = (
        Array.isArray(data.shipment_track_activities) ? data.shipment_track_activities : []
      ) as Json[]
      return {
        statusId,
        etd: str(data.etd) || null,
        scans: acts.slice(0, 100).map((a) => ({
          date: str(a.date),
          status: str(a['sr-status-label'] ?? a.status),
          activity: str(a.activity).slice(0, 200),
          location: str(a.location).slice(0, 100),
        })),
      }
    },

    async cancel(ids) {
      await call('POST', '/orders/cancel', { ids: ids.map(Number) })
    },

    async ndrList(): Promise<Ndr[]> {
      const json = await call('GET', '/ndr/all')
      const list = (Array.isArray(json.data) ? json.data : []) as Json[]
      return list.map((n) => ({
        awb: str(n.awb ?? n.awb_code),
        reason: str(n.reason).slice(0, 200),
        attempts: num(n.attempts) || 0,
        raisedAt: str(n.ndr_raised_at),
      }))
    },

    async ndrAction(awb, action, comments) {
      await call('POST', `/ndr/${encodeURIComponent(awb)}/action`, {
        action,
        comments: comments.slice(0, 200),
      })
    },

    async manifest(shipmentIds) {
      const json = await call('POST', '/manifests/generate', { shipment_id: shipmentIds.map(Number) })
      return documentUrl(json, 'no manifest was generated')
    },

    async printManifest(courierOrderIds) {
      const json = await call('POST', '/manifests/print', { order_ids: courierOrderIds.map(Number) })
      return documentUrl(json, 'no manifest was printed')
    },
  }
}

/** A document the courier links to (a manifest): only an http(s) address is ever shown as a link. */
function documentUrl(json: Json, refusal: string): string {
  const url = str(json.manifest_url)
  if (!/^https?:\/\/[^\s]+$/i.test(url) || url.length > 2000)
    throw new CourierError(`${refusal}: ${str(json.message) || 'no document address'}`, false)
  return url
}
