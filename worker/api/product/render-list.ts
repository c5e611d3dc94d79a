/**
 * The platform price sync (GET /api/product/render-list): Magento product render info per sku, with price_info (final, regular,
 * special, minimal/max prices) converted to the currency without tax, and tax_adjustments (the
 * prices the request's pricing country pays, tax included: exactly what every page shows). Unknown skus are omitted; max 100 skus.
 */

import { CURRENCIES, pricingCountry } from '@shared/config'
import { baseCurrency } from '@shared/config/store'
import { convertPrice, formatPrice, roundPrice, toChargeMinor } from '@shared/domain/currency'
import { priceView } from '@shared/domain/price'
import type { Product, TaxRule } from '@shared/schemas/catalog'
import type { Context } from 'hono'
import { z } from 'zod'
import { getTaxRules } from '../../catalog/content'
import { getProductsBySku } from '../../catalog/products'
import type { AppEnv } from '../../platform/env'
import { skuListParam } from '../../platform/http'

export const RenderListQuery = z.object({
  skus: skuListParam(100),
  currencyCode: z
    .enum(CURRENCIES.map((c) => c.code) as [string, ...string[]], { error: 'Unknown currencyCode' })
    .optional(),
  storeId: z.coerce.number({ error: 'storeId must be a number' }).int().min(0).optional(),
})

interface PriceSet {
  final_price: number
  max_price: number
  max_regular_price: number
  minimal_regular_price: number
  special_price: number | null
  minimal_price: number
  regular_price: number
}

/** One price in both forms: what the shopper pays (tax of their country included) and without that tax, INR. */
interface Pair {
  incl: number
  excl: number
}

/**
 * The price info of a product from the ONE price view: the tax-inclusive set is the charged price
 * (converted and rounded to the currency's step), the exclusive set the same without the tax the
 * pricing country's price includes (for India, the GST inside the catalogue price).
 */
function prices(p: Product, now: number, rules: TaxRule[], country: string, currency: string) {
  const viewOf = (variantSku?: string) =>
    priceView(p, { now, currency, taxRules: rules, country, variantSku: variantSku ?? null })
  const view = viewOf()
  const children =
    p.type_id === 'configurable' ? p.configurable_children.filter((ch) => (ch.status ?? 1) < 2) : []
  const views = children.length ? children.map((ch) => viewOf(ch.sku)) : [view]
  const pair = (incl: number, excl: number): Pair => ({ incl, excl })
  const finals = views.map((v) => pair(v.finalInclTax, v.final))
  const regulars = views.map((v) => pair(v.regularInclTax, v.regular))
  const pick = (list: Pair[], best: (a: number, b: number) => boolean) =>
    list.reduce((m, x) => (best(x.incl, m.incl) ? x : m))
  const set: Record<keyof PriceSet, Pair | null> = {
    final_price: pair(view.finalInclTax, view.final),
    max_price: pick(finals, (a, b) => a > b),
    max_regular_price: pick(regulars, (a, b) => a > b),
    minimal_regular_price: pick(regulars, (a, b) => a < b),
    special_price: view.specialInclTax != null ? pair(view.specialInclTax, view.special as number) : null,
    minimal_price: pick(finals, (a, b) => a < b),
    regular_price: pair(view.regularInclTax, view.regular),
  }
  const amounts = (withTax: boolean) => {
    const out = {} as Record<keyof PriceSet, number | null>
    for (const [k, v] of Object.entries(set) as Array<[keyof PriceSet, Pair | null]>) {
      out[k] =
        v === null
          ? null
          : withTax
            ? toChargeMinor(v.incl, currency) / 100
            : roundPrice(convertPrice(v.excl, currency))
    }
    return out as PriceSet
  }
  const formatted = (values: PriceSet) =>
    Object.fromEntries(
      Object.entries(values).map(([k, v]) => [
        k,
        v === null ? null : formatPrice(v as number, currency, { convert: false }),
      ]),
    )
  const excl = amounts(false)
  const incl = amounts(true)
  return {
    ...excl,
    formatted_prices: formatted(excl),
    extension_attributes: {
      tax_adjustments: { ...incl, formatted_prices: formatted(incl) },
      weee_attributes: [],
      weee_adjustment: null,
    },
  }
}

function renderInfo(
  p: Product,
  now: number,
  rules: TaxRule[],
  country: string,
  currency: string,
  storeId: number,
) {
  const rate = priceView(p, { now, currency, taxRules: rules, country }).taxRate
  return {
    id: p.id,
    sku: p.sku,
    name: p.name,
    type: p.type_id,
    url: `/${p.url_path}`,
    is_salable: p.stock.is_in_stock ? '1' : '0',
    store_id: storeId,
    currency_code: currency,
    price_info: prices(p, now, rules, country, currency),
    extension_attributes: { tax_rate: rate, country_id: country },
  }
}

/** The render info of each listed sku the catalogue sells, in the asked currency and store view. */
export async function renderList(c: Context<AppEnv>, q: z.output<typeof RenderListQuery>) {
  const currency = q.currencyCode ?? c.var.store?.currency ?? baseCurrency()
  const country = pricingCountry(c.req.header('country-id') ?? c.var.store?.pricingCountry ?? 'IN')
  const storeId = q.storeId ?? c.var.store?.storeId ?? 1
  const [found, rules] = await Promise.all([getProductsBySku(c.env.DB, q.skus), getTaxRules(c.env.DB)])
  const now = Date.now()
  return q.skus.flatMap((sku) => {
    const hit = found.get(sku)
    if (!hit || hit.product.status >= 2) return []
    const product = hit.child
      ? ({ ...hit.product, ...hit.child, type_id: 'simple', configurable_children: [] } as Product)
      : hit.product
    return [renderInfo(product, now, rules, country, currency, storeId)]
  })
}
