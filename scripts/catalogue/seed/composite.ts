/**
 * Bundle and grouped products built from simple products: a bundle offers one earring and one bag
 * option, a grouped product lists its parts; price and stock follow from the parts.
 */
import type { BundleOption, Product, ProductLink } from '../../../shared/schemas/catalog'
import type { ColorDef } from '../../../worker/pages/images/palette'
import { addDays, type Ctx, categoryRefs, kebab, productImagePath, threeViews, withParents } from './context'
import { ACCESSORY_OPTION, GENDERS, RTS_OPTIONS } from './data'
import { GENERATED_AT } from './types'

/** What taxes a part as a piece of the set: its own tax class and HSN code (each piece has its own GST slab). */
const pieceTax = (p: Product) => ({ tax_class_id: p.tax_class_id ?? null, hsn_code: p.hsn_code ?? null })

/** A bundle or grouped product of `parts` (all in the jewellery category 30). */
export function compositeProduct(
  ctx: Ctx,
  id: number,
  type: 'bundle' | 'grouped',
  name: string,
  parts: Product[],
  silhouette: string,
  color: ColorDef,
): Product {
  const sku = `${type === 'bundle' ? 'BUN' : 'GRP'}${id}`
  const slug = `${kebab(name)}-${sku.toLowerCase()}`
  const catIds = withParents(ctx, 30)
  const links: ProductLink[] =
    type === 'grouped'
      ? parts.map((p, k) => ({
          sku,
          link_type: 'associated',
          linked_product_sku: p.sku,
          linked_product_type: p.type_id,
          position: k,
          product: { name: p.name, price: p.price, sku: p.sku, ...pieceTax(p) },
        }))
      : []
  const bundle: BundleOption[] =
    type === 'bundle'
      ? [
          {
            option_id: id * 10 + 1,
            title: 'Earrings',
            required: true,
            type: 'radio',
            sku,
            product_links: parts.slice(0, 2).map((p, k) => ({
              id: id * 100 + k + 1,
              sku: p.sku,
              qty: 1,
              is_default: k === 0,
              price: p.price,
              product: { name: p.name, price: p.price, ...pieceTax(p) },
            })),
          },
          {
            option_id: id * 10 + 2,
            title: 'Bag',
            required: true,
            type: 'radio',
            sku,
            product_links: parts.slice(2).map((p, k) => ({
              id: id * 100 + k + 11,
              sku: p.sku,
              qty: 1,
              is_default: false,
              price: p.price,
              product: { name: p.name, price: p.price, ...pieceTax(p) },
            })),
          },
        ]
      : []
  const price =
    type === 'grouped'
      ? parts.reduce((s, p) => s + p.price, 0)
      : (bundle[0]?.product_links[0]?.price ?? 0) + (bundle[1]?.product_links[0]?.price ?? 0)
  const inStock = parts.some((p) => p.stock.is_in_stock)
  return {
    id,
    sku,
    parent_id: null,
    parent_sku: null,
    name,
    type_id: type,
    designer: null,
    designer_name: null,
    description: `<p>${
      type === 'bundle'
        ? 'Choose one of each and save on the set: the pieces are packed together in our gift box.'
        : 'The set as our stylists would wear it; take every piece or only the ones you love.'
    }</p><ul>${parts.map((p) => `<li>${p.name}</li>`).join('')}</ul>`,
    short_description: name,
    price,
    special_price: null,
    special_from_date: null,
    special_to_date: null,
    final_price: price,
    tax_class_id: 2,
    tier_prices: [],
    status: 1,
    visibility: 4,
    created_at: addDays(GENERATED_AT, -30 - (id % 7)),
    updated_at: addDays(GENERATED_AT, -30 - (id % 7)),
    image: productImagePath(silhouette, color.slug),
    thumbnail: productImagePath(silhouette, color.slug),
    small_image: productImagePath(silhouette, color.slug),
    hover_image: productImagePath(silhouette, color.slug, { view: 'back' }),
    media_gallery: threeViews(silhouette, color.slug, name),
    url_key: slug,
    url_path: `${ctx.categories.get(30)?.urlPath ?? 'accessories'}/${slug}`,
    slug,
    meta_title: name,
    meta_description: null,
    category: categoryRefs(ctx, catIds),
    category_ids: catIds,
    product_links: links,
    color: color.id,
    size: null,
    gender: GENDERS[0].id,
    rts: RTS_OPTIONS[0].id,
    discount: null,
    category_product: ACCESSORY_OPTION.id,
    color_options: null,
    size_options: null,
    sale: '0',
    new: '0',
    product_tag: 'Gift Set',
    product_banner: null,
    celeb_image: null,
    international_flag: '0',
    delivery_days: 7,
    rts_qty: null,
    rts_delivery_time: null,
    rts_disclaimer: null,
    stock: { qty: inStock ? 1 : 0, is_in_stock: inStock, stock_status: inStock ? 1 : 0 },
    configurable_options: [],
    configurable_children: [],
    custom_options: [],
    bundle_options: bundle,
  }
}
