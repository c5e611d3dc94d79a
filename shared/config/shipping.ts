/**
 * The operator's shipping rules (docs/fulfilment.md): what delivery costs, when cash on delivery
 * is offered, how long returns stay open, and the parcel the courier is booked for. Amounts are in
 * paise.
 */
export const SHIPPING_RULES = {
  /** Orders at or above this subtotal ship free. */
  freeAboveMinor: 2_999_00,
  /** Otherwise a flat rate… */
  flatRateMinor: 99_00,
  /** …or, where a delivery PIN's first digit (its postal zone) is listed, that zone's rate. */
  zoneRateMinor: { 7: 149_00, 1: 129_00 } as Readonly<Record<number, number>>,
  /** Added to a cash-on-delivery order. */
  codFeeMinor: 49_00,
  /** No cash on delivery for orders above this total. */
  codMaxOrderMinor: 25_000_00,
  /** PIN codes and phone numbers (10 digits) that never get cash on delivery. */
  codBlockedPincodes: [] as readonly string[],
  codBlockedPhones: [] as readonly string[],
  /** Days after delivery a return or exchange may be asked for. */
  returnWindowDays: 7,
  /** The parcel every shipment is booked as. */
  parcel: { lengthCm: 30, breadthCm: 25, heightCm: 5, weightKg: 0.5 },
  /** Days to deliver when the courier cannot be asked: within India, abroad. */
  fallbackDays: { domestic: 7, abroad: 14 },
  /** How pieces bought below their list price may come back (a product's own rule wins). */
  saleReturns: 'exchange_only' as 'none' | 'exchange_only' | 'store_credit_only' | 'any',
} as const
