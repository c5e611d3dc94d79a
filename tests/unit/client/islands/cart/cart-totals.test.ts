// The totals the cart and checkout show, and the cart's thumbnails.
import { describe, expect, it } from 'vitest'
import { cartThumbnail, lineMadeToOrder } from '../../../../../client/islands/cart/cart-line-view'
import { clientTotals, displayedSegments } from '../../../../../client/islands/cart/cart-totals'
import type { CartLine } from '../../../../../client/state/cart'
import { IMAGE_SIZES } from '../../../../../shared/config/images'

const lines: CartLine[] = [
  { sku: 'A', name: 'A', qty: 2, priceInclTax: 100 },
  { sku: 'B', name: 'B', qty: 1, priceInclTax: 250 },
]

describe('cart totals', () => {
  it('sums the lines client-side with free shipping when the server sent no segments', () => {
    expect(clientTotals(lines)).toMatchObject({ subtotal: 450, grand_total: 450 })
    expect(displayedSegments(null, lines).map((s) => [s.code, s.value])).toEqual([
      ['subtotal', 450],
      ['shipping', 0],
      ['grand_total', 450],
    ])
    expect(displayedSegments({ total_segments: [] }, lines)).toEqual(clientTotals(lines).total_segments)
  })

  it("shows the server's segments whenever it sent some", () => {
    const server = [{ code: 'grand_total', title: 'Grand Total', value: 399 }]
    expect(displayedSegments({ total_segments: server }, lines)).toBe(server)
  })

  it('is zero for an empty cart', () => {
    expect(clientTotals([]).grand_total).toBe(0)
  })
})

describe('cart thumbnail', () => {
  it('asks for the cart image size, and the placeholder for a missing image', () => {
    const { width, height } = IMAGE_SIZES.cart
    expect(cartThumbnail('/a/b.jpg')).toContain(String(width))
    expect(cartThumbnail('/a/b.jpg')).toContain(String(height))
    expect(cartThumbnail(undefined)).toBe(cartThumbnail(null))
  })
})

describe('made to order on a cart line', () => {
  const line = (totals: unknown) => ({ sku: 'X', qty: 1, totals }) as unknown as CartLine
  it("shows the server's line for a piece made to order, and nothing otherwise", () => {
    const note = 'Made to order — ships by Tue, 15 Dec'
    expect(lineMadeToOrder(line({ extension_attributes: { made_to_order: note } }))).toBe(note)
    expect(lineMadeToOrder(line({ extension_attributes: { options: [] } }))).toBeNull()
    expect(lineMadeToOrder(line({ extension_attributes: { made_to_order: 7 } }))).toBeNull()
    expect(lineMadeToOrder(line(undefined))).toBeNull()
  })
})
