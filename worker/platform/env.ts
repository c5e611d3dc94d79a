/**
 * The worker's typed context: bindings come from `wrangler types` (worker-configuration.d.ts),
 * configuration vars are parsed once per request with zod into `c.var.config`.
 */

import type { CurrencyCode, PricingCountry } from '@shared/config'
import { parsePaymentCurrencies } from '@shared/config/checkout'
import { SUPPORT_EMAIL } from '@shared/config/content'
import { DEFAULT_COD_CONFIRM_HOURS, DEFAULT_UNPAID_ORDER_TTL_MINUTES } from '@shared/config/order-status'
import { CURRENCIES, configureCurrencies, configureShopClock, parseCurrencyRates } from '@shared/config/store'
import { isTimeZone } from '@shared/domain/shop-clock'
import type { TaxRuleFields } from '@shared/domain/tax-rules'
import type { Context } from 'hono'
import { z } from 'zod'
import type { MenuItem } from '../../client/islands/layout/header'

const flag = z
  .string()
  .optional()
  .transform((v) => v === 'true' || v === '1')

const AppConfigSchema = z.object({
  API_UPSTREAM: z
    .string()
    .optional()
    .transform((v) => (v ? v.replace(/\/+$/, '') : '')),
  STORE_CODE: z.string().default('default'),
  STORE_NAME: z.string().default('Storefront'),
  STORE_ID: z.coerce.number().int().default(1),
  DEFAULT_CURRENCY: z.enum(['INR', 'USD', 'GBP']).default('INR'),
  /** The catalogue's currency: prices are in it, carts and orders record it as their base. */
  BASE_CURRENCY: z.enum(['INR', 'USD', 'GBP']).default('INR'),
  /** Display currencies' rates from the base ('USD=0.01429, GBP=0.01111'); unnamed ones use the defaults. */
  CURRENCY_RATES: z
    .string()
    .default('')
    .transform((v, ctx) => {
      try {
        return parseCurrencyRates(v)
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message })
        return z.NEVER
      }
    }),
  /**
   * Currencies each payment method charges ('card=INR USD GBP; paypal_standard=USD GBP;
   * cashondelivery=INR'); a method left out keeps its own, one given nothing is off.
   */
  PAYMENT_CURRENCIES: z
    .string()
    .default('')
    .transform((v, ctx) => {
      try {
        return parsePaymentCurrencies(
          v,
          CURRENCIES.map((c) => c.code),
        )
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message })
        return z.NEVER
      }
    }),
  DEFAULT_COUNTRY: z.string().length(2).default('IN'),
  SUPPORT_EMAIL: z.string().default(SUPPORT_EMAIL),
  /** Where new-order mails for the merchant go; empty = SUPPORT_EMAIL. */
  MERCHANT_EMAIL: z
    .string()
    .optional()
    .transform((v) => v?.trim() ?? ''),
  /** The shop's IANA time zone: the back office's dates, filters, exports and "today". */
  SHOP_TIME_ZONE: z
    .string()
    .default('Asia/Kolkata')
    .refine((v) => isTimeZone(v), {
      message: 'SHOP_TIME_ZONE must be an IANA time zone such as Asia/Kolkata',
    }),
  /** The locale the back office groups amounts in ('en-IN': ₹2,20,706.15). */
  SHOP_LOCALE: z
    .string()
    .default('en-IN')
    .refine((v) => /^[a-z]{2}(-[A-Z]{2})?$/.test(v), {
      message: 'SHOP_LOCALE must be a locale such as en-IN',
    }),
  PRICE_TIERS_ENABLED: flag,
  OFFLINE_ORDERS_AUTO_TRANSMIT: flag,
  OUTPUT_CACHE_ENABLED: flag,
  ENVIRONMENT: z.string().default('production'),
  /** Minutes an unpaid online order keeps its stock before the scheduled expiry releases it. */
  UNPAID_ORDER_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(5)
    .max(7 * 24 * 60)
    .default(DEFAULT_UNPAID_ORDER_TTL_MINUTES),
  /** Hours a cash-on-delivery order waits for the shop's confirmation before the scheduled expiry releases it. */
  COD_CONFIRM_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(30 * 24)
    .default(DEFAULT_COD_CONFIRM_HOURS),
  /**
   * The shop's public origin (scheme + host [+ port]): every absolute URL the worker writes —
   * canonical, og:url, JSON-LD, sitemaps, mailed links — is built from it, never from the
   * request's Host header (which an attacker controls and the output cache does not key on).
   */
  PUBLIC_ORIGIN: z
    .string()
    .default('http://localhost:8787')
    .transform((v, ctx) => {
      try {
        const u = new URL(v)
        if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('scheme')
        return u.origin
      } catch {
        ctx.addIssue({
          code: 'custom',
          message: `PUBLIC_ORIGIN must be an http(s) origin, got ${JSON.stringify(v)}`,
        })
        return z.NEVER
      }
    }),
})
export type AppConfig = z.infer<typeof AppConfigSchema>

