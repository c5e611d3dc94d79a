/**
 * The product as the form shows it, fetched again (a variant choice, or login/logout with price
 * tiers): null when the product is gone or rejected. Loaded only when a reload happens, so the
 * API client and the view mapping stay out of the product page's first load.
 */
import { type FormProduct, toFormProduct } from '@shared/components/product/view'
import { reloadProduct } from './reload'

export async function freshFormProduct(sku: string): Promise<FormProduct | null> {
  const fresh = await reloadProduct(sku)
  return fresh ? toFormProduct(fresh) : null
}
