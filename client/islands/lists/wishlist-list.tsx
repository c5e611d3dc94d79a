/** The wishlist's items (shared by the header panel and the /wishlist page). */
import { useEffect } from 'react'
import { useSignalValue } from '../../state/use-signal'
import { wishlist } from '../../state/wishlist'
import { ListItem } from './list-item'

export function WishlistList({ currency }: { currency: string }) {
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
        />
      ))}
    </ul>
  )
}