/**
 * What is wrong with a set of configuration vars, read exactly as the worker reads them: one line
 * per var ('CURRENCY_RATES: …'), none when the worker would start. `npm run check-config` runs it
 * before a deploy, so a bad value is found there and not by the first shopper's request.
 */
export function configProblems(vars: Record<string, unknown>): string[] {
  const result = AppConfigSchema.safeParse(vars)
  if (result.success) return []
  return result.error.issues.map((issue) => `${issue.path.join('.') || 'vars'}: ${issue.message}`)
}

const configCache = new WeakMap<object, AppConfig>()

/** Parses the configuration vars once per env object (env objects are stable per isolate). */
export function readConfig(env: Env): AppConfig {
  const cached = configCache.get(env)
  // Currency rates are module state shared by every price function: set them from this env.
  if (cached) {
    configureCurrencies(cached.BASE_CURRENCY, cached.CURRENCY_RATES)
    configureShopClock(cached.SHOP_TIME_ZONE, cached.SHOP_LOCALE)
    return cached
  }
  const parsed = AppConfigSchema.parse(env)
  configCache.set(env, parsed)
  configureCurrencies(parsed.BASE_CURRENCY, parsed.CURRENCY_RATES)
  configureShopClock(parsed.SHOP_TIME_ZONE, parsed.SHOP_LOCALE)
  return parsed
}

/** A copy of `env` whose DB is `db` (a D1 session), sharing the parsed configuration. */
export function withDatabase(env: Env, db: D1Database): Env {
  const copy = { ...env, DB: db }
  configCache.set(copy, readConfig(env))
  return copy
}

/** What the store/currency middleware resolved for this request. */
interface StoreContext {
  storeCode: string
  storeId: number
  currency: CurrencyCode
  /** Country as given (cookie or edge geo), upper case. */
  country: string
  pricingCountry: PricingCountry
}

export type AppEnv = {
  Bindings: Env
  Variables: {
    requestId: string
    nonce: string
    config: AppConfig
    store: StoreContext
    /** Set by AMP routes: they need a CSP that admits the AMP runtime. */
    cspMode?: 'default' | 'amp'
    /**
     * Set by a page route whose HTML may enter the output cache (anonymous catalogue pages):
     * the cache-tag page type plus entity tags (P{sku}, C{id}). Unset = never cached.
     */
    cacheTags?: string[]
    /** Set when a part of the page fell back to less (a dependency failed): never cached. */
    degraded?: boolean
    /** The default layout's header menu, handed in by the app (unset: no menu). */
    menuLoader?: MenuLoader
    /** The home country's and the browsing country's tax rules, handed in by the app (pages for shoppers abroad). */
    taxRulesLoader?: TaxRulesLoader
  }
}

type MenuLoader = (c: Context<AppEnv>) => Promise<MenuItem[]>
type TaxRulesLoader = (c: Context<AppEnv>) => Promise<TaxRuleFields[]>
