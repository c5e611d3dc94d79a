/**
 * `shown_price`: the field a listing's price filter and price bands name, in major units of the
 * shopper's display currency, meaning the unit price the shopper's tile shows (tax of their
 * pricing country included, converted and rounded like the tile). Before a product request is
 * planned, every mention of it is resolved for that shopper (index.ts):
 *
 * - **Indexed** (every priced product has the shopper's shown price under the tax rules and
 *   currency table in force: semantics/shown-prices.ts): range clauses and aggregations use that
 *   field, so a band counts and lists exactly the products whose tile price lies in it. A shopper
 *   at home seeing the base currency is shown the catalogue price itself, so for them the field is
 *   `final_price` (and the pre-built category listings answer as before).
 * - **Not indexed yet** (a product written without the tax rules, or the rules or rates changed,
 *   until the scheduled build catches up): `final_price` with every bound converted into the base
 *   currency, and the range buckets answered with their bounds as asked, so the bands are those of
 *   the catalogue price converted (the fallback the label documents) and no product is lost.
 */
import { PRICE_FILTER_KEY, SHOWN_PRICE_KEY } from '@shared/config/catalog'
import { baseCurrency, HOME_COUNTRY } from '@shared/config/store'
import { toBaseCurrency } from '@shared/domain/currency'
import type { TaxRuleFields } from '@shared/domain/tax-rules'
import { shownPriceField } from '../semantics/shown-prices'
import { rangeKey } from './parse-aggs'

/** Who the prices are shown to: their pricing country, display currency and the catalogue's tax rules. */
export interface ShopperPricing {
  country: string
  currency: string
  taxRules: readonly TaxRuleFields[]
}

/** A shopper at home seeing the base currency: whom a request that names no shopper is priced for. */
export function homeShopper(): ShopperPricing {
  return { country: HOME_COUNTRY, currency: baseCurrency(), taxRules: [] }
}

/** Does the request body name the shown price anywhere (the body is bounded by the request limits)? */
export function namesShownPrice(body: Record<string, unknown> | undefined): boolean {
  return body !== undefined && JSON.stringify(body).includes(`"${SHOWN_PRICE_KEY}"`)
}

/**
 * The index field holding the shopper's shown price: `final_price` for a shopper at home in the
 * base currency, else their zone's and currency's field (whether it is indexed is index.ts's read).
 */
export function shopperPriceField(shopper: ShopperPricing): string {
  if (shopper.country.trim().toUpperCase() === HOME_COUNTRY && shopper.currency === baseCurrency())
    return PRICE_FILTER_KEY
  return shownPriceField(shopper.taxRules, shopper.country, shopper.currency)
}

const BOUND_KEYS = ['gt', 'gte', 'lt', 'lte', 'from', 'to'] as const

/** Bounds in the display currency as catalogue prices (`convert`), other keys as they are. */
function converted(bounds: unknown, convert: (n: number) => number): unknown {
  if (typeof bounds !== 'object' || bounds === null || Array.isArray(bounds)) return bounds
  const out: Record<string, unknown> = { ...(bounds as Record<string, unknown>) }
  for (const k of BOUND_KEYS) if (typeof out[k] === 'number') out[k] = convert(out[k] as number)
  return out
}

/** A resolved body and, in the fallback, the range buckets' bounds as asked (by bucket key). */
interface ResolvedShownPrice {
  body: Record<string, unknown>
  asked: Map<string, { from?: number; to?: number }>
}

/**
 * The body with every mention of the shown price resolved: to `field` when it is indexed, else
 * to `final_price` with the bounds converted (see the header).
 */
export function resolveShownPrice(
  body: Record<string, unknown>,
  shopper: ShopperPricing,
  field: string | null,
): ResolvedShownPrice {
  const asked = new Map<string, { from?: number; to?: number }>()
  const toBase = (n: number) => toBaseCurrency(n, shopper.currency)
  const rewrite = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(rewrite)
    if (typeof v !== 'object' || v === null) return v
    const obj = v as Record<string, unknown>
    const range = obj.range as Record<string, unknown> | undefined
    if (
      typeof range === 'object' &&
      range !== null &&
      SHOWN_PRICE_KEY in range &&
      Object.keys(obj).length === 1
    ) {
      const bounds = range[SHOWN_PRICE_KEY]
      return { range: field ? { [field]: bounds } : { [PRICE_FILTER_KEY]: converted(bounds, toBase) } }
    }
    if (obj.field === SHOWN_PRICE_KEY) {
      const out: Record<string, unknown> = { ...obj, field: field ?? PRICE_FILTER_KEY }
      if (!field && Array.isArray(obj.ranges))
        out.ranges = obj.ranges.map((r) => {
          const { from, to } = r as { from?: number; to?: number }
          const key =
            typeof (r as { key?: unknown }).key === 'string'
              ? ((r as { key: string }).key as string)
              : rangeKey(from, to)
          asked.set(key, { ...(from === undefined ? {} : { from }), ...(to === undefined ? {} : { to }) })
          return { ...(converted(r, toBase) as Record<string, unknown>), key }
        })
      return out
    }
    const out: Record<string, unknown> = {}
    for (const [k, x] of Object.entries(obj)) out[k] = rewrite(x)
    return out
  }
  return { body: rewrite(body) as Record<string, unknown>, asked }
}

/** Range buckets answered in the fallback get back the bounds they were asked with (display units). */
export function restoreAskedBounds(
  aggregations: Record<string, unknown> | undefined,
  asked: ReadonlyMap<string, { from?: number; to?: number }>,
): void {
  if (!aggregations || asked.size === 0) return
  for (const agg of Object.values(aggregations)) {
    const buckets = (agg as { buckets?: unknown } | null)?.buckets
    if (!Array.isArray(buckets)) continue
    for (const b of buckets as Record<string, unknown>[]) {
      const bounds = typeof b.key === 'string' ? asked.get(b.key) : undefined
      if (!bounds) continue
      delete b.from
      delete b.to
      Object.assign(b, bounds)
    }
  }
}
