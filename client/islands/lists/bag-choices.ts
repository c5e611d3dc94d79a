/**
 * What a wishlist piece can be moved to the bag as: a simple piece as itself; a configurable one
 * as one of its variants, named by its options ("Red / M"), a sold-out variant listed but not
 * choosable; nothing when the piece is gone or sold out in every size, said in words.
 */
import { isChildInStock, isProductInStock, productRejection } from '@shared/domain/availability'
import type { Product } from '@shared/schemas/catalog'

interface BagChoice {
  sku: string
  label: string
  soldOut: boolean
  /** The line's options in the cart's `product_option` shape. */
  productOption?: unknown
}

export type BagOffer =
  | { kind: 'gone' }
  | { kind: 'sold-out' }
  /** Needs options the wishlist cannot ask for (a bundle, a gift card's details…): on its page. */
  | { kind: 'on-page' }
  | { kind: 'piece'; sku: string }
  | { kind: 'sizes'; choices: BagChoice[]; label: string }

/** The offer for a wishlist piece from its catalogue product (null: not found or withdrawn). */
export function bagOffer(product: Product | null): BagOffer {
  if (!product || productRejection(product)) return { kind: 'gone' }
  if (product.type_id === 'configurable') {
    const options = product.configurable_options
    const choices = product.configurable_children
      .filter((c) => (c.status ?? 1) < 2)
      .map((child) => {
        const picked = options.map((o) => {
          const id = Number((child as Record<string, unknown>)[o.attribute_code])
          const value = o.values.find((v) => v.value_index === id)
          return { option: o, id, label: value?.label ?? '' }
        })
        return {
          sku: child.sku,
          label: picked.map((p) => p.label).join(' / '),
          soldOut: !isChildInStock(child),
          productOption: {
            extension_attributes: {
              configurable_item_options: picked.map((p) => ({
                option_id: String(p.option.attribute_id),
                option_value: String(p.id),
                label: p.option.label,
                value: p.label,
              })),
              custom_options: [],
              bundle_options: [],
            },
          },
        }
      })
    if (choices.length === 0 || choices.every((c) => c.soldOut)) return { kind: 'sold-out' }
    return { kind: 'sizes', choices, label: options.map((o) => o.label).join(' / ') || 'Size' }
  }
  if (product.type_id !== 'simple' && product.type_id !== 'virtual') return { kind: 'on-page' }
  if ((product.custom_options ?? []).some((o) => o.is_require || o.type === 'field'))
    return { kind: 'on-page' }
  return isProductInStock(product) ? { kind: 'piece', sku: product.sku } : { kind: 'sold-out' }
}
