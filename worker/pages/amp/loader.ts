/**
 * AMP page data, by the same rules as the canonical pages: the product and its metadata as the
 * product page loads them, the category trail and listing ids as the category page computes them,
 * breadcrumbs by the shared breadcrumb rule (with links to the AMP pages) and attribute values
 * formatted as on the product page. A missing or rejected product or category is a 404 with its
 * message; a product URL the product page would redirect (a variant as the parent, a junk
 * childSku) redirects the same way, to the AMP page, before anything else is read or rendered.
 */

import { attributeLabel, attributeValue, formatAttributeValue } from '@shared/components/product/view'
import { ampCategoryPath, ampProductPath } from '@shared/config/links'
import { isProductInStock, isTileVisible, productRejection, variantsError } from '@shared/domain/availability'
import { type Breadcrumb, breadcrumbs, descendantIds } from '@shared/domain/menu'
import { priceView } from '@shared/domain/price'
import { MSG, PAGE_TEXT } from '@shared/i18n/messages'
import type { Category, ConfigurableChild, Product, TaxRule } from '@shared/schemas/catalog'
import type { Context } from 'hono'
import { HTTPException } from 'hono/http-exception'
import { getCommerce } from '../../commerce'
import { markDegraded } from '../../platform/cache/output-cache'
import type { AppEnv } from '../../platform/env'
import { htmlToText } from '../../platform/render/seo'
import { categoryChain } from '../category/loader'
import { productMetadata, productUrlRedirect } from '../product/loader'

/** The attributes the AMP product page lists under 'Product details', when shown on the front. */
const DETAIL_ATTRIBUTES = ['designer', 'color', 'size', 'gender', 'material', 'fabric', 'occasion', 'care']
/** Products an AMP category page shows (newest first). */
const AMP_CATEGORY_SIZE = 48

/** Breadcrumbs over a top-down category trail, each category linking to its AMP page. */
function ampCrumbs(trail: readonly Category[], activeLabel?: string): Breadcrumb[] {
  // The shared rule links a category by its url path when told to; here that path is the AMP page.
  const amp = trail.map((cat) => ({ ...cat, url_path: ampCategoryPath(cat.slug) }))
  return breadcrumbs(amp, activeLabel, true)
}

interface AmpProductData {
  product: Product
  child: ConfigurableChild | null
  price: ReturnType<typeof priceView>
  qty: number
  inStock: boolean
  variantError: string | null
  /** Gallery images: the variant's, the product's gallery, the product image (no repeats). */
  images: string[]
  crumbs: Breadcrumb[]
  details: { label: string; value: string }[]
  description: string
  taxRules: TaxRule[]
  now: number
}

export async function loadAmpProduct(
  c: Context<AppEnv>,
  params: { parentSku: string; childSku?: string | null; qty?: string },
): Promise<AmpProductData | { redirect: string }> {
  const commerce = getCommerce(c)
  // Asked for together with the product, so their reads share its round trip to the database.
  const reference = Promise.all([
    productMetadata(c, commerce),
    commerce.getCategoryTree().catch(() => {
      markDegraded(c)
      return [] as Category[]
    }),
  ])
  const found = await commerce.getProduct({ parentSku: params.parentSku, childSku: params.childSku ?? null })
  if (!found) throw new HTTPException(404, { message: PAGE_TEXT.productQueryEmpty })
  const { product } = found
  const child = found.child ?? null
  const redirect = productUrlRedirect(product, child, params, ampProductPath)
  if (redirect) return { redirect }
  const rejection = productRejection(product)
  if (rejection) throw new HTTPException(404, { message: rejection })
  const [{ attributes, taxRules }, tree] = await reference
  const { currency, country } = c.var.store
  const qty = Math.min(99, Math.max(1, Number.parseInt(params.qty ?? '1', 10) || 1))
  const now = Date.now()
  const trail = product.category_ids.map((id) => categoryChain(tree, id)).find((chain) => chain.length) ?? []
  const doc = (child ? { ...product, ...child } : product) as Record<string, unknown>
  return {
    product,
    child,
    price: priceView(product, { now, currency, taxRules, country, variantSku: child?.sku ?? null, qty }),
    qty,
    inStock: child ? child.stock.is_in_stock : isProductInStock(product),
    variantError: variantsError(product, { listOutOfStock: true }),
    images: [
      ...(child?.image ? [child.image] : []),
      ...product.media_gallery.map((m) => m.image),
      ...(product.image ? [product.image] : []),
    ].filter((v, i, a) => v && a.indexOf(v) === i),
    crumbs: ampCrumbs(trail, product.name),
    details: attributes
      .filter((a) => DETAIL_ATTRIBUTES.includes(a.attribute_code) && a.is_visible_on_front)
      .map((a) => ({
        label: attributeLabel(a),
        value: formatAttributeValue(a, attributeValue(doc, a.attribute_code), MSG.notAvailablePlaceholder),
      })),
    description: htmlToText(product.description),
    taxRules,
    now,
  }
}

interface AmpCategoryData {
  category: Category
  crumbs: Breadcrumb[]
  /** The newest products of the category and its descendants a visitor may see. */
  items: Product[]
  total: number
  taxRules: TaxRule[]
  now: number
}

export async function loadAmpCategory(c: Context<AppEnv>, slug: string): Promise<AmpCategoryData> {
  const commerce = getCommerce(c)
  const category = await commerce.getCategoryBySlug(slug)
  if (!category?.is_active)
    throw new HTTPException(404, { message: `Category query returned empty result slug = ${slug}` })
  const [tree, taxRules, listing] = await Promise.all([
    commerce.getCategoryTree(),
    commerce.getTaxRules(),
    commerce.searchProducts({
      categoryIds: descendantIds(category),
      sort: { field: 'updated_at', order: 'desc' },
      size: AMP_CATEGORY_SIZE,
    }),
  ])
  const chain = categoryChain(tree, category.id)
  return {
    category,
    crumbs: ampCrumbs(chain.length ? chain : [category]),
    items: listing.items.filter((p) => isTileVisible(p, c.var.store.currency)),
    total: listing.total,
    taxRules,
    now: Date.now(),
  }
}
