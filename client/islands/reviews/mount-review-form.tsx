/**
 * Mounts the review form into the product page's slot `<div id="product-reviews-form"
 * data-product-id>` (rendered empty by the product route), loaded only on pages that have the slot.
 */
import { createRoot } from 'react-dom/client'
import { ReviewFormIsland } from './review-form'

const REVIEW_SLOT_ID = 'product-reviews-form'

/** Renders the form into the slot once; no-op without a slot or a numeric product id. */
export function mountReviewForm(doc: Document = document): boolean {
  const slot = doc.getElementById(REVIEW_SLOT_ID)
  if (!slot || slot.dataset.mounted) return false
  const productId = Number(slot.dataset.productId)
  if (!Number.isInteger(productId) || productId <= 0) return false
  slot.dataset.mounted = 'true'
  const { Component } = ReviewFormIsland
  createRoot(slot).render(<Component productId={productId} productName={slot.dataset.productName} />)
  return true
}
