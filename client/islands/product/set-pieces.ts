/** The pieces of a set (a grouped or bundle product's linked products) as the product page reads their stock. */
import { isProductInStock } from '@shared/domain/availability'

/** A piece known to be out of stock; with no stock known it is offered, and the cart checks it. */
export function isOutOfStockPiece(piece: object | null | undefined): boolean {
  const stock = (piece as { stock?: Parameters<typeof isProductInStock>[0]['stock'] } | null | undefined)
    ?.stock
  return stock != null && !isProductInStock({ type_id: 'simple', stock })
}
