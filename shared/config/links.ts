/** Links to the shop's pages, built one way everywhere (the route table is `./routes.ts`). */

/** "The fallback product route is named by the product type followed by -product." */
export function productRouteName(typeId: string): string {
  return `${typeId}-product`
}
/** Path of a product page: /p/{parentSku}/{slug}/{childSku?}. */
export function productPath(parentSku: string, slug: string, childSku?: string | null): string {
  const base = `/p/${encodeURIComponent(parentSku)}/${encodeURIComponent(slug)}`
  return childSku && childSku !== parentSku ? `${base}/${encodeURIComponent(childSku)}` : base
}

/** Path of a category page: /c/{slug}. */
export function categoryPath(slug: string): string {
  return `/c/${encodeURIComponent(slug)}`
}

/** Path of a product's AMP page: /amp/p/{parentSku}/{slug}[/{childSku}]. */
export function ampProductPath(parentSku: string, slug: string, childSku?: string | null): string {
  return `/amp${productPath(parentSku, slug, childSku)}`
}

/** Path of a category's AMP page: /amp/c/{slug}. */
export function ampCategoryPath(slug: string): string {
  return `/amp${categoryPath(slug)}`
}
