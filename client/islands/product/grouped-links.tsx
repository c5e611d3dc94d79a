/**
 * A grouped product's pieces: each with its picture, name, stock, price and a quantity (1 to take
 * it, 0 to leave it out; an invalid quantity is marked). A piece that is out of stock says so, and
 * one whose own options must be chosen links to its page; neither has a quantity here, and neither
 * is added with the rest. The page's price above the table is what the chosen pieces cost.
 */
import { ListImage } from '@shared/components/catalog/list-image'
import type { FormProduct } from '@shared/components/product/view'
import { productPath } from '@shared/config/links'
import { isValidGroupedQty, toQuantity } from '@shared/domain/options'
import { type PriceViewOptions, priceView } from '@shared/domain/price'
import { MSG } from '@shared/i18n/messages'
import type { AddToCartLine } from './add-to-cart'
import { groupedChoice, isPieceOutOfStock, pieceOptionsUrl } from './cart-lines'

/**
 * The lines of a grouped product: the chosen pieces (groupedChoice), each at its own price with its
 * own picture, linking back to the set's page.
 */
export function groupedCartLines(
  product: FormProduct,
  quantities: Record<string, string>,
  ctx: Pick<PriceViewOptions, 'now' | 'currency' | 'taxRules' | 'country'>,
): AddToCartLine[] {
  const chosen = groupedChoice(product, quantities)
  const lines: AddToCartLine[] = []
  for (const link of product.product_links) {
    const qty = chosen[link.linked_product_sku]
    if (!qty || !link.product) continue
    const piece = link.product as typeof link.product & { image?: string | null }
    lines.push({
      sku: link.linked_product_sku,
      parentSku: product.sku,
      name: piece.name,
      qty,
      priceInclTax: priceView(piece, ctx).finalInclTax,
      type_id: 'simple',
      image: piece.image ?? product.image ?? null,
      url_path: productPath(product.sku, product.slug),
    })
  }
  return lines
}

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
      <caption className="grouped-links__caption">
        Choose the pieces you want: set a quantity to 0 to leave one out. The price above is for the pieces
        chosen.
      </caption>
      <thead>
        <tr>
          <th scope="col">Piece</th>
          <th scope="col">Price</th>
          <th scope="col">Quantity</th>
        </tr>
      </thead>
      <tbody>
        {product.product_links
          .filter((l) => l.link_type === 'associated')
          .map((link) => {
            const piece = link.product as (typeof link.product & { image?: string | null }) | null | undefined
            const linkPrice = piece ? priceView(piece, priceOptions) : null
            const q = quantities[link.linked_product_sku] ?? '1'
            const name = piece?.name ?? link.linked_product_sku
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
                <td className="grouped-links__piece">
                  <ListImage path={piece?.image} size="cart" shown={{ width: 56, height: 56 }} />
                  <span>
                    {name}
                    <br />
                    {out ? (
                      <span className="badge badge--oos">{MSG.outOfStockBadge}</span>
                    ) : (
                      <small className="stock stock--in">In stock</small>
                    )}
                  </span>
                </td>
                <td className="price">{linkPrice?.formatted.final ?? ''}</td>
                <td>
                  {out ? null : optionsUrl ? (
                    <a href={optionsUrl}>{MSG.pieceChooseOptions}</a>
                  ) : (
                    <input
                      type="number"
                      min={0}
                      inputMode="numeric"
                      aria-label={`Quantity of ${name}`}
                      value={q}
                      aria-invalid={toQuantity(q) !== 0 && !isValidGroupedQty(q)}
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
