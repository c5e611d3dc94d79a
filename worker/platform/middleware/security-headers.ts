/**
 * Security headers on every response the worker produces, set by `hono/secure-headers`:
 * HSTS (2 years, subdomains, preload), nosniff, X-Frame-Options DENY, a strict referrer policy,
 * a permissions policy (no camera, microphone or geolocation; payment only for the shop itself),
 * COOP and CORP same-origin (pictures excepted, below), plus the library's other defaults (Origin-Agent-Cluster, no DNS
 * prefetch, no cross-domain policy files, X-XSS-Protection off as browsers advise).
 *
 * HTML gets a Content-Security-Policy with this request's nonce and no 'unsafe-inline' script;
 * AMP documents get the policy AMP requires (its runtime from cdn.ampproject.org and inline amp
 * styles, still no inline script). Other responses (JSON, assets, XML) carry no CSP.
 *
 * The header set is chosen after the route ran (only then are the content type and the AMP mode
 * known), so the library middleware is applied to the finished response.
 */
import type { Context, MiddlewareHandler } from 'hono'
import { createMiddleware } from 'hono/factory'
import { secureHeaders } from 'hono/secure-headers'
import type { AppEnv } from '../env'

/** The origin of a configured URL, or null when it is not an http(s) URL. */
function originOf(url: string | undefined): string | null {
  try {
    const u = new URL(url ?? '')
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.origin : null
  } catch {
    return null
  }
}

/**
 * The payment providers' origins a page may frame and call: Razorpay Standard Checkout opens its
 * payment window as a frame served from its checkout and API origins (or from the local test
 * provider's, when the shop is pointed at it). Only configured origins are admitted.
 */
/** The payment sources of the configuration last seen (they change only with the configuration). */
let lastPayment: { script: string | undefined; api: string | undefined; sources: string } | null = null

const paymentSources = (c: Context) => {
  const env = (c as Context<AppEnv>).env ?? ({} as Env)
  const script = env.RAZORPAY_CHECKOUT_SCRIPT
  const api = env.RAZORPAY_API_BASE
  if (lastPayment && lastPayment.script === script && lastPayment.api === api) return lastPayment.sources
  const origins = new Set([originOf(script), originOf(api)].filter((o): o is string => o !== null))
  const sources = [...origins].join(' ') || "'self'"
  lastPayment = { script, api, sources }
  return sources
}

/** This request's nonce as a CSP source. */
const nonceSource = (c: Context) => `'nonce-${(c as Context<AppEnv>).var.nonce}'`

const COMMON = {
  strictTransportSecurity: 'max-age=63072000; includeSubDomains; preload',
  xFrameOptions: 'DENY',
  referrerPolicy: 'strict-origin-when-cross-origin',
  crossOriginOpenerPolicy: 'same-origin',
  crossOriginResourcePolicy: 'same-origin',
  permissionsPolicy: {
    camera: [] as string[],
    microphone: [] as string[],
    geolocation: [] as string[],
    payment: ['self'],
  },
}

const PAGE_CSP = {
  defaultSrc: ["'self'"],
  scriptSrc: [nonceSource, "'strict-dynamic'", "'self'"],
  styleSrc: ["'self'", nonceSource],
  // React `style` props become attributes; they cannot run code.
  styleSrcAttr: ["'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'", paymentSources],
  frameSrc: ["'self'", paymentSources],
  manifestSrc: ["'self'"],
  workerSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
}

const AMP_CSP = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", 'https://cdn.ampproject.org/'],
  styleSrc: ["'self'", "'unsafe-inline'", 'https://cdn.ampproject.org/'],
  imgSrc: ["'self'", 'data:'],
  connectSrc: ["'self'", 'https://cdn.ampproject.org/'],
  fontSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  frameAncestors: ["'none'"],
}

const forPages = secureHeaders({ ...COMMON, contentSecurityPolicy: PAGE_CSP })
const forAmp = secureHeaders({ ...COMMON, contentSecurityPolicy: AMP_CSP })
const forOthers = secureHeaders(COMMON)
/**
 * Pictures are public and meant to be shown elsewhere: an order mail's line pictures are loaded
 * by the reader's web-mail page from the shop's /img, which CORP same-origin would block.
 */
const forPictures = secureHeaders({ ...COMMON, crossOriginResourcePolicy: 'cross-origin' })
const nothingMore = async () => {}

/** The headers a response of this kind gets (the page, AMP, picture or other non-HTML set). */
function headerSetFor(c: Context<AppEnv>): MiddlewareHandler {
  const type = c.res.headers.get('content-type') ?? ''
  if (type.startsWith('image/')) return forPictures
  if (!type.includes('text/html')) return forOthers
  return c.var.cspMode === 'amp' ? forAmp : forPages
}

export const securityHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await next()
  // A response rewritten through app.fetch (the URL dispatcher) already has its full header set,
  // with the nonce its page was rendered with: replacing it would block every inline script.
  if (
    (c.res.headers.get('content-type') ?? '').includes('text/html') &&
    (c.res.headers.get('content-security-policy') ?? '').includes("'nonce-")
  )
    return
  try {
    c.res.headers.set('x-content-type-options', 'nosniff')
  } catch {
    // Responses from fetch() (assets, upstream) have immutable headers: copy once.
    c.res = new Response(c.res.body, c.res)
  }
  await headerSetFor(c)(c, nothingMore)
})
