/** The wishlist's items (shared by the header panel and the /wishlist page). */
import type { ProductSummary } from '@shared/components/product/summary'
import { type ReactNode, useEffect } from 'react'
import { useSignalValue } from '../../state/use-signal'
import { wishlist } from '../../state/wishlist'
import { ListItem } from './list-item'

export function WishlistList({
  currency,
  rowExtra,
}: {
  currency: string
  /** What the wishlist page adds to each row (the panel adds nothing). */
  rowExtra?: (item: ProductSummary) => ReactNode
}) {
  const items = useSignalValue(wishlist.items)
  const loaded = useSignalValue(wishlist.loaded)
  useEffect(() => {
    void wishlist.load()
  }, [])
  if (!loaded) return <p className="list-loading">Loading your wishlist…</p>
  if (items.length === 0)
    return (
      <p className="list-empty" data-testid="wishlist-empty">
        Your wishlist is empty.
      </p>
    )
  return (
    <ul className="list-items" data-testid="wishlist-items">
      {items.map((item) => (
        <ListItem
          key={item.sku}
          item={item}
          currency={currency}
          removeLabel="Remove"
          onRemove={() => void wishlist.remove(item.sku)}
        >
          {rowExtra?.(item)}
        </ListItem>
      ))}
    </ul>
  )
}
