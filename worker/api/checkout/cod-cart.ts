/**
 * Cash on delivery's rules for a cart, before the review: the cart's shipping address (or the one
 * the checkout form holds now), its lines and its total, judged by the same `codRefusal` that
 * judges the order at placement.
 */
import type { Context } from 'hono'
import type { AppEnv } from '../../platform/env'
import { type CartRow, cartCurrency, cartTotals, listItems } from '../cart/repo'
import { codRefusal } from './cod'

interface CartAddress {
  country_id?: string
  postcode?: string
  telephone?: string
}

/** Why cash on delivery is refused for this cart (to `address`, else its saved one), or null. */
export async function cartCodRefusal(
  c: Context<AppEnv>,
  cart: CartRow,
  address?: CartAddress,
): Promise<string | null> {
  const saved = cart.shipping_address ? (JSON.parse(cart.shipping_address) as CartAddress) : {}
  const to = address ?? saved
  const items = await listItems(c.env.DB, cart.id)
  // Cash on delivery collects rupees only: the total is judged when the cart is priced in them.
  const priced =
    cartCurrency(c) === 'INR'
      ? await cartTotals(c, { ...cart, shipping_address: JSON.stringify({ ...saved, ...to }) })
      : null
  const ext = priced?.extension_attributes
  return codRefusal(c.env.DB, {
    country: to.country_id,
    postcode: to.postcode,
    phone: to.telephone ?? null,
    skus: items.flatMap((i) => [i.sku, ...(i.parent_sku ? [i.parent_sku] : [])]),
    totalMinor: ext ? ext.grand_total_minor - ext.cod_fee_minor : null,
  })
}
