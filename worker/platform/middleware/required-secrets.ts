/**
 * Outside development and tests, an area of the embedded backend that cannot work safely without
 * its secrets refuses to serve instead of improvising: accounts (and everything that signs links
 * or tokens) need TOKEN_SECRET — without it sign-in would sign with a key that dies with the
 * isolate — and the payment routes need both providers' keys and webhook secrets. A refused
 * request answers 503 with a message saying the shop is not configured, and one log line names
 * the missing secrets for the operator (never their values). With API_UPSTREAM set the upstream
 * answers /api and holds its own secrets, so nothing is checked.
 */
import type { MiddlewareHandler } from 'hono'
import type { AppEnv } from '../env'

interface SecretArea {
  /** How a shopper and the operator call the area. */
  area: string
  /** /api path prefixes of the area (matched at a segment boundary). */
  prefixes: readonly string[]
  /** Secrets every one of which must be set. */
  secrets: readonly string[]
  /** The payment provider of the area (PAYMENT_PROVIDERS names the ones a shop enables). */
  provider?: 'razorpay' | 'paypal'
}

/** The one list of secrets each area needs outside development and tests. */
export const REQUIRED_SECRETS: readonly SecretArea[] = [
  {
    area: 'Accounts',
    prefixes: ['/api/user', '/api/wishlist', '/api/order', '/api/ext/mailchimp-subscribe'],
    secrets: ['TOKEN_SECRET'],
  },
  // Each provider's routes need that provider's keys only, so a shop may run one provider; the
  // routes every provider shares (start, order) refuse a provider that is not configured themselves.
  {
    area: 'Card and UPI payments',
    prefixes: ['/api/payment/razorpay'],
    provider: 'razorpay',
    secrets: ['RAZORPAY_KEY_ID', 'RAZORPAY_KEY_SECRET', 'RAZORPAY_WEBHOOK_SECRET'],
  },
  {
    area: 'PayPal payments',
    prefixes: ['/api/payment/paypal'],
    provider: 'paypal',
    secrets: ['PAYPAL_CLIENT_ID', 'PAYPAL_CLIENT_SECRET', 'PAYPAL_WEBHOOK_ID'],
  },
]

/** Environments that may run without secrets (they generate throw-away keys or use none). */
const RELAXED_ENVIRONMENTS = new Set(['development', 'test'])

const underPrefix = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`)

/** The secrets of `area` that `env` lacks (empty strings count as missing). */
function missingSecrets(env: object, area: SecretArea): string[] {
  const values = env as Record<string, unknown>
  return area.secrets.filter(
    (name) => typeof values[name] !== 'string' || (values[name] as string).trim() === '',
  )
}

export const requireSecrets: MiddlewareHandler<AppEnv> = async (c, next) => {
  const config = c.var.config
  if (RELAXED_ENVIRONMENTS.has(config.ENVIRONMENT) || config.API_UPSTREAM) return next()
  const area = REQUIRED_SECRETS.find((a) => a.prefixes.some((p) => underPrefix(c.req.path, p)))
  if (!area) return next()
  const missing = missingSecrets(c.env, area)
  if (!missing.length) return next()
  console.error(
    JSON.stringify({
      requestId: c.var.requestId,
      msg: `${area.area} refused: required secret missing`,
      missing,
      environment: config.ENVIRONMENT,
    }),
  )
  return c.json(
    {
      code: 503,
      result: `${area.area} are not available: this shop is not fully configured yet. Please try again later.`,
      meta: { requestId: c.var.requestId },
    },
    503,
    { 'cache-control': 'no-store' },
  )
}
