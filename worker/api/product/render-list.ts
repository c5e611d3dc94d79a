/**
 * The platform price sync (GET /api/product/render-list): Magento product render info per sku, with price_info (final, regular,
 * special, minimal/max prices) converted to the currency, and tax_adjustments (the same prices
 * including tax for the request's pricing country). Unknown skus are omitted; max 100 skus.
 */

import { CURRENCIES, pricingCountry } from '@shared/config'
import { convertPrice, formatPrice, roundPrice } from '@shared/domain/currency'
import { finalPrice, priceInclTax, priceView, taxRateFor } from '@shared/domain/price'
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

function prices(p: Product, now: number, rate: number, currency: string) {
  const view = priceView(p, { now, currency, taxRules: null })
  const children =
    p.type_id === 'configurable' ? p.configurable_children.filter((ch) => (ch.status ?? 1) < 2) : []
  const finals = children.length ? children.map((ch) => finalPrice(ch, now)) : [view.final]
  const regulars = children.length ? children.map((ch) => ch.price) : [view.regular]
  const excl: PriceSet = {
    final_price: view.final,
    max_price: Math.max(...finals),
    max_regular_price: Math.max(...regulars),
    minimal_regular_price: Math.min(...regulars),
    special_price: view.special,
    minimal_price: Math.min(...finals),
    regular_price: view.regular,
  }
  const convert = (set: PriceSet, withTax: boolean): PriceSet => {
    const out = {} as Record<keyof PriceSet, number | null>
    for (const [k, v] of Object.entries(set) as Array<[keyof PriceSet, number | null]>) {
      out[k] = v === null ? null : roundPrice(convertPrice(withTax ? priceInclTax(v, rate) : v, currency))
    }
    return out as PriceSet
  }
  const formatted = (set: PriceSet, withTax: boolean) =>
    Object.fromEntries(
      Object.entries(set).map(([k, v]) => [
        k,
        v === null ? null : formatPrice(withTax ? priceInclTax(v as number, rate) : (v as number), currency),
      ]),
    )
  const inclTax = convert(excl, true)
  return {
    ...convert(excl, false),
    formatted_prices: formatted(excl, false),
    extension_attributes: {
      tax_adjustments: { ...inclTax, formatted_prices: formatted(excl, true) },
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
  const rate = taxRateFor(p.tax_class_id, rules, country)
  return {
    id: p.id,
    sku: p.sku,
    name: p.name,
    type: p.type_id,
    url: `/${p.url_path}`,
    is_salable: p.stock.is_in_stock ? '1' : '0',
    store_id: storeId,
    currency_code: currency,
    price_info: prices(p, now, rate, currency),
    extension_attributes: { tax_rate: rate, country_id: country },
  }
}

/** The render info of each listed sku the catalogue sells, in the asked currency and store view. */
export async function renderList(c: Context<AppEnv>, q: z.output<typeof RenderListQuery>) {
  const currency = q.currencyCode ?? c.var.store?.currency ?? 'INR'
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
