/**
 * Per-request context: request id, parsed config, store / currency / country resolution
 * (cookie first, then the configured defaults INR / IN), CSP nonce.
 * A malformed cookie is ignored and the defaults apply.
 */

import { COOKIE_COUNTRY, COOKIE_CURRENCY, isCurrencyCode, pricingCountry } from '@shared/config'
import { getCookie } from 'hono/cookie'
import { createMiddleware } from 'hono/factory'
import { type AppEnv, readConfig } from '../env'

const REQUEST_ID_RE = /^[A-Za-z0-9._-]{8,128}$/

function randomToken(bytes: number): string {
  const buf = new Uint8Array(bytes)
  crypto.getRandomValues(buf)
  let s = ''
  for (const b of buf) s += b.toString(16).padStart(2, '0')
  return s
}

export const requestContext = createMiddleware<AppEnv>(async (c, next) => {
  const incoming = c.req.header('x-request-id')
  const requestId = incoming && REQUEST_ID_RE.test(incoming) ? incoming : randomToken(12)
  c.set('requestId', requestId)
  c.set('nonce', btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16)))))
  const config = readConfig(c.env)
  c.set('config', config)

  let cookieCurrency: string | undefined
  let cookieCountry: string | undefined
  try {
    cookieCurrency = getCookie(c, COOKIE_CURRENCY)
    cookieCountry = getCookie(c, COOKIE_COUNTRY)
  } catch {
    // A cookie header that cannot be decoded falls back to the defaults.
  }
  const currency = isCurrencyCode(cookieCurrency) ? cookieCurrency : config.DEFAULT_CURRENCY
  const country = [cookieCountry, config.DEFAULT_COUNTRY].find(
    (v): v is string => typeof v === 'string' && /^[A-Za-z]{2}$/.test(v),
  ) as string
  c.set('store', {
    storeCode: config.STORE_CODE,
    storeId: config.STORE_ID,
    currency,
    country: country.toUpperCase(),
    pricingCountry: pricingCountry(country),
  })
  await next()
  c.header('x-request-id', requestId)
})
