/**
 * Field data: a sampled share of page views reports its Core Web Vitals (LCP, INP, CLS, TTFB, from
 * the `web-vitals` library) once, when the page is hidden or left, as one small beacon to the shop's
 * own origin. The page type is the document's `data-page`. Loaded lazily by the runtime boot, so it
 * is not part of any page's static JS.
 */
import { VITAL_PAGE_TYPES, VITALS_PATH, VITALS_SAMPLE_RATE, type VitalPageType } from '@shared/config/vitals'
import { type Metric, onCLS, onINP, onLCP, onTTFB } from 'web-vitals'

/** Starts observing when this page view is in the sample; `random` is for tests. */
export function startVitals(random: () => number = Math.random): boolean {
  const page = document.documentElement.dataset.page as VitalPageType | undefined
  if (!page || !VITAL_PAGE_TYPES.includes(page) || random() >= VITALS_SAMPLE_RATE) return false
  const latest = new Map<Metric['name'], number>()
  let sent = false
  const send = () => {
    if (sent || latest.size === 0) return
    sent = true
    const body = JSON.stringify({ page, metrics: [...latest].map(([name, value]) => ({ name, value })) })
    const blob = new Blob([body], { type: 'application/json' })
    if (!navigator.sendBeacon?.(VITALS_PATH, blob))
      fetch(VITALS_PATH, {
        method: 'POST',
        body,
        keepalive: true,
        headers: { 'content-type': 'application/json' },
      }).catch(() => {})
  }
  const keep = (m: Metric) => {
    latest.set(m.name, m.value)
  }
  onLCP(keep)
  onINP(keep)
  onCLS(keep)
  onTTFB(keep)
  // The values are final once the page is hidden (INP and CLS keep changing until then).
  addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') send()
  })
  addEventListener('pagehide', send)
  return true
}
