/**
 * The variant picker's state and rules. A choice counts only when it configures an available
 * variant; a colour without the current size falls back to that colour's default variant; when
 * nothing matches, the previous choice stays and a wrong-attributes notice is shown. The chosen
 * variant's image leads the gallery, the URL's childSku follows the choice, and the product is
 * reloaded on a choice unless a load started within the last 20 s (a failed reload says so and
 * steps back). With price tiers on, login or logout reloads the product, skipping the cache.
 */

import type { FormChild, FormProduct } from '@shared/components/product/view'
import { FLAGS } from '@shared/config/flags'
import { isVariantAvailable, shouldStartLoad } from '@shared/domain/availability'
import {
  configureVariant,
  defaultVariant,
  isSizeSelected,
  selectionFromChild,
  type VariantSelection,
} from '@shared/domain/variants'
import { MSG } from '@shared/i18n/messages'
import { useEffect, useRef, useState } from 'react'
import { bus, EVENTS } from '../../engines/runtime/events'
import { notify } from '../../state/notifications'
import { togglePanel } from '../../state/ui'
import { AVAILABILITY } from './availability-settings'
import { type GalleryImage, selectedVariantImage } from './product-page-state'
import { variantUrl } from './variant-url'

/** The product fetched again (the fetch and its mapping load on first use). */
function reloadFormProduct(sku: string): Promise<FormProduct | null> {
  return import('./fresh-product').then((m) => m.freshFormProduct(sku))
}

function initialVariant(product: FormProduct, childSku: string | null, now: number): FormChild | null {
  if (product.type_id !== 'configurable') return null
  return defaultVariant(product, now, childSku, AVAILABILITY)
}

type Configured = { notice: string | null; variant: FormChild | null }

/** A configuration the shopper may keep: no notice and an available variant. */
function usable(r: Configured): r is { notice: null; variant: FormChild } {
  return !r.notice && !!r.variant && isVariantAvailable(r.variant, AVAILABILITY)
}

/** The variant a choice leads to, and whether the chosen size still holds; null result when nothing matches. */
export function resolveChoice(
  product: FormProduct,
  selection: VariantSelection,
  attribute: string,
  value: number,
): { result: Configured; keepSize: boolean } {
  const result = configureVariant(product, selection, attribute, value, AVAILABILITY)
  if (!usable(result) && attribute !== 'size' && selection.size != null) {
    const withoutSize = configureVariant(
      product,
      { ...selection, size: null },
      attribute,
      value,
      AVAILABILITY,
    )
    if (usable(withoutSize)) return { result: withoutSize, keepSize: false }
  }
  return { result, keepSize: true }
}

export function useVariantChoice(input: {
  initial: { product: FormProduct; childSku: string | null; now: number }
  product: FormProduct
  setProduct: (p: FormProduct) => void
  variantImages: Record<string, GalleryImage>
  /** The size guide panel is open (a chosen size closes it). */
  sizeGuideOpen: boolean
}) {
  const { initial, product, setProduct } = input
  const [variant, setVariant] = useState<FormChild | null>(() =>
    initialVariant(initial.product, initial.childSku, initial.now),
  )
  const [selection, setSelection] = useState<VariantSelection>(() =>
    variant ? selectionFromChild(initial.product, variant) : {},
  )
  // A size counts as chosen once the shopper picks one; a size in the URL counts as chosen too.
  const [sizeChosen, setSizeChosen] = useState(
    () => !!initial.childSku && !!variant && isSizeSelected(selection),
  )
  const [needSize, setNeedSize] = useState(false)
  const lastLoad = useRef<number>(initial.now)
  // The variant chosen last: a reload answers for the product as it is now, so it refreshes this
  // choice, never the one that started it (a second choice may come before the reload's answer).
  const chosenSku = useRef<string | null>(variant?.sku ?? null)

  useEffect(
    () =>
      bus.on(EVENTS.productReloadNoCache, () => {
        lastLoad.current = Date.now()
        reloadFormProduct(product.sku)
          .then((fresh) => {
            if (fresh) setProduct(fresh)
          })
          .catch((err) => console.warn('[product] reload failed', err))
      }),
    [product.sku, setProduct],
  )

  function applyVariant(next: FormChild, nextSelection: VariantSelection) {
    chosenSku.current = next.sku
    setVariant(next)
    setSelection(nextSelection)
    selectedVariantImage.value = input.variantImages[next.sku] ?? null
    if (FLAGS.updateUrlChildSku && typeof window !== 'undefined') {
      window.history.replaceState(window.history.state, '', variantUrl(window.location, product, next.sku))
    }
    const t = Date.now()
    if (!shouldStartLoad(lastLoad.current, t)) return
    lastLoad.current = t
    reloadFormProduct(product.sku)
      .then((view) => {
        if (!view) throw new Error('product gone')
        setProduct(view)
        const same = view.configurable_children.find((c) => c.sku === chosenSku.current)
        if (same) setVariant(same)
      })
      .catch((err) => {
        console.warn('[product] reload failed', err)
        notify({ type: 'error', message: MSG.productLoadFailed, action1: { label: MSG.ok } })
        window.history.back()
      })
  }

  function choose(attribute: string, value: number) {
    const { result, keepSize } = resolveChoice(product, selection, attribute, value)
    if (!usable(result)) {
      notify({ type: 'warning', message: result.notice ?? MSG.wrongAttributes })
      setSelection({ ...selection })
      return
    }
    if (!keepSize) setSizeChosen(false)
    if (attribute === 'size') {
      setSizeChosen(true)
      setNeedSize(false)
      if (input.sizeGuideOpen) togglePanel('sizeselector')
    }
    applyVariant(result.variant, selectionFromChild(product, result.variant))
  }

  return { variant, selection, sizeChosen, needSize, setNeedSize, choose }
}
