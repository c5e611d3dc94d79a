/**
 * "Complete the look" under the bag: the pieces the bag's products are linked to, or, short of
 * those, "You may also like": pieces by the same designer or from the same category (GET
 * /api/cart/look, which applies the product page's rule and leaves out what is already in the bag),
 * each addable in one step (AddToBag, as on the wishlist: a piece with sizes asks for its size in
 * place, a piece the bag cannot take as it is leads to its page). Nothing is shown when there is nothing to offer or the
 * request fails. The cart page loads this module only after its lines are on screen.
 */
import { ListImage } from '@shared/components/catalog/list-image'
import { useEffect, useState } from 'react'
import { apiRaw } from '../../api'
import type { CartLine } from '../../state/cart'
import { AddToBag } from '../lists/add-to-bag'
import type { BagOffer } from '../lists/bag-choices'

/** A piece as GET /api/cart/look answers it (worker/api/cart/look.ts builds it). */
export interface LookPiece {
  sku: string
  name: string
  url: string
  image: string | null
  designer: string | null
  /** Unit price in the base currency incl. tax. */
  price: number
  /** The price in the shopper's currency, as the shop writes it. */
  formatted: string
  offer: BagOffer
}

/** The product skus of the bag's lines (a variant's product, else the line's own sku), sorted. */
function bagProductSkus(lines: readonly CartLine[]): string[] {
  return [...new Set(lines.map((l) => l.parentSku ?? l.sku))].sort()
}

export default function CartLook({ lines }: { lines: readonly CartLine[] }) {
  const key = bagProductSkus(lines).join(',')
  const [look, setLook] = useState<{ linked?: boolean; items?: LookPiece[] }>({})
  useEffect(() => {
    if (!key) return setLook({})
    const controller = new AbortController()
    void apiRaw('cart/look', { query: { sku: key }, signal: controller.signal })
      .then(({ status, body }) =>
        setLook(status === 200 ? ((body as { result?: typeof look }).result ?? {}) : {}),
      )
      .catch(() => undefined)
    return () => controller.abort()
  }, [key])
  const pieces = look.items ?? []
  if (pieces.length === 0) return null
  return (
    <section className="recommendations cart-look" aria-labelledby="cart-look-title" data-testid="cart-look">
      <h2 id="cart-look-title">{look.linked ? 'Complete the look' : 'You may also like'}</h2>
      <ul className="recommendations__list">
        {pieces.map((p) => (
          <li key={p.sku} className="recommendations__item" data-sku={p.sku}>
            <a href={p.url}>
              <ListImage path={p.image} size="listing" />
              {p.designer ? <span className="recommendations__designer">{p.designer}</span> : null}
              <span className="recommendations__name">{p.name}</span>
            </a>
            <span className="price">{p.formatted}</span>
            <AddToBag piece={p} offer={p.offer} action="Add to bag" />
          </li>
        ))}
      </ul>
    </section>
  )
}
