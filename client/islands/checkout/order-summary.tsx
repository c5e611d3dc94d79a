/** The checkout's aside: item count, the totals, and where to write with questions. */
import { TotalsSummary } from '@shared/components/checkout/totals-summary'
import type { CartTotalSegment } from '../../state/cart'
import { formatPagePrice } from '../page-price'

export function OrderSummary({
  count,
  segments,
  supportEmail,
}: {
  count: number
  segments: CartTotalSegment[]
  supportEmail: string
}) {
  return (
    <aside className="checkout__aside" aria-label="Order summary">
      <h2>Order summary</h2>
      <p>{count} item(s) in cart</p>
      <TotalsSummary segments={segments} format={formatPagePrice} />
      <p className="checkout__help">
        Questions about your order? Write to <a href={`mailto:${supportEmail}`}>{supportEmail}</a>.
      </p>
    </aside>
  )
}
