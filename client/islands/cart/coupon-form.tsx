/** Coupon apply/remove: offered only while the cart is connected to the server (coupons live in the server cart). */
import { computed } from '@preact/signals-core'
import { useState } from 'react'
import { getRuntime } from '../../engines/runtime/runtime'
import { cartCoupon, isCartConnected } from '../../state/cart'
import { useSignalValue } from '../../state/use-signal'

/** The applied coupon's code, or null. */
const appliedCoupon = computed(() => cartCoupon.value?.code ?? null)

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
            await getRuntime()
              .cart.removeCoupon()
              .finally(() => setBusy(false))
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
        const ok = await getRuntime()
          .cart.applyCoupon(code.trim())
          .finally(() => setBusy(false))
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
