/**
 * A grouped product's associated products: name, price and a quantity each (invalid quantities
 * marked). A piece that is out of stock says so, and one whose own options must be chosen links to
 * its page; neither has a quantity here, and neither is added with the rest.
 */
import type { FormProduct } from '@shared/components/product/view'
import { isValidGroupedQty } from '@shared/domain/options'
import { type PriceViewOptions, priceView } from '@shared/domain/price'
import { MSG } from '@shared/i18n/messages'
import { isPieceOutOfStock, pieceOptionsUrl } from './cart-lines'

export function GroupedLinks({
  product,
  quantities,
  priceOptions,
  onChange,
}: {
  product: FormProduct
  quantities: Record<string, string>
  priceOptions: Pick<PriceViewOptions, 'now' | 'currency' | 'taxRules' | 'country'>
  onChange: (sku: string, qty: string) => void
}) {
  return (
    <table className="grouped-links" data-testid="grouped-links">
      <thead>
        <tr>
          <th scope="col">Product</th>
          <th scope="col">Price</th>
          <th scope="col">Quantity</th>
        </tr>
      </thead>
      <tbody>
        {product.product_links
          .filter((l) => l.link_type === 'associated')
          .map((link) => {
            const linkPrice = link.product ? priceView(link.product, priceOptions) : null
            const q = quantities[link.linked_product_sku] ?? '1'
            const name = link.product?.name ?? link.linked_product_sku
            const out = isPieceOutOfStock(link)
            const optionsUrl = out ? null : pieceOptionsUrl(link)
            return (
              <tr
                key={link.linked_product_sku}
                className={out ? 'grouped-links__oos' : undefined}
                data-testid="grouped-piece"
                data-sku={link.linked_product_sku}
                data-out-of-stock={out ? '' : undefined}
                data-needs-options={optionsUrl ? '' : undefined}
              >
                <td>{name}</td>
                <td className="price">{linkPrice?.formatted.final ?? ''}</td>
                <td>
                  {out ? (
                    <span className="badge badge--oos">{MSG.outOfStockBadge}</span>
                  ) : optionsUrl ? (
                    <a href={optionsUrl}>{MSG.pieceChooseOptions}</a>
                  ) : (
                    <input
                      type="number"
                      min={1}
                      inputMode="numeric"
                      aria-label={`Quantity of ${name}`}
                      value={q}
                      aria-invalid={!isValidGroupedQty(q)}
                      onChange={(e) => onChange(link.linked_product_sku, e.currentTarget.value)}
                    />
                  )}
                </td>
              </tr>
            )
          })}
      </tbody>
    </table>
  )
}
