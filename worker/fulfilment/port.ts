/**
 * The courier port: everything the shop asks of a courier aggregator, in the shop's own words.
 * One adapter implements it (./shiprocket.ts, against Shiprocket's documented API); the local
 * stand-in answers the same API, so tests and `npm start` run the adapter itself.
 *
 * Every failure is a CourierError: `retryable` when a later call may succeed (no answer, 5xx, 429,
 * a login that must be renewed), not when the courier refused what was asked (other 4xx, or an
 * error the courier reports in a 200 body).
 */

export class CourierError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly httpStatus: number | null = null,
  ) {
    super(message)
    this.name = 'CourierError'
  }
}

interface ServiceabilityQuery {
  pickupPostcode: string
  deliveryPostcode: string
  weightKg: number
  cod: boolean
  declaredValueMinor?: number
  isReturn?: boolean
  qcCheck?: boolean
}

export interface Serviceability {
  serviceable: boolean
  /** Some courier collects cash at this PIN. */
  cod: boolean
  /** The recommended (else the fastest) courier's days to deliver. */
  days: number | null
  /** Its freight rate, in paise. */
  rateMinor: number | null
}

export interface Party {
  name: string
  lastName: string
  address: string
  address2?: string
  city: string
  state: string
  country: string
  postcode: string
  email: string
  phone: string
}

export interface ParcelItem {
  name: string
  sku: string
  units: number
  /** Per unit, in paise. */
  sellingPriceMinor: number
  hsn?: string
  /** Reverse pickups: the courier checks the piece at pickup. */
  qc?: { size?: string; color?: string; brand?: string; imageUrl?: string }
}

export interface Parcel {
  /** Our reference (the order number with any suffix): unique at the courier, never reused. */
  ref: string
  orderDate: Date
  items: ParcelItem[]
  /** What the items come to, in paise; for cash on delivery the cash the courier collects. */
  subTotalMinor: number
  cod: boolean
  package: { lengthCm: number; breadthCm: number; heightCm: number; weightKg: number }
}

export interface CourierOrder {
  courierOrderId: string
  shipmentId: string
  awb: string | null
  /** The courier carrying it, once the AWB is assigned (the look-up says; a create does not). */
  courierName?: string | null
}

interface TrackingScan {
  date: string
  status: string
  activity: string
  location: string
}

export interface Tracking {
  /** The courier's shipment_status_id now. */
  statusId: number
  etd: string | null
  scans: TrackingScan[]
}

export interface Ndr {
  awb: string
  reason: string
  attempts: number
  raisedAt: string
}

export interface CourierPort {
  serviceability(q: ServiceabilityQuery): Promise<Serviceability>
  /** Our earlier order at the courier with this reference, if it exists (the retry's look-up). */
  findOrder(ref: string): Promise<CourierOrder | null>
  createOrder(parcel: Parcel, to: Party): Promise<CourierOrder>
  /** The reverse pickup: the shopper is the pickup party, we are the destination. */
  createReturn(parcel: Parcel, from: Party): Promise<CourierOrder>
  assignAwb(shipmentId: string, isReturn: boolean): Promise<{ awb: string; courierName: string }>
  label(shipmentId: string): Promise<string>
  pickup(shipmentId: string): Promise<{ date: string | null }>
  track(awb: string): Promise<Tracking>
  cancel(courierOrderIds: string[]): Promise<void>
  ndrList(): Promise<Ndr[]>
  ndrAction(awb: string, action: 're-attempt' | 'return', comments: string): Promise<void>
  /** The pickup manifest (the handover sheet) for booked shipments: the document's URL. */
  manifest(shipmentIds: string[]): Promise<string>
  /** The manifest holding these courier orders, printed again: the document's URL. */
  printManifest(courierOrderIds: string[]): Promise<string>
}
