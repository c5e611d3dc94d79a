/**
 * Field data: the Core Web Vitals real visits report (LCP, INP, CLS, TTFB), per page type. A page
 * view reports with probability VITALS_SAMPLE_RATE; the endpoint accepts at most VITALS_PER_MINUTE
 * beacons per network address and keeps at most VITALS_DAILY_CAP samples per page type, metric and
 * day, so neither a busy day nor a flood of forged beacons can grow the store without bound. One
 * address keeps at most VITALS_PER_ADDRESS_DAILY of them and has one vote in the p75, so neither can
 * one address set the figure the back office shows.
 */

export const VITAL_METRICS = ['LCP', 'INP', 'CLS', 'TTFB'] as const
export type VitalMetric = (typeof VITAL_METRICS)[number]

/** Page types: the client entry each page loads (the document names it in `html[data-page]`). */
export const VITAL_PAGE_TYPES = [
  'default',
  'home',
  'category',
  'product',
  'content',
  'cart',
  'checkout',
  'confirmation',
  'account',
  'lists',
] as const
export type VitalPageType = (typeof VITAL_PAGE_TYPES)[number]

/** The largest value a real visit can report per metric (ms, CLS unitless); beyond it a beacon is refused. */
export const VITAL_MAX_VALUE: Readonly<Record<VitalMetric, number>> = {
  LCP: 120_000,
  INP: 60_000,
  CLS: 100,
  TTFB: 120_000,
}

/** Share of page views that send their vitals. */
export const VITALS_SAMPLE_RATE = 0.2
/** Beacons accepted per network address per minute. */
export const VITALS_PER_MINUTE = 20
/** Samples kept per page type, metric and day (local store). */
export const VITALS_DAILY_CAP = 5_000
/** Samples kept per address, page type, metric and day (local store; a shopper's ordinary day). */
export const VITALS_PER_ADDRESS_DAILY = 10
/** Days of samples kept (local store). */
export const VITALS_RETENTION_DAYS = 30
/** Largest beacon body in bytes. */
export const VITALS_MAX_BODY_BYTES = 1_024
/** Where the browser sends its beacon (on the shop's own origin, whichever backend answers /api). */
export const VITALS_PATH = '/api/vitals'
