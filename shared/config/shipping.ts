/**
 * The operator's shipping rules (docs/fulfilment.md): where cash on delivery is never offered, how
 * long returns stay open and how sale pieces may come back, the parcel the courier is booked for,
 * and the delivery estimate when the courier cannot be asked.
 */
export const SHIPPING_RULES = {
  /** PIN codes that never get cash on delivery, whatever the courier or the PIN table says. */
  codBlockedPincodes: [] as readonly string[],
  /** Days after delivery a return or exchange may be asked for. */
  returnWindowDays: 7,
  /** How pieces bought below their list price may come back (a product's own rule wins). */
  saleReturns: 'exchange_only' as 'none' | 'exchange_only' | 'store_credit_only' | 'any',
  /** The parcel every shipment is booked as. */
  parcel: { lengthCm: 30, breadthCm: 25, heightCm: 5, weightKg: 0.5 },
  /** Days to deliver within India when the courier cannot be asked. */
  fallbackDays: { domestic: 7 },
} as const
