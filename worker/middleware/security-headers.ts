/**
 * Security headers on every response the worker produces: CSP with the per-request nonce
 * (no 'unsafe-inline' script), HSTS, nosniff, frame-ancestors, referrer and permissions policy.
 * AMP documents get the CSP AMP requires (its runtime from cdn.ampproject.org, inline amp styles).
 */
import { createMiddleware } from 'hono/factory'
import type { AppEnv } from '../env'

export function contentSecurityPolicy(nonce: string, mode: 'default' | 'amp' = 'default'): string {
  if (mode === 'amp') {
    return [
      "default-src 'self'",
      "script-src 'self' https://cdn.ampproject.org/",
      "style-src 'self' 'unsafe-inline' https://cdn.ampproject.org/",
      "img-src 'self' data:",
      "connect-src 'self' https://cdn.ampproject.org/",
      "font-src 'self'",
      "object-src 'none'",
      "base-uri 'self'",
      "frame-ancestors 'none'",
    ].join('; ')
  }
  return [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic' 'self'`,
    `style-src 'self' 'nonce-${nonce}'`,
    // React `style` props become attributes; they cannot run code.
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}

export const securityHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await next()
  let h = c.res.headers
  try {
    h.set('x-content-type-options', 'nosniff')
  } catch {
    // Responses from fetch() (assets, upstream) have immutable headers: copy once.
    c.res = new Response(c.res.body, c.res)
    h = c.res.headers
  }
  const type = h.get('content-type') ?? ''
  if (type.includes('text/html') && !h.has('content-security-policy')) {
    h.set('content-security-policy', contentSecurityPolicy(c.var.nonce, c.var.cspMode ?? 'default'))
  }
  h.set('strict-transport-security', 'max-age=63072000; includeSubDomains; preload')
  h.set('x-content-type-options', 'nosniff')
  h.set('x-frame-options', 'DENY')
  h.set('referrer-policy', 'strict-origin-when-cross-origin')
  h.set('permissions-policy', 'camera=(), microphone=(), geolocation=(), payment=(self)')
  h.set('cross-origin-opener-policy', 'same-origin')
})
