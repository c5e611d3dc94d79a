/** The product page's URL after choosing a variant. */
import type { FormProduct } from '@shared/components/product/view'
import { productPath } from '@shared/config/links'

/** The URL after choosing a variant: /p/... paths get the childSku segment, url_path pages a ?childSku=. */
export function variantUrl(
  location: { pathname: string; search: string },
  product: FormProduct,
  childSku: string,
): string {
  if (location.pathname.startsWith('/p/')) return productPath(product.sku, product.slug, childSku)
  const params = new URLSearchParams(location.search)
  params.set('childSku', childSku)
  return `${location.pathname}?${params.toString()}`
}
