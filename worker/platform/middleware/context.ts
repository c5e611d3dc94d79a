/**
 * Per-request context: request id, parsed config, store / currency / country resolution, CSP nonce.
 * The shopper's pricing country is decided before the first tile: the country they chose (cookie),
 * else the platform's country of the request (`request.cf.country`, else the `CF-IPCountry` header
 * Cloudflare sets), else the home country of the currency they chose, else the store's default. The
 * currency: the one they chose, else their country's own (a shopper abroad sees their currency
 * from the first tile), else the store's default. A malformed cookie or header is ignored.
 */

import { COOKIE_COUNTRY, COOKIE_CURRENCY, isCurrencyCode, pricingCountry } from '@shared/config'
import { type CurrencyCode, countryOfCurrency, currencyOfCountry } from '@shared/config/store'
import { getCookie } from 'hono/cookie'
import { createMiddleware } from 'hono/factory'
import { type AppEnv, readConfig } from '../env'

const REQUEST_ID_RE = /^[A-Za-z0-9._-]{8,128}$/

/**
 * Random bytes for request ids and CSP nonces, drawn from the platform's CSPRNG a pool at a time
 * (one call per ~100 requests instead of two per request: the call costs more than the bytes).
 * Every byte is handed out once, so each value is as unpredictable as one drawn on its own. The
 * pool is filled on first use: the runtime refuses random values outside a request.
 */
const RANDOM_POOL = new Uint8Array(4096)
let randomAt = RANDOM_POOL.length

function randomBytes(n: number): Uint8Array {
  if (randomAt + n > RANDOM_POOL.length) {
    crypto.getRandomValues(RANDOM_POOL)
    randomAt = 0
  }
  const out = RANDOM_POOL.slice(randomAt, randomAt + n)
  // Zeroed as it is taken: a byte handed out is never in the pool again.
  RANDOM_POOL.fill(0, randomAt, randomAt + n)
  randomAt += n
  return out
}

function randomToken(bytes: number): string {
  let s = ''
  for (const b of randomBytes(bytes)) s += b.toString(16).padStart(2, '0')
  return s
}

/** Two letters, and not one of the codes the platform uses for "no country" (XX unknown, T1 Tor). */
function isCountryCode(v: unknown): v is string {
  return typeof v === 'string' && /^[A-Za-z]{2}$/.test(v) && !/^(xx|t1)$/i.test(v)
}

/** The country the platform located the request in, when it did. */
function platformCountry(req: Request): string | null {
  const cf = (req as Request & { cf?: { country?: unknown } }).cf?.country
  if (isCountryCode(cf)) return cf
  const header = req.headers.get('cf-ipcountry')
  return isCountryCode(header) ? header : null
}

export const requestContext = createMiddleware<AppEnv>(async (c, next) => {
  const incoming = c.req.header('x-request-id')
  const requestId = incoming && REQUEST_ID_RE.test(incoming) ? incoming : randomToken(12)
  c.set('requestId', requestId)
  c.set('nonce', btoa(String.fromCharCode(...randomBytes(16))))
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
  const chosenCurrency = isCurrencyCode(cookieCurrency) ? cookieCurrency : null
  // The platform's location decides the country and whether the currency follows it.
  const located = platformCountry(c.req.raw)
  const country = (
    [cookieCountry, located, countryOfCurrency(chosenCurrency), config.DEFAULT_COUNTRY].find(
      isCountryCode,
    ) as string
  ).toUpperCase()
  const currency: CurrencyCode =
    chosenCurrency ??
    (isCountryCode(cookieCountry) || located !== null ? currencyOfCountry(country) : config.DEFAULT_CURRENCY)
  c.set('store', {
    storeCode: config.STORE_CODE,
    storeId: config.STORE_ID,
    currency,
    country,
    pricingCountry: pricingCountry(country),
  })
  await next()
  c.header('x-request-id', requestId)
})
