/** The product form's price (a special price with the regular one struck and the discount) and its stock line. */
import type { FormChild } from '@shared/components/product/view'
import type { PriceView } from '@shared/domain/price'
import { MSG } from '@shared/i18n/messages'

export function PriceBlock({ price }: { price: PriceView }) {
  return (
    <div className="product-price" data-testid="product-price">
      {price.isOnSale ? (
        <>
          <span className="price price--special" data-testid="price-final">
            {price.formatted.final}
          </span>{' '}
          <del className="price price--regular" data-testid="price-regular">
            {price.formatted.regular}
          </del>{' '}
          <span className="price__discount" data-testid="price-discount">
            {`${price.discountPercent}% off`}
          </span>
        </>
      ) : (
        <span className="price" data-testid="price-final">
          {price.formatted.final}
        </span>
      )}
      <p className="price__note" data-testid="price-note">
        {price.note}
      </p>
    </div>
  )
}

/** In stock or the out-of-stock badge; a configurable product also names the chosen child's sku. */
export function StockLine({ inStock, variant }: { inStock: boolean; variant: FormChild | null }) {
  return (
    <p className="product-stock" data-testid="product-stock">
      {inStock ? (
        <span className="stock stock--in">In stock</span>
      ) : (
        <span className="badge badge--oos" data-testid="out-of-stock">
          {MSG.outOfStockBadge}
        </span>
      )}
      {variant ? (
        <span className="product-stock__sku" data-testid="variant-sku">
          {` SKU ${variant.sku}`}
        </span>
      ) : null}
    </p>
  )
}
