/** The checkout's aside: the items (picture, options, quantity, price), the totals, and where to write with questions. */
import { TotalsSummary } from '@shared/components/checkout/totals-summary'
import type { CartLine, CartTotalSegment } from '../../state/cart'
import { CartLines } from '../cart/cart-lines'
import { RepriceNote } from '../cart/reprice-note'
import { formatPageAmount, pagePriceNote } from '../page-price'

export function OrderSummary({
  count,
  lines,
  segments,
  note,
  supportEmail,
}: {
  count: number
  lines: readonly CartLine[]
  /** The totals, in the page's currency (the server's only when it priced the cart in it). */
  segments: CartTotalSegment[]
  /** The sentence about the tax the prices include for the shipping country. */
  note?: string | null
  supportEmail: string
}) {
  return (
    <aside className="checkout__aside" aria-label="Order summary">
      <h2>Order summary</h2>
      <p>{count} item(s) in cart</p>
      <RepriceNote hasLines={lines.length > 0} />
      <CartLines lines={lines} compact readOnly />
      <TotalsSummary segments={segments} format={(n) => formatPageAmount(n)} note={note ?? pagePriceNote()} />
      <p className="checkout__help">
        Questions about your order? Write to <a href={`mailto:${supportEmail}`}>{supportEmail}</a>.
      </p>
    </aside>
  )
}
