/**
 * The demo shop's coupons. They belong to the demo catalogue, not to the schema: a database that
 * is never seeded (a real shop) has none, and seeding adds them without changing a coupon that
 * already exists under the same code.
 */
export interface DemoCoupon {
  code: string
  kind: 'percent' | 'fixed'
  amount: number
  /** Minimum subtotal incl. tax in INR. */
  minSubtotal: number
  startsAt: string | null
  expiresAt: string | null
  label: string
}

export const DEMO_COUPONS: readonly DemoCoupon[] = [
  {
    code: 'WELCOME10',
    kind: 'percent',
    amount: 10,
    minSubtotal: 0,
    startsAt: null,
    expiresAt: null,
    label: '10% off your order',
  },
  {
    code: 'FLAT500',
    kind: 'fixed',
    amount: 500,
    minSubtotal: 5000,
    startsAt: null,
    expiresAt: null,
    label: '₹500 off orders above ₹5000',
  },
  {
    code: 'MONSOON25',
    kind: 'percent',
    amount: 25,
    minSubtotal: 0,
    startsAt: '2024-06-01T00:00:00Z',
    expiresAt: '2024-09-30T23:59:59Z',
    label: 'Monsoon sale 2024 (expired)',
  },
]
