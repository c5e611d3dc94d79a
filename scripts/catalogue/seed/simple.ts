/**
 * Simple, virtual and downloadable products (jewellery, bags, gift cards, e-books): one document
 * and one inventory row each, some with a present special price or engraving custom options.
 */

import { GIFT_CARD_LABELS, isGiftCard } from '../../../shared/domain/gift-card-details'
import type { Product } from '../../../shared/schemas/catalog'
import type { ColorDef } from '../../../worker/pages/images/palette'
import {
  addDays,
  type Ctx,
  categoryRefs,
  kebab,
  productImagePath,
  specialApplies,
  threeViews,
  withParents,
} from './context'
import { choiceOption, textOption } from './custom-options'
import { ACCESSORY_OPTION, DESIGNERS, GENDERS, GIFT_OPTION, RTS_OPTIONS } from './data'
import { GENERATED_AT, type InventorySeedRow, WINDOWS } from './types'

export interface SimpleSpec {
  name: string
  type: 'simple' | 'virtual' | 'downloadable'
  categoryId: number
  price: number
  silhouette: string
  color: ColorDef
  qty: number
  special?: number
  customOptions?: boolean
  /** Its HSN code (goods only; gift cards and downloads have none). */
  hsn?: string
  /** What it is, in a sentence or two (the description's first paragraph). */
  about: string
}

/** The simple, virtual or downloadable product `s` with entity id `id`. */
export function simpleProduct(
  ctx: Ctx,
  id: number,
  s: SimpleSpec,
): { product: Product; inventory: InventorySeedRow } {
  const sku = `${s.type === 'simple' ? 'ACC' : s.type === 'virtual' ? 'VIR' : 'DWN'}${id}`
  const slug = `${kebab(s.name)}-${sku.toLowerCase()}`
  const catIds = withParents(ctx, s.categoryId)
  const special = s.special ?? null
  const applies = specialApplies(s.price, special, WINDOWS.present.from, WINDOWS.present.to)
  if (applies) catIds.push(6)
  const createdAt = addDays(GENERATED_AT, -((id * 7) % 400) - 1)
  const gift = s.type !== 'simple'
  // An e-gift card asks whom it is for, a message and a send date (optional text options).
  const eGift = isGiftCard({ product_type: s.type, name: s.name })
  const product: Product = {
    id,
    sku,
    parent_id: null,
    parent_sku: null,
    name: s.name,
    type_id: s.type,
    // Gift cards, services and downloads are the house's own: no designer.
    designer: gift ? null : (DESIGNERS[id % DESIGNERS.length]?.id ?? null),
    designer_name: gift ? null : (DESIGNERS[id % DESIGNERS.length]?.label ?? null),
    description: `<p>${s.about}</p><p>${
      eGift
        ? 'E-mailed to you, or to the person you name with your message on the day you choose; redeemed in their account as store credit, valid for 12 months.'
        : s.type === 'virtual'
          ? 'Sent by e-mail within minutes of payment; valid for 12 months online and in our stores.'
          : s.type === 'downloadable'
            ? 'A PDF to download from your account as soon as the order is paid.'
            : 'Made by hand, so no two pieces are exactly alike. Comes in a cotton pouch in our gift box.'
    }</p>`,
    short_description: s.name,
    price: s.price,
    special_price: special,
    special_from_date: special ? WINDOWS.present.from : null,
    special_to_date: special ? WINDOWS.present.to : null,
    final_price: applies ? (special as number) : s.price,
    tax_class_id: gift ? 5 : 2,
    hsn_code: s.hsn ?? null,
    tier_prices: [],
    status: 1,
    visibility: 4,
    created_at: createdAt,
    updated_at: createdAt,
    image: productImagePath(s.silhouette, s.color.slug),
    thumbnail: productImagePath(s.silhouette, s.color.slug),
    small_image: productImagePath(s.silhouette, s.color.slug),
    hover_image: productImagePath(s.silhouette, s.color.slug, { view: 'back' }),
    media_gallery: threeViews(s.silhouette, s.color.slug, s.name),
    url_key: slug,
    url_path: `${ctx.categories.get(s.categoryId)?.urlPath ?? 'accessories'}/${slug}`,
    slug,
    meta_title: s.name,
    meta_description: `${s.name} from our ${ctx.categories.get(s.categoryId)?.name ?? 'accessories'} collection.`,
    category: categoryRefs(ctx, catIds),
    category_ids: catIds,
    product_links: [],
    color: s.color.id,
    size: null,
    gender: GENDERS[0].id,
    rts: RTS_OPTIONS[0].id,
    discount: null,
    category_product: gift ? GIFT_OPTION.id : ACCESSORY_OPTION.id,
    color_options: null,
    size_options: null,
    sale: applies ? '1' : '0',
    new: '0',
    product_tag: null,
    product_banner: null,
    celeb_image: null,
    international_flag: '0',
    delivery_days: gift ? 0 : 5,
    rts_qty: gift ? null : Math.min(s.qty, 3) || null,
    rts_delivery_time: gift ? null : '2-3 business days',
    rts_disclaimer: null,
    stock: { qty: s.qty, is_in_stock: s.qty > 0, stock_status: s.qty > 0 ? 1 : 0 },
    configurable_options: [],
    configurable_children: [],
    custom_options: eGift
      ? [
          textOption(id, 1, GIFT_CARD_LABELS.name, 0),
          textOption(id, 2, GIFT_CARD_LABELS.email, 0),
          textOption(id, 3, GIFT_CARD_LABELS.message, 0),
          textOption(id, 4, GIFT_CARD_LABELS.sendOn, 0),
        ]
      : s.customOptions
        ? [
            textOption(id, 1, 'Engraving', 300, true),
            choiceOption(id, 2, 'Finish', 'drop_down', false, [
              ['Gold plated', 0, 'fixed'],
              ['Rose gold plated', 5, 'percent'],
            ]),
          ]
        : [],
    bundle_options: [],
  }
  return { product, inventory: { sku, product_id: id, parent_sku: null, qty: s.qty, is_in_stock: true } }
}
