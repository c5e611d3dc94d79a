/**
 * POST /api/vitals — a page view's Core Web Vitals, sent by the browser as a beacon:
 *   { page: <page type>, metrics: [{ name: 'LCP'|'INP'|'CLS'|'TTFB', value }] } → 204
 * Mounted ahead of /api's backend choice, so it works whether /api is embedded or proxied. A beacon
 * is small (≤ 1 KiB, at most one value per metric), each value a finite number within what a real
 * visit can report; anything else is a 400 naming what was wrong and stores nothing. At most
 * VITALS_PER_MINUTE beacons per network address (VITALS_LIMITER; an IPv6 /64 is one address), and
 * the store caps itself, per address too (./store.ts: one address, one vote in the p75).
 */
import {
  VITAL_MAX_VALUE,
  VITAL_METRICS,
  VITAL_PAGE_TYPES,
  VITALS_MAX_BODY_BYTES,
  VITALS_PER_MINUTE,
} from '@shared/config/vitals'
import { Hono } from 'hono'
import { z } from 'zod'
import { limitBurst } from '../api/auth/rate-limit'
import type { AppEnv } from '../platform/env'
import { clientAddress, clientIp, jsonBody, noStore } from '../platform/http'
import { recordVitals, vitalsSource } from './store'

const MetricSchema = z
  .object({
    name: z.enum(VITAL_METRICS, { error: `name must be one of ${VITAL_METRICS.join(', ')}` }),
    value: z.number({ error: 'value must be a number' }).finite().min(0, 'value cannot be negative'),
  })
  .strict()
  .refine((m) => m.value <= VITAL_MAX_VALUE[m.name], { message: 'value is beyond what a visit can report' })

const BeaconSchema = z
  .object({
    page: z.enum(VITAL_PAGE_TYPES, { error: `page must be one of ${VITAL_PAGE_TYPES.join(', ')}` }),
    metrics: z
      .array(MetricSchema)
      .min(1, 'metrics: at least one')
      .max(VITAL_METRICS.length, `metrics: at most ${VITAL_METRICS.length}`)
      .refine((ms) => new Set(ms.map((m) => m.name)).size === ms.length, 'metrics: one value per metric'),
  })
  .strict()

export const vitalsRoutes = new Hono<AppEnv>()
vitalsRoutes.use('*', noStore)

vitalsRoutes.post(
  '/',
  jsonBody(BeaconSchema, { what: 'vitals beacon', maxBytes: VITALS_MAX_BODY_BYTES }),
  async (c) => {
    await limitBurst(
      c,
      c.env.VITALS_LIMITER,
      `vitals:${clientAddress(c)}`,
      VITALS_PER_MINUTE,
      `Too many vitals beacons from your network address: at most ${VITALS_PER_MINUTE} per minute.`,
    )
    const body = c.req.valid('json')
    const country = (c.req.raw.cf?.country as string | undefined) ?? null
    const now = Date.now()
    await recordVitals(
      c.env,
      body.metrics.map((m) => ({ page: body.page, metric: m.name, value: m.value })),
      country,
      await vitalsSource(c.env, clientIp(c), now),
      now,
    )
    return c.body(null, 204)
  },
)
