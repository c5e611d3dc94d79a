/** The "Ship to" row of an order's facts (confirmation and order pages): the address, a line each. */
import { addressLines } from './order-text'

export function ShipTo({ address }: { address: Record<string, unknown> }) {
  return (
    <div>
      <dt>Ship to</dt>
      <dd data-testid="order-address">
        {addressLines(address).map((l) => (
          <span key={l} className="order-facts__line">
            {l}
          </span>
        ))}
      </dd>
    </div>
  )
}
