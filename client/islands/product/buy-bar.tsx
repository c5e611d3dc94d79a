/**
 * The phone's add-to-bag bar: fixed to the bottom of the screen with the product's name, price and
 * its own Add to cart button. It appears only once the form's Add to cart button has scrolled up
 * out of view, so it never covers the price, the swatches or that button; until then it is inert
 * (out of the accessibility tree and the tab order). Wide screens never show it (CSS). Being fixed
 * and sliding in by a transform, it moves nothing else on the page.
 */
import { type RefObject, useEffect, useState } from 'react'

export function BuyBar({
  watch,
  name,
  price,
  canAdd,
  onAdd,
}: {
  /** The form's own Add to cart button: the bar shows once it has scrolled up past the top edge. */
  watch: RefObject<HTMLElement | null>
  name: string
  price: string
  canAdd: boolean
  onAdd: () => void
}) {
  const [shown, setShown] = useState(false)
  useEffect(() => {
    const button = watch.current
    if (!button || typeof IntersectionObserver !== 'function') return
    // The observed area starts under the sticky header (a button behind it is out of view too) and
    // reaches far below the screen, so the button counts as "in" until it leaves by the top: a fast
    // scroll that jumps it from below to above the screen still flips it.
    const header = Math.round(document.querySelector('header')?.getBoundingClientRect().height ?? 0)
    const observer = new IntersectionObserver(
      ([entry]) => {
        if (entry)
          setShown(
            !entry.isIntersecting && entry.boundingClientRect.bottom <= (entry.rootBounds?.top ?? 0) + 1,
          )
      },
      { rootMargin: `-${header}px 0px 100000px 0px` },
    )
    observer.observe(button)
    return () => observer.disconnect()
  }, [watch])
  return (
    <div
      className={shown ? 'buy-bar buy-bar--shown' : 'buy-bar'}
      inert={!shown}
      aria-hidden={!shown}
      data-testid="buy-bar"
    >
      <p className="buy-bar__what">
        <span className="buy-bar__name">{name}</span>
        <span className="buy-bar__price">{price}</span>
      </p>
      <button
        type="button"
        className="btn btn--primary buy-bar__add"
        disabled={!canAdd}
        onClick={onAdd}
        data-testid="buy-bar-add"
      >
        Add to cart
      </button>
    </div>
  )
}
