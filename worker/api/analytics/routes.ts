/**
 * /api/fbconversion/*:
 *   POST /callFbConversionApi {event_name, event_id, event_time, user_data, event_source_url,
 *        action_source:'website', custom_data} → 'sent' | 'recorded' | 'failed'
 * Forwarded to Meta's Conversions API when FB_PIXEL_ID and FB_ACCESS_TOKEN are set; otherwise
 * recorded in the D1 `analytics_outbox` (also on a failed forward). Personal fields in user_data
 * (em, fn, ln, zp, ph) are normalised and SHA-256 hashed here unless already hashed, as Meta
 * requires; the client IP and user agent are added from the request.
 */

import { CONVERSION_EVENTS } from '@shared/config/analytics'
import { Hono } from 'hono'
import { z } from 'zod'
import type { AppEnv } from '../../platform/env'
import { type Delivery, deliver } from '../../platform/fetch'
import { clientIp, jsonBody, noStore, ok } from '../../platform/http'
import { sha256Hex } from '../auth/crypto'
import { magentoDate } from '../user/repo'

export const FB_GRAPH_URL = 'https://graph.facebook.com/v19.0'
const field = z.string().max(512).nullish()
const ConversionBodySchema = z.object({
  event_name: z.enum(CONVERSION_EVENTS, {
    error: `event_name must be one of ${CONVERSION_EVENTS.join(', ')}`,
  }),
  event_id: z.string({ error: 'event_id is required' }).trim().min(1, 'event_id is required').max(128),
  event_time: z.coerce.number({ error: 'event_time is required' }).int().positive(),
  user_data: z
    .object({
      em: field,
      fbc: field,
      fbp: field,
      fn: field,
      ln: field,
      zp: field,
      ph: field,
      external_id: field,
    })
    .default({}),
  event_source_url: z.url('event_source_url must be a URL').max(2048),
  action_source: z.literal('website', { error: "action_source must be 'website'" }).default('website'),
  custom_data: z.looseObject({}).default({}),
})

export const analyticsRoutes = new Hono<AppEnv>()
analyticsRoutes.use('*', noStore)

const HASHED = /^[0-9a-f]{64}$/
async function hashed(value: string | null | undefined, normalise: (v: string) => string) {
  if (!value) return undefined
  const v = value.trim()
  return HASHED.test(v) ? v : sha256Hex(normalise(v))
}

/** The outbox status of an event: 'recorded' when no provider is configured. */
const eventStatus = (outcome: Delivery['outcome']) => (outcome === 'kept' ? 'recorded' : outcome)

analyticsRoutes.post('/callFbConversionApi', jsonBody(ConversionBodySchema), async (c) => {
  const body = c.req.valid('json')
  const u = body.user_data
  const lower = (v: string) => v.toLowerCase()
  const event = {
    ...body,
    user_data: Object.fromEntries(
      Object.entries({
        em: await hashed(u.em, lower),
        fn: await hashed(u.fn, lower),
        ln: await hashed(u.ln, lower),
        zp: await hashed(u.zp, (v) => v.toLowerCase().replace(/\s+/g, '')),
        ph: await hashed(u.ph, (v) => v.replace(/\D/g, '')),
        external_id: await hashed(u.external_id, (v) => v),
        fbc: u.fbc ?? undefined,
        fbp: u.fbp ?? undefined,
        client_ip_address: clientIp(c) === 'unknown' ? undefined : clientIp(c),
        client_user_agent: c.req.header('user-agent'),
      }).filter(([, v]) => v !== undefined && v !== ''),
    ),
  }
  const { FB_PIXEL_ID, FB_ACCESS_TOKEN } = c.env
  const provider =
    FB_PIXEL_ID && FB_ACCESS_TOKEN
      ? {
          service: 'Conversions API',
          url: `${FB_GRAPH_URL}/${encodeURIComponent(FB_PIXEL_ID)}/events`,
          init: {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ data: [event], access_token: FB_ACCESS_TOKEN }),
          },
        }
      : null
  const { outcome } = await deliver(provider, ({ outcome, providerResponse }) =>
    c.env.DB.prepare(
      `INSERT INTO analytics_outbox (event_name, event_id, payload, status, provider_response, created_at)
       VALUES (?, ?, ?, ?, ?, ?)`,
    )
      .bind(
        event.event_name,
        event.event_id,
        JSON.stringify(event),
        eventStatus(outcome),
        providerResponse,
        magentoDate(Date.now()),
      )
      .run(),
  )
  const status = eventStatus(outcome)
  return ok(c, status)
})
