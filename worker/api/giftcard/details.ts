/**
 * The e-gift card's delivery details (shared/domain/gift-card-details.ts) checked where a line is
 * configured: a cart add or an order refuses details that could not be delivered, in words.
 */
import { shopTimeZone } from '@shared/config/store'
import { giftDetailsFromOptions, giftDetailsProblem } from '@shared/domain/gift-card-details'
import type { CustomOptionSelection } from '@shared/domain/price-parts'
import { zonedDate } from '@shared/domain/shop-clock'
import type { Product } from '@shared/schemas/catalog'

/** The shop's calendar day now ('YYYY-MM-DD'). */
const shopToday = (now: number) => zonedDate(now, shopTimeZone())

/** Why a line's gift card details cannot be used, or null (also null for any other product). */
export function giftOptionsProblem(
  product: Pick<Product, 'custom_options'>,
  selection: CustomOptionSelection | undefined,
  now: number,
): string | null {
  const texts = (product.custom_options ?? [])
    .filter((o) => o.type === 'field')
    .map((o) => ({ label: o.title, value: String(selection?.[o.option_id] ?? '') }))
  return giftDetailsProblem(giftDetailsFromOptions(texts), shopToday(now))
}
