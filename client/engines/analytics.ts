/**
 * Analytics events: Purchase, InitiateCheckout, AddToCart,
 * ViewContent and ViewCategory are POSTed to /api/fbconversion/callFbConversionApi with
 * event_name, event_id (event name plus random hex), event_time, user_data (em, fbc, fbp; for
 * purchases also fn, ln, zp, ph — SHA-256 hashed as the Conversions API expects), event_source_url
 * (for a Purchase only origin and path), action_source 'website' and custom_data (currency fixed
 * INR; a Purchase's order_id is the shop's order number). PageView only fires the browser
 * pixel (a hook: no third-party script is loaded). Errors are only logged.
 *
 * Usage (other islands): `track('AddToCart', { value, contentIds: [sku] })`.
 */
import { CONVERSION_EVENTS } from '@shared/config/analytics'
import { baseCurrency } from '@shared/config/store'
import { api } from '../api'
import { randomHex } from './random-hex'

/** Every event comes from the website. */
const ANALYTICS_ACTION_SOURCE = 'website'

type ServerEventName = (typeof CONVERSION_EVENTS)[number]
type EventName = ServerEventName | 'PageView'

interface TrackData {
  /** Monetary value in INR. */
  value?: number
  contentIds?: string[]
  contentName?: string
  contentType?: string
  numItems?: number
  orderId?: string
  /** Personal data of the shopper, hashed before it leaves the browser. */
  email?: string
  firstName?: string
  lastName?: string
  zip?: string
  phone?: string
}

interface UserData {
  em?: string
  fbc?: string
  fbp?: string
  fn?: string
  ln?: string
  zp?: string
  ph?: string
}

interface ConversionEvent {
  event_name: ServerEventName
  event_id: string
  event_time: number
  user_data: UserData
  event_source_url: string
  action_source: typeof ANALYTICS_ACTION_SOURCE
  custom_data: Record<string, unknown> & { currency: string }
}

/** "event name plus random hex". */
export function eventId(name: string, hex: string = randomHex()): string {
  return `${name}_${hex}`
}

/** Normalises a PII value the way the Conversions API expects before hashing. */
export function normalizePii(kind: 'em' | 'fn' | 'ln' | 'zp' | 'ph', value: string): string {
  const v = value.trim().toLowerCase()
  if (kind === 'ph') return v.replace(/\D/g, '')
  if (kind === 'zp') return v.replace(/\s/g, '')
  return v
}

/** SHA-256 hex of a string (WebCrypto; available in browsers and Node ≥ 20). */
export async function sha256Hex(value: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(value))
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('')
}

async function hashed(kind: 'em' | 'fn' | 'ln' | 'zp' | 'ph', value: string | undefined) {
  if (!value?.trim()) return undefined
  return sha256Hex(normalizePii(kind, value))
}

/** Builds one event (pure apart from hashing): time, id and browser ids are passed in. */
export async function buildConversionEvent(
  name: ServerEventName,
  data: TrackData,
  ctx: { now: number; hex: string; url: string; fbc?: string; fbp?: string },
): Promise<ConversionEvent> {
  const user: UserData = {}
  const em = await hashed('em', data.email)
  if (em) user.em = em
  if (ctx.fbc) user.fbc = ctx.fbc
  if (ctx.fbp) user.fbp = ctx.fbp
  if (name === 'Purchase') {
    const [fn, ln, zp, ph] = await Promise.all([
      hashed('fn', data.firstName),
      hashed('ln', data.lastName),
      hashed('zp', data.zip),
      hashed('ph', data.phone),
    ])
    if (fn) user.fn = fn
    if (ln) user.ln = ln
    if (zp) user.zp = zp
    if (ph) user.ph = ph
  }
  // Events report amounts in the catalogue's base currency, whatever the shopper's display currency.
  const custom: ConversionEvent['custom_data'] = { currency: baseCurrency() }
  if (data.value !== undefined) custom.value = Math.round(data.value * 100) / 100
  if (data.contentIds) custom.content_ids = data.contentIds
  if (data.contentName) custom.content_name = data.contentName
  if (data.contentType) custom.content_type = data.contentType
  if (data.numItems !== undefined) custom.num_items = data.numItems
  if (data.orderId) custom.order_id = data.orderId
  return {
    event_name: name,
    event_id: eventId(name, ctx.hex),
    event_time: Math.floor(ctx.now / 1000),
    user_data: user,
    event_source_url: ctx.url,
    action_source: ANALYTICS_ACTION_SOURCE,
    custom_data: custom,
  }
}

/**
 * The Purchase event's data for a placed order. The order is named by the shop's order number from
 * the server's answer — never by the client's order id (the key the order endpoint recognises
 * replays by) and never with the guest access key, which are not analytics data.
 */
export function purchaseData(input: {
  confirmation: Record<string, unknown> | null | undefined
  value: number
  skus: readonly string[]
  buyer: { email?: string; firstName?: string; lastName?: string; zip?: string; phone?: string }
}): TrackData {
  const number = input.confirmation?.orderNumber
  return {
    value: input.value,
    ...(typeof number === 'string' && number ? { orderId: number } : {}),
    numItems: input.skus.length,
    contentIds: [...input.skus],
    contentType: 'product',
    email: input.buyer.email,
    firstName: input.buyer.firstName,
    lastName: input.buyer.lastName,
    zip: input.buyer.zip,
    phone: input.buyer.phone,
  }
}

/** The page address an event reports: a Purchase reports origin and path only (no query, no fragment). */
export function eventSourceUrl(name: ServerEventName, href: string): string {
  if (name !== 'Purchase') return href
  try {
    const url = new URL(href)
    return `${url.origin}${url.pathname}`
  } catch {
    return ''
  }
}

function cookie(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined
  const hit = document.cookie.split('; ').find((p) => p.startsWith(`${name}=`))
  return hit ? decodeURIComponent(hit.slice(name.length + 1)) : undefined
}

/** The signed-in shopper's e-mail, set by the session/auth islands so every event carries `em`. */
let identityEmail: string | undefined
export function setAnalyticsIdentity(email: string | undefined): void {
  identityEmail = email
}

declare global {
  interface Window {
    /** A browser pixel, only when an operator configured one on the page. */
    fbq?: (...args: unknown[]) => void
  }
}

/** PageView: fires the browser pixel when one is configured, otherwise nothing. */
function firePixel(name: EventName, data?: Record<string, unknown>): void {
  try {
    if (typeof window !== 'undefined' && typeof window.fbq === 'function') window.fbq('track', name, data)
  } catch (err) {
    console.warn('analytics pixel failed', err)
  }
}

const SERVER_EVENTS = new Set<string>(CONVERSION_EVENTS)

/** Tracks an event; never throws (failures are only logged). */
export async function track(name: EventName, data: TrackData = {}): Promise<ConversionEvent | null> {
  try {
    const hex = randomHex()
    firePixel(name, { eventID: eventId(name, hex) })
    if (!SERVER_EVENTS.has(name)) return null
    const event = await buildConversionEvent(
      name as ServerEventName,
      { ...data, email: data.email ?? identityEmail },
      {
        now: Date.now(),
        hex,
        url: eventSourceUrl(name as ServerEventName, window.location.href),
        fbc: cookie('_fbc'),
        fbp: cookie('_fbp'),
      },
    )
    const res = await api('fbconversion/callFbConversionApi', { method: 'POST', body: event })
    if (res.code !== 200) console.warn('analytics: conversion event not accepted', res.code, res.result)
    return event
  } catch (err) {
    console.warn('analytics: event failed', name, err)
    return null
  }
}
