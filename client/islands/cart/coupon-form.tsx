/** Coupon apply/remove: offered only when the cart is connected ("Coupon actions run only when ... connected"). */
import { useState } from 'react'
import { useSignalValue } from '../../state/use-signal'
import { appliedCoupon, applyCoupon, isCartConnected, removeCoupon } from '../checkout/adapters'

export function CouponForm() {
  const connected = useSignalValue(isCartConnected)
  const coupon = useSignalValue(appliedCoupon)
  const [code, setCode] = useState('')
  const [busy, setBusy] = useState(false)
  if (!connected) return null
  if (coupon) {
    return (
      <div className="coupon" data-testid="coupon-applied">
        <p>
          Discount code <strong>{coupon}</strong> applied
        </p>
        <button
          type="button"
          className="btn btn--link"
          disabled={busy}
          onClick={async () => {
            setBusy(true)
            await removeCoupon().finally(() => setBusy(false))
          }}
        >
          Remove code
        </button>
      </div>
    )
  }
  return (
    <form
      className="coupon"
      onSubmit={async (e) => {
        e.preventDefault()
        if (!code.trim()) return
        setBusy(true)
        const ok = await applyCoupon(code.trim()).finally(() => setBusy(false))
        if (ok) setCode('')
      }}
    >
      <label htmlFor="coupon-code">Discount code</label>
      <div className="coupon__row">
        <input
          id="coupon-code"
          value={code}
          onChange={(e) => setCode(e.currentTarget.value)}
          autoComplete="off"
        />
        <button type="submit" className="btn btn--secondary" disabled={busy || !code.trim()}>
          Apply
        </button>
      </div>
    </form>
  )
}
