/**
 * What the product form puts into the cart: one line for a simple, configurable or bundle product
 * (with its chosen configurable, custom and bundle options), or one line per associated product
 * of a grouped product with a valid quantity. Pure.
 */
import type { FormChild, FormProduct } from '@shared/components/product/view'
import {
  isValidGroupedQty,
  toQuantity,
  validateBundleOptions,
  validateCustomOptions,
} from '@shared/domain/options'
import type { PriceView } from '@shared/domain/price'
import type { GroupedQuantities } from '@shared/domain/price-parts'
import type { VariantSelection } from '@shared/domain/variants'
import type { AddToCartLine } from './add-to-cart'
import { type BundleChoices, bundleSelectionOf } from './bundle-choices'
import { isOutOfStockPiece } from './set-pieces'

export type CustomValues = Record<number, string | number | number[] | null>

/** The custom and bundle options' field errors (keyed by field) and the product-level error that blocks the add, if any. */
export function checkOptions(
  product: FormProduct,
  custom: CustomValues,
  bundle: BundleChoices,
): { errors: Record<string, string>; productError: string | null } {
  const customCheck = validateCustomOptions(product.custom_options, custom)
  const bundleCheck = validateBundleOptions(product.bundle_options, bundleSelectionOf(bundle))
  return {
    errors: { ...customCheck.errors, ...bundleCheck.errors },
    productError: customCheck.productError ?? bundleCheck.productError ?? null,
  }
}

/** A grouped product's piece known to be out of stock. */
export function isPieceOutOfStock(link: FormProduct['product_links'][number]): boolean {
  return isOutOfStockPiece(link.product)
}

/** A grouped product's piece whose own options must be chosen on its page first (its URL), else null. */
export function pieceOptionsUrl(link: FormProduct['product_links'][number]): string | null {
  const url = (link.product as { options_url?: unknown } | null | undefined)?.options_url
  return typeof url === 'string' ? url : null
}

/** A grouped product's piece the page can add: known, in stock, and with no options of its own to choose. */
function isAddablePiece(link: FormProduct['product_links'][number]): boolean {
  return !!link.product && !isPieceOutOfStock(link) && !pieceOptionsUrl(link)
}

/**
 * The pieces of a grouped product the shopper chose, by sku: each addable piece at its typed
 * quantity (1 when untouched); a quantity that is not a whole number of at least 1, a piece out of
 * stock or one needing options chosen on its own page is left out. The page's price is of exactly
 * these, and the add puts exactly these in the bag.
 */
export function groupedChoice(product: FormProduct, quantities: Record<string, string>): GroupedQuantities {
  const chosen: Record<string, number> = {}
  for (const link of product.product_links) {
    const q = quantities[link.linked_product_sku] ?? '1'
    if (isValidGroupedQty(q) && isAddablePiece(link)) chosen[link.linked_product_sku] = toQuantity(q)
  }
  return chosen
}

/** The chosen options of the line, in the cart's `product_option.extension_attributes` shape. */
function productOption(
  product: FormProduct,
  selection: VariantSelection,
  custom: CustomValues,
  bundle: BundleChoices,
) {
  return {
    extension_attributes: {
      configurable_item_options: product.configurable_options
        .filter((o) => selection[o.attribute_code] != null)
        .map((o) => ({
          option_id: String(o.attribute_id),
          option_value: String(selection[o.attribute_code]),
          label: o.label,
          value: o.values.find((v) => v.value_index === selection[o.attribute_code])?.label ?? '',
        })),
      custom_options: Object.entries(custom)
        .filter(([, v]) => v != null && v !== '' && !(Array.isArray(v) && v.length === 0))
        .map(([id, v]) => ({
          option_id: Number(id),
          option_value: Array.isArray(v) ? v.join(',') : String(v),
        })),
      // Only chosen links with a quantity: the server stores exactly these (an optional option
      // set to 0 is not part of the bundle).
      bundle_options: Object.entries(bundle)
        .filter(([, c]) => c.linkId != null && toQuantity(c.qty) > 0)
        .map(([id, c]) => ({
          option_id: Number(id),
          option_qty: toQuantity(c.qty) || 0,
          option_selections: [c.linkId as number],
        })),
    },
  }
}

/** The line of a simple, configurable (the chosen child) or bundle product at the shown price. */
export function productCartLine(input: {
  product: FormProduct
  variant: FormChild | null
  selection: VariantSelection
  custom: CustomValues
  bundle: BundleChoices
  price: PriceView
  quantity: number
}): AddToCartLine {
  const { product, variant, price } = input
  const { qty, is_in_stock, stock_status } = variant?.stock ?? product.stock
  return {
    sku: variant?.sku ?? product.sku,
    parentSku: product.sku,
    name: product.name,
    qty: input.quantity,
    type_id: product.type_id,
    slug: product.slug,
    url_path: product.url_path,
    image: variant?.image ?? product.image ?? null,
    priceInclTax: price.finalInclTax,
    originalPriceInclTax: price.regularInclTax,
    finalDiscount: price.discountPercent,
    stock: { qty, is_in_stock, stock_status: stock_status ?? undefined },
    product_option: productOption(product, input.selection, input.custom, input.bundle),
  }
}
