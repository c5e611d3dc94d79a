/**
 * "Move to bag" on the wishlist page: each piece is looked up in the catalogue once (one search for
 * the whole list), a configurable piece asks for its size in place (sold-out sizes shown, not
 * choosable), a piece sold out or gone says so in words, and a piece moved is added to the bag
 * (the cart engine's add rules) and then taken off the wishlist.
 */

import type { ProductSummary } from '@shared/components/product/summary'
import { termsQuery } from '@shared/domain/terms-query'
import type { Product } from '@shared/schemas/catalog'
import { useEffect, useId, useState } from 'react'
import { apiRaw } from '../../api'
import { wishlist } from '../../state/wishlist'
import { addToCart } from '../product/add-to-cart'
import { CATALOG_PRODUCT_SEARCH, productFromSearch } from '../product/reload'
import { type BagOffer, bagOffer } from './bag-choices'

/** The catalogue offers of the listed skus (undefined while loading). */
export function useBagOffers(skus: readonly string[]): Map<string, BagOffer> | undefined {
  const key = [...skus].sort().join(',')
  const [offers, setOffers] = useState<Map<string, BagOffer>>()
  useEffect(() => {
    const list = key ? key.split(',') : []
    if (list.length === 0) return setOffers(new Map())
    void apiRaw(CATALOG_PRODUCT_SEARCH, {
      query: { request: JSON.stringify(termsQuery('sku', list)), size: list.length, from: 0 },
    })
      .then(({ status, body }) =>
        setOffers(
          new Map(list.map((sku) => [sku, bagOffer(status === 200 ? productFromSearch(body, sku) : null)])),
        ),
      )
      .catch(() => setOffers(new Map()))
  }, [key])
  return offers
}

export function MoveToBag({ item, offer }: { item: ProductSummary; offer: BagOffer | undefined }) {
  const id = useId()
  const [chosen, setChosen] = useState('')
  const [note, setNote] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  if (!offer) return null
  if (offer.kind === 'gone') return <p className="list-item__note">No longer available.</p>
  if (offer.kind === 'sold-out') return <p className="list-item__note">Sold out in every size for now.</p>
  if (offer.kind === 'on-page')
    return (
      <a className="btn list-item__bag" href={item.url}>
        Choose options
      </a>
    )
  const sizes = offer.kind === 'sizes' ? offer.choices : []
  const open = sizes.filter((c) => !c.soldOut)
  const pick =
    offer.kind === 'sizes'
      ? sizes.find((c) => c.sku === (chosen || (open.length === 1 ? open[0]?.sku : '')))
      : undefined
  const move = async () => {
    if (offer.kind === 'sizes' && !pick) return setNote(`Please choose a ${offer.label.toLowerCase()} first.`)
    setBusy(true)
    const added = await addToCart([
      {
        sku: pick?.sku ?? item.sku,
        parentSku: item.sku,
        name: item.name,
        qty: 1,
        type_id: offer.kind === 'sizes' ? 'configurable' : 'simple',
        url_path: item.url.replace(/^\//, ''),
        image: item.image,
        priceInclTax: item.price,
        ...(pick ? { product_option: pick.productOption } : {}),
      },
    ]).catch(() => false)
    setBusy(false)
    if (!added) return setNote('This piece could not be added to your bag. Please try again.')
    await wishlist.remove(item.sku)
  }
  return (
    <div className="list-item__bag-form">
      {offer.kind === 'sizes' ? (
        <label htmlFor={id}>
          {offer.label}
          <select
            id={id}
            value={pick?.sku ?? ''}
            onChange={(e) => {
              setChosen(e.currentTarget.value)
              setNote(null)
            }}
          >
            <option value="">Choose…</option>
            {sizes.map((c) => (
              <option key={c.sku} value={c.sku} disabled={c.soldOut}>
                {c.soldOut ? `${c.label} — sold out` : c.label}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <button
        type="button"
        className="btn btn--primary list-item__bag"
        disabled={busy}
        onClick={() => void move()}
      >
        Move to bag
      </button>
      {note ? (
        <p className="form-error" role="alert">
          {note}
        </p>
      ) : null}
    </div>
  )
}
