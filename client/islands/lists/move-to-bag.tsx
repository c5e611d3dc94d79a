/**
 * "Move to bag" on the wishlist page: each piece as the catalogue has it now (catalog-products.ts),
 * a configurable piece asks for its size in place (sold-out sizes shown, not
 * choosable), a piece sold out or gone says so in words, and a piece moved is added to the bag
 * (the cart engine's add rules) and then taken off the wishlist.
 */

import type { ProductSummary } from '@shared/components/product/summary'
import { useId, useState } from 'react'
import { wishlist } from '../../state/wishlist'
import type { BagOffer } from './bag-choices'

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
    // The cart engine applies the add rules (stock, price, the notice) and syncs with the server;
    // the runtime is loaded on the first move, as on the product page.
    const added = await import('../../engines/runtime/runtime')
      .then(({ getRuntime }) =>
        getRuntime().cart.addItem(
          {
            sku: pick?.sku ?? item.sku,
            parentSku: item.sku,
            name: item.name,
            type_id: offer.kind === 'sizes' ? 'configurable' : 'simple',
            url_path: item.url.replace(/^\//, ''),
            image: item.image,
            finalPriceInclTax: item.price,
            ...(pick ? { product_option: pick.productOption } : {}),
          },
          1,
        ),
      )
      .then((r) => r.ok)
      .catch(() => false)
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
