/** One product row of the wishlist panel/page: image, name, price, what else the page offers, and a remove button. */

import type { ProductSummary } from '@shared/components/product/summary'
import { IMAGE_SIZES } from '@shared/config/images'
import { formatUnitPrice } from '@shared/domain/currency'
import { imageUrl } from '@shared/domain/image-url'
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
  const { width, height } = IMAGE_SIZES.cart
  return (
    <li className="list-item" data-sku={item.sku} data-testid="list-item">
      <a href={item.url} className="list-item__link">
        <img src={imageUrl(item.image, width, height)} alt="" width={width} height={height} loading="lazy" />
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
