/**
 * A listed piece added to the bag in place: the wishlist's "Move to bag" and the cart's "Complete
 * the look". A piece with sizes asks for its size here (sold-out sizes listed, not choosable; a
 * single open size is chosen already); a piece the bag cannot take as it is (a bundle, a gift card)
 * leads to its page; a piece gone or sold out offers nothing (the caller may say why). The cart
 * engine applies the add rules (stock, price, the notice) and syncs with the server; the runtime is
 * loaded on the first add, as on the product page.
 */
import { FormError } from '@shared/components/form-error'
import { useId, useState } from 'react'
import type { BagOffer } from './bag-choices'

/** What the bag's line is made from: the piece as the list shows it (unit price in the base currency incl. tax). */
interface BagPiece {
  sku: string
  name: string
  url: string
  image: string | null
  price: number
}

export function AddToBag({
  piece,
  offer,
  action,
  className,
  onAdded,
}: {
  piece: BagPiece
  offer: BagOffer
  /** The button's words ("Move to bag"); its name adds the piece's, so each button is told apart. */
  action: string
  /** The class the button and the link to the piece's page add to the shop's button classes. */
  className?: string
  /** Runs once the piece is in the bag (the wishlist then takes it off). */
  onAdded?: () => Promise<unknown> | undefined
}) {
  const id = useId()
  const sizes = offer.kind === 'sizes' ? offer.choices : []
  const open = sizes.filter((c) => !c.soldOut)
  const [chosen, setChosen] = useState(open.length === 1 ? (open[0]?.sku ?? '') : '')
  const [note, setNote] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  if (offer.kind === 'gone' || offer.kind === 'sold-out') return null
  const extra = className ? ` ${className}` : ''
  if (offer.kind === 'on-page')
    return (
      <a className={`btn btn--secondary${extra}`} href={piece.url}>
        Choose options
      </a>
    )
  const pick = sizes.find((c) => c.sku === chosen && !c.soldOut)
  const add = async () => {
    if (offer.kind === 'sizes' && !pick) return setNote(`Please choose a ${offer.label.toLowerCase()} first.`)
    setBusy(true)
    const added = await import('../../engines/runtime/runtime')
      .then(({ getRuntime }) =>
        getRuntime().cart.addItem(
          {
            sku: pick?.sku ?? piece.sku,
            parentSku: piece.sku,
            name: piece.name,
            type_id: offer.kind === 'sizes' ? 'configurable' : 'simple',
            url_path: piece.url.replace(/^\//, ''),
            image: piece.image,
            finalPriceInclTax: piece.price,
            ...(pick ? { product_option: pick.productOption } : {}),
          },
          1,
        ),
      )
      .then((r) => r.ok)
      .catch(() => false)
    setBusy(false)
    if (!added) return setNote('This piece could not be added to your bag. Please try again.')
    await onAdded?.()
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
        className={`btn btn--primary${extra}`}
        disabled={busy}
        onClick={() => void add()}
        // The visible words begin the name (a speech user says what they see).
        aria-label={`${action}: ${piece.name}`}
      >
        {action}
      </button>
      <FormError message={note} />
    </div>
  )
}
