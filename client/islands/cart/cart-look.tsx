/**
 * "Complete the look" under the bag: the pieces the bag's products are linked to, or, short of
 * those, "You may also like": pieces by the same designer or from the same category (GET
 * /api/cart/look, which applies the product page's rule and leaves out what is already in the bag),
 * each addable in one step — a piece with sizes asks for its size in place (sold-out sizes listed,
 * not choosable; a single open size is chosen already), a piece the bag cannot take as it is (a
 * bundle, a gift card) leads to its page. Nothing is shown when there is nothing to offer or the
 * request fails. The cart page loads this module only after its lines are on screen.
 */
import { IMAGE_SIZES } from '@shared/config/images'
import { imageUrl } from '@shared/domain/image-url'
import { useEffect, useId, useState } from 'react'
import { apiRaw } from '../../api'
import { getRuntime } from '../../engines/runtime/runtime'
import type { CartLine } from '../../state/cart'
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

function AddPiece({ piece }: { piece: LookPiece }) {
  const id = useId()
  const { offer } = piece
  const sizes = offer.kind === 'sizes' ? offer.choices : []
  const open = sizes.filter((c) => !c.soldOut)
  const [chosen, setChosen] = useState(open.length === 1 ? (open[0]?.sku ?? '') : '')
  const [note, setNote] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  if (offer.kind === 'gone' || offer.kind === 'sold-out') return null
  if (offer.kind === 'on-page')
    return (
      <a className="btn btn--secondary" href={piece.url}>
        Choose options
      </a>
    )
  const pick = sizes.find((c) => c.sku === chosen && !c.soldOut)
  const add = async () => {
    if (offer.kind === 'sizes' && !pick) return setNote(`Please choose a ${offer.label.toLowerCase()} first.`)
    setBusy(true)
    // The cart engine applies the add rules (stock, price, the notice) and syncs with the server.
    const added = await getRuntime()
      .cart.addItem(
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
      )
      .then((r) => r.ok)
      .catch(() => false)
    setBusy(false)
    if (!added) setNote('This piece could not be added to your bag. Please try again.')
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
        className="btn btn--primary"
        disabled={busy}
        onClick={() => void add()}
        // The visible words begin the name (a speech user says what they see).
        aria-label={`Add to bag: ${piece.name}`}
      >
        Add to bag
      </button>
      {note ? (
        <p className="form-error" role="alert">
          {note}
        </p>
      ) : null}
    </div>
  )
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
  const { width, height } = IMAGE_SIZES.listing
  return (
    <section className="recommendations cart-look" aria-labelledby="cart-look-title" data-testid="cart-look">
      <h2 id="cart-look-title">{look.linked ? 'Complete the look' : 'You may also like'}</h2>
      <ul className="recommendations__list">
        {pieces.map((p) => (
          <li key={p.sku} className="recommendations__item" data-sku={p.sku}>
            <a href={p.url}>
              {/* The name is the link's text: the picture adds nothing a screen reader should hear twice. */}
              <img
                src={imageUrl(p.image, width, height)}
                alt=""
                width={width}
                height={height}
                loading="lazy"
                decoding="async"
              />
              {p.designer ? <span className="recommendations__designer">{p.designer}</span> : null}
              <span className="recommendations__name">{p.name}</span>
            </a>
            <span className="price">{p.formatted}</span>
            <AddPiece piece={p} />
          </li>
        ))}
      </ul>
    </section>
  )
}
