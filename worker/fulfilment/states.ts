/**
 * What the courier's shipment status codes (the tracking webhook's and read-back's
 * `shipment_status_id`) mean to the shop. Each code maps to one parcel state with a rank; an event
 * is applied only when it moves the parcel forward (a higher rank), or between the states of a
 * delivery attempt (out for delivery ↔ undelivered), which a re-attempt repeats. A finished parcel
 * (delivered, back with us, canceled) never moves again. Codes not listed (lost, damaged, delayed…)
 * are recorded on the order's history but move nothing.
 */

export type ParcelState =
  | 'booking'
  | 'booked'
  | 'shipped'
  | 'out_for_delivery'
  | 'undelivered'
  | 'delivered'
  | 'rto'
  | 'rto_delivered'
  | 'canceled'
  | 'qc_failed'

/** How far along each state is: a courier event never lowers it. */
export const STATE_RANK: Record<ParcelState, number> = {
  booking: 0,
  booked: 1,
  shipped: 2,
  out_for_delivery: 3,
  undelivered: 3,
  rto: 4,
  delivered: 5,
  rto_delivered: 6,
  canceled: 7,
  qc_failed: 7,
}

/** States a parcel never leaves. */
const FINISHED: readonly ParcelState[] = ['delivered', 'rto_delivered', 'canceled', 'qc_failed']

/** The courier's shipment_status_id → the parcel's state. */
const BY_CODE: Record<number, ParcelState> = {
  1: 'booked', // AWB assigned
  2: 'booked', // label generated
  3: 'booked', // pickup scheduled
  4: 'booked', // pickup queued
  5: 'booked', // manifest generated
  15: 'booked', // pickup rescheduled
  19: 'booked', // out for pickup
  27: 'booked', // pickup booked
  6: 'shipped',
  18: 'shipped', // in transit
  38: 'shipped', // reached destination hub
  42: 'shipped', // picked up
  48: 'shipped', // reached warehouse
  17: 'out_for_delivery',
  21: 'undelivered', // NDR raised
  7: 'delivered',
  26: 'delivered', // fulfilled
  9: 'rto', // RTO initiated
  14: 'rto', // RTO acknowledged
  40: 'rto', // RTO NDR
  41: 'rto', // RTO out for delivery
  46: 'rto', // RTO in transit
  10: 'rto_delivered',
  8: 'canceled',
  45: 'canceled', // canceled before dispatch
  47: 'qc_failed', // reverse pickup refused at quality check
}

/** The state a status code means, or null for codes that move nothing. */
export function stateOfCode(code: number): ParcelState | null {
  return BY_CODE[code] ?? null
}

/** Whether an event saying `next` may move a parcel that is `current`. */
export function movesForward(current: ParcelState, next: ParcelState): boolean {
  if (current === next || FINISHED.includes(current)) return false
  const a = STATE_RANK[current]
  const b = STATE_RANK[next]
  if (b > a) return true
  // A delivery attempt repeats: undelivered → out for delivery again (re-attempt), and back.
  return a === b && a === STATE_RANK.out_for_delivery
}

/** What the shopper reads for each parcel state (tracking timeline, back office). */
export const PARCEL_STATE_LABELS: Record<ParcelState, string> = {
  booking: 'Being booked with the courier',
  booked: 'Pickup booked',
  shipped: 'In transit',
  out_for_delivery: 'Out for delivery',
  undelivered: 'Delivery attempt failed',
  delivered: 'Delivered',
  rto: 'Returning to us',
  rto_delivered: 'Back with us',
  canceled: 'Canceled',
  qc_failed: 'Refused at quality check',
}
