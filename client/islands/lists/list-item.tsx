/** One product row of the wishlist panel/page: image, name, price, what else the page offers, and a remove button. */

import { ListImage } from '@shared/components/catalog/list-image'
import type { ProductSummary } from '@shared/components/product/summary'
import { formatUnitPrice } from '@shared/domain/currency'
import type { ReactNode } from 'react'

export function ListItem({
  item,
  currency,
  onRemove,
  removeLabel,
  children,
}: {
  item: ProductSummary
  currency: string
  onRemove: () => void
  removeLabel: string
  /** More controls of the row (the wishlist page's move to bag). */
  children?: ReactNode
}) {
  return (
    <li className="list-item" data-sku={item.sku} data-testid="list-item">
      <a href={item.url} className="list-item__link">
        <ListImage path={item.image} size="cart" />
        <span className="list-item__name">{item.name}</span>
      </a>
      <span className="price list-item__price">
        {formatUnitPrice(item.price, currency)}
        {item.regularPrice ? (
          <>
            {' '}
            <del>{formatUnitPrice(item.regularPrice, currency)}</del>
          </>
        ) : null}
      </span>
      {children}
      <button
        type="button"
        className="link-button list-item__remove"
        onClick={onRemove}
        aria-label={`${removeLabel}: ${item.name}`}
      >
        {removeLabel}
      </button>
    </li>
  )
}
