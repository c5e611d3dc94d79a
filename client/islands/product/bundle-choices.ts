/** The bundle options as the form holds them (the chosen link and a typed quantity per option), and as the price rules read them. */
import type { FormProduct } from '@shared/components/product/view'
import { toQuantity } from '@shared/domain/options'
import { type BundleSelection, defaultBundleLink } from '@shared/domain/price-parts'

export type BundleChoices = Record<number, { linkId: number | null; qty: string }>

/** Each option's default link (else the first) with its quantity (else 1). */
export function initialBundle(product: FormProduct): BundleChoices {
  const out: BundleChoices = {}
  for (const option of product.bundle_options) {
    const link = defaultBundleLink(option)
    out[option.option_id] = { linkId: link?.id ?? null, qty: String(link?.qty ?? 1) }
  }
  return out
}

/** The choices as a price/validation selection (a quantity that is not a number counts as 0). */
export function bundleSelectionOf(choices: BundleChoices): BundleSelection {
  const sel: BundleSelection = {}
  for (const [id, c] of Object.entries(choices)) sel[id] = { linkId: c.linkId, qty: toQuantity(c.qty) || 0 }
  return sel
}
