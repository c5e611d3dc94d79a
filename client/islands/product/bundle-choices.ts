/** The bundle options as the form holds them (the chosen link and a typed quantity per option), and as the price rules read them. */
import type { FormProduct } from '@shared/components/product/view'
import { toQuantity } from '@shared/domain/options'
import { type BundleSelection, defaultBundleLink } from '@shared/domain/price-parts'
import { isOutOfStockPiece } from './set-pieces'

export type BundleChoices = Record<number, { linkId: number | null; qty: string }>

/**
 * Each option's default link (else the first) with its quantity (else 1); when that piece is out of
 * stock, the option's first piece in stock instead.
 */
export function initialBundle(product: FormProduct): BundleChoices {
  const out: BundleChoices = {}
  for (const option of product.bundle_options) {
    const preferred = defaultBundleLink(option)
    const link = isOutOfStockPiece(preferred?.product)
      ? (option.product_links.find((l) => !isOutOfStockPiece(l.product)) ?? preferred)
      : preferred
    out[option.option_id] = { linkId: link?.id ?? null, qty: String(link?.qty ?? 1) }
  }
  return out
}

/** A bundle is in stock when every piece chosen (at a quantity above 0) is: the set is as available as its scarcest piece. */
export function bundleInStock(product: FormProduct, choices: BundleChoices): boolean {
  return product.bundle_options.every((option) => {
    const c = choices[option.option_id]
    const link = option.product_links.find((l) => l.id === c?.linkId)
    return !link || !(toQuantity(c?.qty) > 0) || !isOutOfStockPiece(link.product)
  })
}

/** The choices as a price/validation selection (a quantity that is not a number counts as 0). */
export function bundleSelectionOf(choices: BundleChoices): BundleSelection {
  const sel: BundleSelection = {}
  for (const [id, c] of Object.entries(choices)) sel[id] = { linkId: c.linkId, qty: toQuantity(c.qty) || 0 }
  return sel
}
